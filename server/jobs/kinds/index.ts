import type { JobKind } from '../../db/schema';
import type { JobHandler } from '../runner';
import { documentJobs } from './document';
import { imageJobs } from './image';
import { pdfJobs } from './pdf';
import { speechJobs } from './speech';
import { websiteJobs } from './website';

/** The kinds of job that run on the job runner, by kind. */
export const jobHandlers: Partial<Record<JobKind, JobHandler>> = {
  document: documentJobs,
  pdf: pdfJobs,
  image: imageJobs,
  speech: speechJobs,
  website: websiteJobs,
};

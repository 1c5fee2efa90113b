// The operators' calls on the job queue (/admin/v1/jobs: docs/jobs.md), typed by the contract.
import type { components } from '../../openapi/schema';
import { api, unwrap } from './client';

export type JobQueue = components['schemas']['JobQueue'];
export type Job = components['schemas']['Job'];

export function jobQueue(): Promise<JobQueue> {
  return unwrap(api.GET('/admin/v1/jobs'));
}

/** Queues a failed or cancelled job again (nothing more is charged). */
export function retryJob(id: number): Promise<Job> {
  return unwrap(api.POST('/admin/v1/jobs/{id}/retry', { params: { path: { id } } }));
}

/** Stops a queued or running job; its charge is refunded. */
export function cancelJob(id: number): Promise<Job> {
  return unwrap(api.POST('/admin/v1/jobs/{id}/cancel', { params: { path: { id } } }));
}

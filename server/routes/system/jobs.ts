import { conflict, envelope, notFound } from '../../errors';
import { findJobById, queueOverview, type JobRecord } from '../../jobs/store';
import { requireOperator, type Operations } from '../types';

/** A job as operators see it (openapi Job). */
export const jobView = (job: JobRecord) => ({
  id: Number(job.id),
  kind: job.kind,
  ref: Number(job.ref),
  uid: Number(job.uid),
  state: job.state,
  progress: Number(job.progress),
  attempts: Number(job.attempts),
  owner: job.owner,
  error_code: job.error_code,
  created_at: job.created_at,
  updated_at: job.updated_at,
});

/** The job queue for site operators (docs/jobs.md): what waits, what runs where, what failed; retry and cancel. */
export const jobOperations: Operations = {
  getAdminV1Jobs: async (request) => {
    await requireOperator(request);
    const queue = await queueOverview(request.server.db);
    const oldest = queue.oldestQueuedAt ? Date.parse(queue.oldestQueuedAt) : null;
    return envelope({
      counts: queue.counts,
      oldest_queued_seconds: oldest === null ? null : Math.max(0, Math.floor((Date.now() - oldest) / 1000)),
      running: queue.running.map(jobView),
      failures: queue.failures.map(jobView),
    });
  },

  postAdminV1JobsByIdRetry: async (request) => {
    await requireOperator(request);
    const { jobs, db } = request.server;
    if (!(await findJobById(db, request.params.id))) throw notFound('job.unknown');
    if (!(await jobs.retryById(request.params.id))) throw conflict('job.not_ended');
    return envelope(jobView((await findJobById(db, request.params.id))!));
  },

  postAdminV1JobsByIdCancel: async (request) => {
    await requireOperator(request);
    const { jobs, db } = request.server;
    if (!(await findJobById(db, request.params.id))) throw notFound('job.unknown');
    if (!(await jobs.cancelById(request.params.id))) throw conflict('job.not_running');
    return envelope(jobView((await findJobById(db, request.params.id))!));
  },
};

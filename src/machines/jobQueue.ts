// The operators' view of the job queue (/user, accounts with role root): the queue is loaded, refreshed on demand,
// and a failed job retried or a queued or running one cancelled after the operator confirms. The calls are bound by
// live-jobs.ts (or a test).
import { assign, fromPromise, setup } from 'xstate';
import type { Job, JobQueue } from '../api/jobs';
import { notProvided } from './provide';

export type JobAction = 'retry' | 'cancel';

export interface JobQueueContext {
  queue: JobQueue | null;
  /** the job the operator is asked to confirm an action on */
  pending: { action: JobAction; job: Job } | null;
  /** the last call's failure, as the server said it */
  error: string | null;
}

export type JobQueueEvent =
  | { type: 'refresh requested' }
  | { type: 'retry requested'; job: Job }
  | { type: 'cancel requested'; job: Job }
  | { type: 'confirmed' }
  | { type: 'dismissed' };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const jobQueueMachine = setup({
  types: {
    context: {} as JobQueueContext,
    events: {} as JobQueueEvent,
  },
  actors: {
    /** GET /admin/v1/jobs */
    load: fromPromise<JobQueue>(notProvided('jobQueue', 'load')),
    /** POST /admin/v1/jobs/{id}/retry or /cancel */
    act: fromPromise<Job, { action: JobAction; id: number }>(notProvided('jobQueue', 'act')),
  },
  actions: {
    'ask to confirm': assign(({ event }) => {
      if (event.type === 'retry requested') return { pending: { action: 'retry' as const, job: event.job } };
      if (event.type === 'cancel requested') return { pending: { action: 'cancel' as const, job: event.job } };
      return {};
    }),
    'forget the request': assign({ pending: null }),
    'clear the error': assign({ error: null }),
  },
}).createMachine({
  id: 'jobQueue',
  context: { queue: null, pending: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      entry: 'clear the error',
      invoke: {
        src: 'load',
        onDone: { target: 'ready', actions: assign({ queue: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
      },
    },
    failed: {
      on: { 'refresh requested': 'loading' },
    },
    ready: {
      on: {
        'refresh requested': 'loading',
        'retry requested': { target: 'confirming', actions: ['clear the error', 'ask to confirm'] },
        'cancel requested': { target: 'confirming', actions: ['clear the error', 'ask to confirm'] },
      },
    },
    confirming: {
      on: {
        confirmed: 'acting',
        dismissed: { target: 'ready', actions: 'forget the request' },
      },
    },
    acting: {
      invoke: {
        src: 'act',
        input: ({ context }) => ({ action: context.pending!.action, id: context.pending!.job.id }),
        onDone: { target: 'loading', actions: 'forget the request' },
        onError: {
          target: 'ready',
          actions: ['forget the request', assign({ error: ({ event }) => messageOf(event.error) })],
        },
      },
    },
  },
});

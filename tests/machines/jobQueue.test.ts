// Model-based test of the operators' job queue (/user, role root): an abstract model whose paths drive the REAL live
// machine (liveJobQueue: the /admin/v1/jobs calls through the API client). Only the transport is fake: it answers
// like the server, a retried job leaving the failures, a cancelled one the running jobs, a refused call with 409.
import { afterAll, describe, expect, it } from 'vitest';
import { createActor, setup } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { modelOptions, settle, fakeApi } from './model';
import { liveJobQueue } from '../../src/machines/live-jobs';
import type { Job } from '../../src/api/jobs';
import { collectNotices } from '../api/helpers';

const model = setup({
  types: {} as {
    events:
      | { type: 'OPEN' }
      | { type: 'ASK_RETRY' }
      | { type: 'ASK_CANCEL' }
      | { type: 'DISMISS' }
      | { type: 'CONFIRM' }
      | { type: 'CONFIRM_REFUSED' };
  },
}).createMachine({
  id: 'jobQueueModel',
  initial: 'start',
  states: {
    start: { on: { OPEN: 'both' } },
    // one failed and one running job
    both: { on: { ASK_RETRY: 'askingRetry', ASK_CANCEL: 'askingCancel' } },
    askingRetry: { on: { DISMISS: 'both', CONFIRM: 'retried', CONFIRM_REFUSED: 'refused' } },
    askingCancel: { on: { DISMISS: 'both', CONFIRM: 'cancelled' } },
    retried: {},
    cancelled: {},
    refused: {},
  },
});

const { unsubscribe } = collectNotices();
afterAll(unsubscribe);
const NOW = '2026-11-29T02:00:00.000Z';
const ok = (result: unknown) => ({ body: { code: 200, msg: 'success', result } });
const job = (over: Partial<Job>): Job => ({
  id: 1,
  kind: 'document',
  ref: 10,
  uid: 7,
  state: 'failed',
  progress: 0,
  attempts: 3,
  owner: null,
  error_code: 'document.failed',
  created_at: NOW,
  updated_at: NOW,
  ...over,
});
const FAILED = job({});
const RUNNING = job({ id: 2, kind: 'website', ref: 11, state: 'running', progress: 40, owner: 'p1', error_code: null });

describe('the job queue screen', () => {
  const paths = createTestModel(model, modelOptions).getShortestPaths({ allowDuplicatePaths: true });
  for (const path of paths) {
    it(path.description, async () => {
      const routes: Record<string, { status?: number; body?: unknown }> = {};
      const transport = fakeApi(routes);
      const held: { actor: ReturnType<typeof createActor<ReturnType<typeof liveJobQueue>>> | null } = { actor: null };
      const a = () => held.actor!;
      const serverSays = (running: Job[], failures: Job[]) => {
        const counts = [...running, ...failures].map((j) => ({ kind: j.kind, state: j.state, count: 1 }));
        routes['GET /admin/v1/jobs'] = ok({ counts, oldest_queued_seconds: null, running, failures });
      };
      const calls = (key: string) =>
        transport.requests.filter((r) => `${r.method} ${new URL(r.url).pathname}` === key).length;
      await path.test({
        events: {
          OPEN: async () => {
            serverSays([RUNNING], [FAILED]);
            held.actor = createActor(liveJobQueue());
            a().start();
            await settle();
          },
          ASK_RETRY: async () => {
            a().send({ type: 'retry requested', job: FAILED });
            await settle();
          },
          ASK_CANCEL: async () => {
            a().send({ type: 'cancel requested', job: RUNNING });
            await settle();
          },
          DISMISS: async () => {
            a().send({ type: 'dismissed' });
            await settle();
          },
          CONFIRM: async () => {
            const pending = a().getSnapshot().context.pending!;
            if (pending.action === 'retry') {
              routes['POST /admin/v1/jobs/1/retry'] = ok({ ...FAILED, state: 'queued', attempts: 0 });
              serverSays([RUNNING], []);
            } else {
              routes['POST /admin/v1/jobs/2/cancel'] = ok({ ...RUNNING, state: 'cancelled' });
              serverSays([], [FAILED]);
            }
            a().send({ type: 'confirmed' });
            await settle(10);
          },
          CONFIRM_REFUSED: async () => {
            routes['POST /admin/v1/jobs/1/retry'] = {
              status: 409,
              body: { code: 409, msg: '任务尚未结束', msg_code: 'job.not_ended' },
            };
            a().send({ type: 'confirmed' });
            await settle(10);
          },
        },
        states: {
          start: () => {},
          both: () => {
            const snap = a().getSnapshot();
            expect(snap.value).toBe('ready');
            expect(snap.context.pending).toBeNull();
            expect(snap.context.queue?.failures.map((j) => j.id)).toEqual([1]);
            expect(snap.context.queue?.running.map((j) => j.id)).toEqual([2]);
            // nothing is retried or cancelled without a confirmation
            expect(calls('POST /admin/v1/jobs/1/retry') + calls('POST /admin/v1/jobs/2/cancel')).toBe(0);
          },
          askingRetry: () => {
            const snap = a().getSnapshot();
            expect(snap.value).toBe('confirming');
            expect(snap.context.pending).toMatchObject({ action: 'retry', job: { id: 1 } });
          },
          askingCancel: () => {
            expect(a().getSnapshot().context.pending).toMatchObject({ action: 'cancel', job: { id: 2 } });
          },
          retried: () => {
            const snap = a().getSnapshot();
            expect(snap.value).toBe('ready');
            expect(calls('POST /admin/v1/jobs/1/retry')).toBe(1);
            // the queue is read again: the job left the failures
            expect(snap.context.queue?.failures).toEqual([]);
          },
          cancelled: () => {
            const snap = a().getSnapshot();
            expect(calls('POST /admin/v1/jobs/2/cancel')).toBe(1);
            expect(snap.context.queue?.running).toEqual([]);
          },
          refused: () => {
            const snap = a().getSnapshot();
            expect(snap.value).toBe('ready');
            expect(snap.context.pending).toBeNull();
            expect(snap.context.error).toBeTruthy();
            expect(snap.context.queue?.failures.map((j) => j.id)).toEqual([1]);
          },
        },
      });
      held.actor?.stop();
    });
  }
});

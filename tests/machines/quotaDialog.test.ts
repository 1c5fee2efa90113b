// Model-based test of the quota dialog (spec §2, §9): an abstract model without timers, whose paths
// drive the REAL live quota dialog. Only the transport is fake: a fetch answering 402.
import { afterAll, describe, expect, it } from 'vitest';
import { assign, createActor, setup, SimulatedClock } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { modelOptions } from './model';
import { configureApi, api, unwrap } from '../../src/api/client';
import { liveQuotaDialog } from '../../src/machines/live';
import { QUOTA_DIALOG_AUTO_CLOSE_MS } from '../../src/machines/quotaDialog';
import { collectNotices, fakeFetch, freshStores } from '../api/helpers';

/** The abstract model: what the user can observe. `elapsed` is seconds since the dialog (re)opened. */
const model = setup({
  types: {} as {
    context: { kind: 1 | 2; elapsed: 0 | 3 | 6 };
    events:
      | { type: 'QUOTA_EXHAUSTED_1' }
      | { type: 'QUOTA_EXHAUSTED_2' }
      | { type: 'FREE_SPEED_UP' }
      | { type: 'UPGRADE' }
      | { type: 'DISMISS' }
      | { type: 'THREE_SECONDS_PASS' };
  },
  // a closed dialog remembers nothing, so the model has one closed state
  actions: { reset: assign({ kind: 1, elapsed: 0 }) },
}).createMachine({
  id: 'quotaModel',
  context: { kind: 1, elapsed: 0 },
  initial: 'closed',
  states: {
    closed: {
      on: {
        QUOTA_EXHAUSTED_1: { target: 'open', actions: assign({ kind: 1, elapsed: 0 }) },
        QUOTA_EXHAUSTED_2: { target: 'open', actions: assign({ kind: 2, elapsed: 0 }) },
        THREE_SECONDS_PASS: { target: 'closed' },
      },
    },
    open: {
      on: {
        FREE_SPEED_UP: { target: 'closed', actions: 'reset' },
        UPGRADE: { target: 'closed', actions: 'reset' },
        DISMISS: { target: 'closed', actions: 'reset' },
        // a second exhaustion while open restarts the 6 s with the new kind
        QUOTA_EXHAUSTED_1: { target: 'open', actions: assign({ kind: 1, elapsed: 0 }) },
        QUOTA_EXHAUSTED_2: { target: 'open', actions: assign({ kind: 2, elapsed: 0 }) },
        THREE_SECONDS_PASS: [
          { guard: ({ context }) => context.kind === 2 && context.elapsed === 3, target: 'closed', actions: 'reset' },
          // kind 1 stays open however long it waits
          { target: 'open', actions: assign({ elapsed: ({ context }) => (context.elapsed === 0 ? 3 : 6) as 3 | 6 }) },
        ],
      },
    },
  },
});

const { notices, unsubscribe } = collectNotices();
afterAll(unsubscribe);

function harness() {
  freshStores();
  notices.length = 0;
  const navigations: string[] = [];
  const transport = fakeFetch({
    'POST /misscut/v1/check_text': { status: 402, body: { code: 402, msg: '高速校对额度已用完', result: { kind: 1 } } },
    'POST /misscut/v2/check_text': { status: 402, body: { code: 402, msg: '高速校对额度已用完', result: { kind: 2 } } },
  });
  configureApi({ baseURL: 'http://api.test', fetch: transport.fetch });
  const clock = new SimulatedClock();
  const actor = createActor(liveQuotaDialog({ navigate: (p) => navigations.push(p) }), { clock });
  actor.start();
  const exhaust = async (version: 'v1' | 'v2') => {
    await expect(
      unwrap(api.POST(`/misscut/${version}/check_text` as '/user/login', { body: {} as never })),
    ).rejects.toMatchObject({ status: 402 });
  };
  return { actor, clock, navigations, exhaust };
}

describe('quota dialog (model-based)', () => {
  const testModel = createTestModel(model, modelOptions);
  // one shortest path to every transition of the model (self-loops included, see ./model)
  const shortest = testModel.getShortestPaths({ allowDuplicatePaths: true });
  console.log(`quota dialog: ${shortest.length} shortest paths`);

  it('has enough paths to cover the flow', () => {
    expect(shortest.length).toBeGreaterThanOrEqual(30);
  });

  const runPath = async (path: (typeof shortest)[number]) => {
    const h = harness();
    // what the user must have been sent to so far, per the model
    const expected: string[] = [];
    await path.test({
      events: {
        QUOTA_EXHAUSTED_1: () => h.exhaust('v1'),
        QUOTA_EXHAUSTED_2: () => h.exhaust('v2'),
        FREE_SPEED_UP: () => {
          expected.push('/share');
          h.actor.send({ type: 'free speed-up chosen' });
        },
        UPGRADE: () => {
          expected.push('/upgrade');
          h.actor.send({ type: 'upgrade chosen' });
        },
        DISMISS: () => {
          h.actor.send({ type: 'dismissed' });
        },
        THREE_SECONDS_PASS: () => h.clock.increment(QUOTA_DIALOG_AUTO_CLOSE_MS / 2),
      },
      states: {
        closed: () => {
          expect(h.actor.getSnapshot().value).toBe('closed');
          expect(h.navigations).toEqual(expected);
        },
        open: (state) => {
          const snapshot = h.actor.getSnapshot();
          expect(snapshot.value).toBe('open');
          expect(snapshot.context.kind).toBe(state.context.kind);
          expect(h.navigations).toEqual(expected);
        },
      },
    });
    // The exhausted quota opens the dialog instead of a toast.
    expect(notices).toEqual([]);
    h.actor.stop();
  };

  for (const path of shortest) {
    it(path.description, () => runPath(path));
  }

  // Longer than any shortest path: a second exhaustion 3 s in restarts the 6 s.
  const restart = testModel.getPathsFromEvents([
    { type: 'QUOTA_EXHAUSTED_2' },
    { type: 'THREE_SECONDS_PASS' },
    { type: 'QUOTA_EXHAUSTED_2' },
    { type: 'THREE_SECONDS_PASS' },
    { type: 'THREE_SECONDS_PASS' },
  ]);
  for (const path of restart) {
    it(`restart: ${path.description}`, () => runPath(path));
  }
});

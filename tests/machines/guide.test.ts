// Model-based test of the guide modal's machine: an abstract model whose paths drive the REAL live machine
// (liveGuide: GET /wizard/v1/access through the API client). Only the transport is fake.
import { describe, expect, it } from 'vitest';
import { createActor, setup } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { liveGuide } from '../../src/machines/live-guide';
import type { Guide } from '../../src/machines/guide';
import { fakeFetch } from '../api/helpers';
import { modelOptions, settle, fakeApi } from './model';

const model = setup({
  types: {} as {
    events:
      | { type: 'LOADED_SEEN' }
      | { type: 'LOADED_NEW' }
      | { type: 'NEXT' }
      | { type: 'PREVIOUS' }
      | { type: 'SKIP' }
      | { type: 'RECORD_FAILS_ON_SKIP' };
  },
}).createMachine({
  id: 'guideModel',
  initial: 'start',
  states: {
    start: { on: { LOADED_SEEN: 'notShown', LOADED_NEW: 'first' } },
    notShown: {},
    first: { on: { NEXT: 'second', SKIP: 'skipped', RECORD_FAILS_ON_SKIP: 'closedAnyway', PREVIOUS: 'first' } },
    second: { on: { NEXT: 'last', PREVIOUS: 'first' } },
    last: { on: { NEXT: 'finished', PREVIOUS: 'second' } },
    finished: {},
    skipped: {},
    closedAnyway: {},
  },
});

const slide = (id: string) => ({ id, title: id, bullets: [`${id} 要点`] });
const GUIDE: Guide = { ver: '001.001.004', show: true, slides: [slide('setup'), slide('text'), slide('pdf')] };

describe('the guide (model-based)', () => {
  const paths = createTestModel(model, modelOptions).getShortestPaths({ allowDuplicatePaths: true });
  it('has enough paths to cover the flow', () => expect(paths.length).toBeGreaterThanOrEqual(7));

  for (const path of paths) {
    it(path.description, async () => {
      const routes: Parameters<typeof fakeFetch>[0] = {
        'GET /wizard/v1/access': { body: { code: 200, msg: 'ok', result: null } },
      };
      const transport = fakeApi(routes);
      const actor = createActor(liveGuide());
      actor.start();
      const s = () => actor.getSnapshot();
      const recorded = () =>
        transport.requests
          .filter((r) => new URL(r.url).pathname === '/wizard/v1/access')
          .map((r) => Object.fromEntries(new URL(r.url).searchParams));
      await path.test({
        events: {
          LOADED_SEEN: () => actor.send({ type: 'guide loaded', guide: { ...GUIDE, show: false } }),
          LOADED_NEW: () => actor.send({ type: 'guide loaded', guide: GUIDE }),
          NEXT: async () => {
            actor.send({ type: 'next' });
            await settle();
          },
          PREVIOUS: () => actor.send({ type: 'previous' }),
          SKIP: async () => {
            actor.send({ type: 'skip' });
            await settle();
          },
          RECORD_FAILS_ON_SKIP: async () => {
            routes['GET /wizard/v1/access'] = { networkDown: true };
            actor.send({ type: 'skip' });
            await settle();
          },
        },
        states: {
          start: () => {},
          notShown: () => {
            expect(s().matches('closed')).toBe(true);
            expect(recorded()).toEqual([]);
          },
          first: () => expect([s().value, s().context.index]).toEqual(['open', 0]),
          second: () => expect([s().value, s().context.index]).toEqual(['open', 1]),
          last: () => expect([s().value, s().context.index]).toEqual(['open', 2]),
          finished: () => {
            expect(s().matches('closed')).toBe(true);
            expect(recorded()).toEqual([{ type: '1', ver: '001.001.004' }]);
          },
          skipped: () => {
            expect(s().matches('closed')).toBe(true);
            expect(recorded()).toEqual([{ type: '2', ver: '001.001.004' }]);
          },
          // the modal closes; the guide shows again at the next login
          closedAnyway: () => expect(s().matches('closed')).toBe(true),
        },
      });
      actor.stop();
    });
  }

  it('a guide loaded again after it closed opens only for a version still to be seen', () => {
    fakeApi({});
    const actor = createActor(liveGuide());
    actor.start();
    actor.send({ type: 'guide loaded', guide: { ...GUIDE, slides: [] } });
    expect(actor.getSnapshot().matches('closed')).toBe(true);
    actor.send({ type: 'guide loaded', guide: GUIDE });
    actor.send({ type: 'go to', index: 9 });
    expect(actor.getSnapshot().context.index).toBe(2);
    actor.stop();
  });
});

// Model-based test of the notices machine (announcements and the document flag): an abstract model whose paths
// drive the REAL live machine (liveNotices: GET /notice/v1/list and POST /notice/v1/read through the API client).
// Only the transport is fake; socket messages are sent as the app's socket forwards them.
import { describe, expect, it } from 'vitest';
import { createActor, setup } from 'xstate';
import { createTestModel } from 'xstate/graph';
import type { ServerMessage } from '../../openapi/socket-protocol';
import { liveNotices } from '../../src/machines/live';
import { popupsOf, unreadOf } from '../../src/machines/notices';
import { fakeFetch } from '../api/helpers';
import { modelOptions, settle, fakeApi } from './model';

const model = setup({
  types: {} as {
    events:
      | { type: 'SIGN_IN' }
      | { type: 'SIGN_IN_LIST_FAILS' }
      | { type: 'ACKNOWLEDGE' }
      | { type: 'STORED_ARRIVES' }
      | { type: 'SAME_AGAIN' }
      | { type: 'READ_ALL' }
      | { type: 'DOCUMENT_ENDS' }
      | { type: 'DOCUMENTS_SEEN' }
      | { type: 'SIGN_OUT' };
  },
}).createMachine({
  id: 'noticesModel',
  initial: 'off',
  states: {
    off: { on: { SIGN_IN: 'popup', SIGN_IN_LIST_FAILS: 'empty' } },
    empty: { on: { DOCUMENT_ENDS: 'flagged' } },
    popup: { on: { ACKNOWLEDGE: 'clear', SIGN_OUT: 'signedOut' } },
    clear: { on: { STORED_ARRIVES: 'unread' } },
    unread: { on: { SAME_AGAIN: 'unread', READ_ALL: 'allRead' } },
    allRead: {},
    flagged: { on: { DOCUMENTS_SEEN: 'seen' } },
    seen: {},
    signedOut: {},
  },
});

const at = '2026-11-27T02:00:00.000Z';
const POPUP = { id: 3, display_mode: 1, announcement_type: 2, text: '维护', created_at: at, read: false };
const OLD = { id: 2, display_mode: 0, announcement_type: 0, text: '旧的', created_at: at, read: true };
const stored: ServerMessage = {
  type: 4,
  cmd: 1,
  status: 200,
  data: { id: 9, display_mode: 0, announcement_type: 4, text: '新功能' },
};

describe('notices (model-based)', () => {
  const paths = createTestModel(model, modelOptions).getShortestPaths({ allowDuplicatePaths: true });
  it('has enough paths to cover the flow', () => expect(paths.length).toBeGreaterThanOrEqual(8));

  for (const path of paths) {
    it(path.description, async () => {
      const routes: Parameters<typeof fakeFetch>[0] = {
        'GET /notice/v1/list': { body: { code: 200, msg: 'ok', result: { list: [POPUP, OLD], unread: 1 } } },
        'POST /notice/v1/read': { body: { code: 200, msg: 'ok', result: { count: 1 } } },
      };
      const transport = fakeApi(routes);
      const actor = createActor(liveNotices());
      actor.start();
      const s = () => actor.getSnapshot();
      const reads = () =>
        Promise.all(
          transport.requests.filter((r) => new URL(r.url).pathname === '/notice/v1/read').map((r) => r.clone().json()),
        );
      await path.test({
        events: {
          SIGN_IN: async () => {
            actor.send({ type: 'signed in' });
            await settle();
          },
          SIGN_IN_LIST_FAILS: async () => {
            routes['GET /notice/v1/list'] = { networkDown: true };
            actor.send({ type: 'signed in' });
            await settle();
          },
          ACKNOWLEDGE: async () => {
            actor.send({ type: 'read', ids: [popupsOf(s().context.list)[0].id] });
            await settle();
          },
          STORED_ARRIVES: () => actor.send({ type: 'server message', message: stored }),
          SAME_AGAIN: () => actor.send({ type: 'server message', message: stored }),
          READ_ALL: async () => {
            actor.send({ type: 'read all' });
            await settle();
          },
          DOCUMENT_ENDS: () => {
            const flag = (status: 'running' | 'done'): ServerMessage => ({
              type: 2,
              cmd: 1,
              status: 200,
              data: { id: 5, status, progress: status === 'done' ? 100 : 50, issue_count: 0 },
            });
            actor.send({ type: 'server message', message: flag('running') });
            expect(s().context.documentsChanged).toBe(false);
            actor.send({ type: 'server message', message: flag('done') });
          },
          DOCUMENTS_SEEN: () => actor.send({ type: 'documents seen' }),
          SIGN_OUT: () => actor.send({ type: 'signed out' }),
        },
        states: {
          off: () => expect(s().matches('off')).toBe(true),
          empty: () => {
            expect(s().matches({ signedIn: 'ready' })).toBe(true);
            expect(s().context.list).toEqual([]);
          },
          popup: () => {
            expect(popupsOf(s().context.list).map((n) => n.id)).toEqual([3]);
            expect(unreadOf(s().context.list)).toBe(0);
          },
          clear: async () => {
            expect(popupsOf(s().context.list)).toEqual([]);
            expect(await reads()).toEqual([{ ids: [3] }]);
          },
          unread: () => {
            // the same announcement twice (a resent socket message) counts once
            expect(s().context.list.filter((n) => n.id === 9)).toHaveLength(1);
            expect(unreadOf(s().context.list)).toBe(1);
          },
          allRead: async () => {
            expect(unreadOf(s().context.list)).toBe(0);
            expect(await reads()).toEqual([{ ids: [3] }, { ids: [9] }]);
          },
          flagged: () => expect(s().context.documentsChanged).toBe(true),
          seen: () => expect(s().context.documentsChanged).toBe(false),
          signedOut: () => {
            expect(s().matches('off')).toBe(true);
            expect(s().context.list).toEqual([]);
          },
        },
      });
      actor.stop();
    });
  }
});

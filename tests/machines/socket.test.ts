// Model-based test of the realtime socket (spec §4, §7): an abstract model without timers or
// invocations, whose paths drive the REAL live socket machine with a SimulatedClock. Only the
// WebSocket class is fake; the test plays the server side.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { assign, createActor, setup, SimulatedClock } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { modelOptions } from './model';
import type { ServerMessage } from '../../openapi/socket-protocol';
import { onUnauthorized, resetUnauthorizedThrottle } from '../../src/api/client';
import { setToken } from '../../src/api/storage';
import { liveSocket } from '../../src/machines/live';
import { reconnectDelay, RECONNECT_MAX_MS } from '../../src/machines/socket';
import { collectNotices, freshStores } from '../api/helpers';
import { fakeWebSocketClass } from './fakes';

const MAX_ATTEMPT = 5; // reconnectDelay(5) is already the 30 s cap

const model = setup({
  types: {} as {
    context: { hasSession: boolean; attempt: number };
    events:
      | { type: 'CONNECT' }
      | { type: 'DISCONNECT' }
      | { type: 'SERVER_ACCEPTS' }
      | { type: 'CONNECTION_FAILS' }
      | { type: 'HEARTBEAT_DUE' }
      | { type: 'INDEXED_MESSAGE' }
      | { type: 'CONNECTION_DROPS' }
      | { type: 'SERVER_GOES_SILENT' }
      | { type: 'REPLACED' }
      | { type: 'EVICTED' }
      | { type: 'TOKEN_REJECTED' }
      | { type: 'BACKOFF_ELAPSES' };
  },
  actions: {
    forget: assign({ hasSession: false, attempt: 0 }),
    'count attempt': assign({ attempt: ({ context }) => Math.min(context.attempt + 1, MAX_ATTEMPT) }),
  },
}).createMachine({
  id: 'socketModel',
  context: { hasSession: false, attempt: 0 },
  initial: 'idle',
  states: {
    idle: {
      initial: 'initial',
      states: { initial: {}, stopped: {}, unauthorized: {} },
      on: { CONNECT: { target: 'connecting' } },
    },
    connecting: {
      on: {
        CONNECT: { target: 'connecting' }, // skipped: already connecting
        SERVER_ACCEPTS: { target: 'open', actions: assign({ hasSession: true, attempt: 0 }) },
        CONNECTION_FAILS: { target: 'reconnecting' },
        TOKEN_REJECTED: { target: 'idle.unauthorized', actions: 'forget' },
        DISCONNECT: { target: 'idle.stopped', actions: 'forget' },
      },
    },
    open: {
      on: {
        CONNECT: { target: 'open' }, // skipped: already open
        HEARTBEAT_DUE: { target: 'open' },
        INDEXED_MESSAGE: { target: 'open' },
        CONNECTION_DROPS: { target: 'reconnecting' },
        SERVER_GOES_SILENT: { target: 'reconnecting' },
        REPLACED: { target: 'elsewhere', actions: 'forget' },
        EVICTED: { target: 'elsewhere', actions: 'forget' },
        TOKEN_REJECTED: { target: 'idle.unauthorized', actions: 'forget' },
        DISCONNECT: { target: 'idle.stopped', actions: 'forget' },
      },
    },
    elsewhere: {
      on: {
        CONNECT: { target: 'connecting' },
        DISCONNECT: { target: 'idle.stopped', actions: 'forget' },
      },
    },
    reconnecting: {
      on: {
        BACKOFF_ELAPSES: { target: 'connecting', actions: 'count attempt' },
        CONNECT: { target: 'connecting', actions: 'count attempt' },
        DISCONNECT: { target: 'idle.stopped', actions: 'forget' },
      },
    },
  },
});

const SESSION_ID = 'sess-1';
const TOKEN = 'socket-token';

const { notices, unsubscribe } = collectNotices();
let unauthorizedEvents = 0;
const stopListening = onUnauthorized(() => unauthorizedEvents++);
afterAll(() => {
  unsubscribe();
  stopListening();
});
beforeEach(() => resetUnauthorizedThrottle());

function harness() {
  freshStores();
  setToken(TOKEN);
  notices.length = 0;
  unauthorizedEvents = 0;
  const sockets = fakeWebSocketClass();
  const clock = new SimulatedClock();
  const actor = createActor(
    liveSocket({
      navigate: () => undefined,
      WebSocket: sockets.WebSocket,
      pageUrl: () => 'https://proof.example/workbench/',
    }),
    { clock },
  );
  const received: ServerMessage[] = [];
  actor.on('server message', (event) => received.push(event.message));
  actor.start();
  const live = () => sockets.instances.filter((s) => s.readyState !== 3);
  const latest = () => sockets.instances.at(-1)!;
  return { actor, clock, sockets, received, live, latest, nextIndex: 1 };
}

type Harness = ReturnType<typeof harness>;

function assertNoLiveSocket(h: Harness) {
  expect(h.live()).toEqual([]);
  for (const s of h.sockets.instances) expect(s.readyState).toBe(3);
}

describe('realtime socket (model-based)', () => {
  const testModel = createTestModel(model, modelOptions);
  const shortest = testModel.getShortestPaths({ allowDuplicatePaths: true });
  console.log(`socket: ${shortest.length} shortest paths`);

  it('has enough paths to cover the flow', () => {
    expect(shortest.length).toBeGreaterThanOrEqual(50);
  });

  for (const path of shortest) {
    it(path.description, async () => {
      const h = harness();
      try {
        await path.test({
          events: {
            CONNECT: () => {
              const before = h.sockets.instances.length;
              const skipped = ['connecting', 'open'].includes(h.actor.getSnapshot().value);
              h.actor.send({ type: 'connect' });
              expect(h.sockets.instances.length).toBe(skipped ? before : before + 1);
            },
            DISCONNECT: () => h.actor.send({ type: 'disconnect' }),
            SERVER_ACCEPTS: () => {
              h.latest().accept();
              h.latest().deliver({ type: 3, cmd: 1, status: 200, data: { session_id: SESSION_ID } });
              expect(h.received.at(-1)).toEqual({ type: 3, cmd: 1, status: 200, data: { session_id: SESSION_ID } });
            },
            CONNECTION_FAILS: () => h.latest().drop(1006, ''),
            HEARTBEAT_DUE: () => {
              const socket = h.latest();
              const sent = socket.sent.length;
              h.clock.increment(29_999);
              expect(socket.sent.length).toBe(sent);
              h.clock.increment(1);
              expect(socket.sent.slice(sent)).toEqual([{ type: 1, cmd: 1 }]);
              socket.deliver({ type: 1, cmd: 1, status: 200, data: { time: 1 } });
            },
            INDEXED_MESSAGE: () => {
              const socket = h.latest();
              const index = h.nextIndex++;
              const message = { type: 2, cmd: 2, status: 200, index, data: { paragraph: index } };
              socket.deliver(message);
              expect(socket.sent.at(-1)).toEqual({ type: 1, cmd: 2, index });
              expect(h.received.at(-1)).toEqual(message);
            },
            CONNECTION_DROPS: () => h.latest().drop(1006, 'network lost'),
            SERVER_GOES_SILENT: () => {
              const socket = h.latest();
              h.clock.increment(30_000);
              h.clock.increment(30_000);
              expect(socket.sent.slice(-2)).toEqual([
                { type: 1, cmd: 1 },
                { type: 1, cmd: 1 },
              ]);
              expect(h.actor.getSnapshot().value).toBe('open');
              h.clock.increment(30_000);
              expect(socket.closedByClient).toBe(true);
            },
            REPLACED: () => h.latest().drop(4409, 'replaced by a newer connection'),
            EVICTED: () => h.latest().drop(4429, 'too many sessions: opened in other windows'),
            TOKEN_REJECTED: () => h.latest().drop(4401, 'unauthorized: 登录已失效，请重新登录'),
            BACKOFF_ELAPSES: () => {
              const before = h.sockets.instances.length;
              const delay = reconnectDelay(h.actor.getSnapshot().context.attempt);
              h.clock.increment(delay - 1);
              expect(h.sockets.instances.length).toBe(before);
              h.clock.increment(1);
              expect(h.sockets.instances.length).toBe(before + 1);
            },
          },
          states: {
            'idle.initial': () => {
              expect(h.actor.getSnapshot().value).toBe('idle');
              expect(h.sockets.instances).toEqual([]);
            },
            'idle.stopped': () => {
              expect(h.actor.getSnapshot().value).toBe('idle');
              expect(h.actor.getSnapshot().context.sessionId).toBeNull();
              assertNoLiveSocket(h);
              expect(unauthorizedEvents).toBe(0);
            },
            'idle.unauthorized': () => {
              expect(h.actor.getSnapshot().value).toBe('idle');
              assertNoLiveSocket(h);
              // the session hears about it and the 401 message shows (throttled)
              expect(unauthorizedEvents).toBeGreaterThan(0);
              expect(notices.map((n) => n.title)).toContain('登录已失效，请重新登录');
              // and nothing reconnects
              const count = h.sockets.instances.length;
              h.clock.increment(RECONNECT_MAX_MS * 2);
              expect(h.sockets.instances.length).toBe(count);
            },
            elsewhere: () => {
              // the other windows have the connection: nothing reconnects until the user takes it back
              expect(h.actor.getSnapshot().value).toBe('elsewhere');
              expect(h.actor.getSnapshot().context.sessionId).toBeNull();
              assertNoLiveSocket(h);
              const count = h.sockets.instances.length;
              h.clock.increment(RECONNECT_MAX_MS * 2);
              expect(h.sockets.instances.length).toBe(count);
              expect(unauthorizedEvents).toBe(0);
            },
            connecting: (state) => {
              const snapshot = h.actor.getSnapshot();
              expect(snapshot.value).toBe('connecting');
              expect(h.live()).toHaveLength(1);
              const url = new URL(h.latest().url);
              expect(`${url.protocol}//${url.host}${url.pathname}`).toBe('wss://proof.example/ws');
              expect(url.searchParams.get('token')).toBe(TOKEN);
              if (state.context.hasSession) {
                // a reconnect resumes the session so the server re-sends unacknowledged messages
                expect(url.searchParams.get('session_id')).toBe(SESSION_ID);
                expect(url.searchParams.has('endpoint')).toBe(false);
              } else {
                expect(url.searchParams.get('endpoint')).toBe('1');
                expect(url.searchParams.has('session_id')).toBe(false);
              }
            },
            open: () => {
              const snapshot = h.actor.getSnapshot();
              expect(snapshot.value).toBe('open');
              expect(snapshot.context.sessionId).toBe(SESSION_ID);
              expect(snapshot.context.attempt).toBe(0);
              expect(h.live()).toHaveLength(1);
              expect(h.latest().readyState).toBe(1);
            },
            reconnecting: (state) => {
              const snapshot = h.actor.getSnapshot();
              expect(snapshot.value).toBe('reconnecting');
              assertNoLiveSocket(h);
              if (state.context.attempt < MAX_ATTEMPT) expect(snapshot.context.attempt).toBe(state.context.attempt);
              else expect(snapshot.context.attempt).toBeGreaterThanOrEqual(MAX_ATTEMPT);
            },
          },
        });
      } finally {
        h.actor.stop();
      }
    });
  }
});

describe('reconnect backoff', () => {
  it('doubles from 1 s and is capped at 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map(reconnectDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });
});

// The realtime socket (spec §4, §7): opens when logged in, skipped when already open or connecting,
// closes on logout, heartbeat every 30 s, reconnects with capped exponential backoff, acknowledges
// every indexed message and hands each server message to subscribers.
import { assign, emit, enqueueActions, fromCallback, setup, stopChild, type ActorRefFrom } from 'xstate';
import { mustProvide } from './provide';
import {
  HEARTBEAT_INTERVAL_MS,
  isPair,
  Socket,
  SocketClose,
  type ClientMessage,
  type ServerMessage,
} from '../../openapi/socket-protocol';

export const RECONNECT_BASE_MS = 1000;
export const RECONNECT_MAX_MS = 30_000;

/** 1 s, 2 s, 4 s ... capped at 30 s. */
export function reconnectDelay(attempt: number): number {
  return Math.min(RECONNECT_BASE_MS * 2 ** Math.max(0, attempt), RECONNECT_MAX_MS);
}

export interface SocketContext {
  sessionId: string | null;
  /** reconnect attempts since the socket was last open */
  attempt: number;
  /** heartbeats sent without any frame from the server since */
  unanswered: number;
}

/** What the connection actor reports to the socket machine. */
export type ConnectionEvent =
  | { type: 'socket opened' }
  | { type: 'socket message received'; message: ServerMessage }
  | { type: 'socket closed'; code: number; reason: string };

export type SocketEvent = { type: 'connect' } | { type: 'disconnect' } | ConnectionEvent;

/** What the socket machine tells the connection actor. */
export type ConnectionCommand = { type: 'send frame'; frame: ClientMessage };

export interface ConnectionInput {
  sessionId: string | null;
}

export type SocketEmitted = { type: 'server message'; message: ServerMessage };

/** Closes after which reconnecting by itself would not help: the login is gone, or other windows took over. */
const FINAL_CLOSE_CODES: readonly number[] = [
  SocketClose.Unauthorized.code,
  SocketClose.Replaced.code,
  SocketClose.Evicted.code,
];
/** Closes that mean the workbench is open in other windows: the user may take the connection back here. */
const ELSEWHERE_CLOSE_CODES: readonly number[] = [SocketClose.Replaced.code, SocketClose.Evicted.code];

export const socketMachine = setup({
  types: {
    context: {} as SocketContext,
    events: {} as SocketEvent,
    emitted: {} as SocketEmitted,
  },
  actors: {
    /** One WebSocket: reports ConnectionEvents, accepts 'send frame', closes when stopped. */
    'socket connection': fromCallback<ConnectionCommand, ConnectionInput>(() =>
      mustProvide('socket', 'socket connection'),
    ),
  },
  actions: {
    'open connection': enqueueActions(({ enqueue, context }) => {
      enqueue.spawnChild('socket connection', { id: 'connection', input: { sessionId: context.sessionId } });
    }),
    'close connection': stopChild('connection'),
    'send heartbeat': enqueueActions(({ enqueue }) => {
      enqueue.sendTo('connection', { type: 'send frame', frame: { ...Socket.Heartbeat } } satisfies ConnectionCommand);
      enqueue.assign({ unanswered: ({ context }) => context.unanswered + 1 });
    }),
    'handle message': enqueueActions(({ enqueue, event }) => {
      if (event.type !== 'socket message received') return;
      const { message } = event;
      enqueue.assign({ unanswered: 0 });
      if (typeof message.index === 'number') {
        enqueue.sendTo('connection', {
          type: 'send frame',
          frame: { ...Socket.Ack, index: message.index },
        } satisfies ConnectionCommand);
      }
      if (isPair(message, Socket.SessionId)) {
        enqueue.assign({ sessionId: message.data.session_id });
      }
      if (!isPair(message, Socket.Heartbeat)) enqueue(emit({ type: 'server message', message }));
    }),
    /** The server closed with 4401: the login is gone (spec §8 401). */
    'report unauthorized': () => mustProvide('socket', 'report unauthorized'),
    'count attempt': assign({ attempt: ({ context }) => context.attempt + 1 }),
    'reset attempts': assign({ attempt: 0 }),
    'reset heartbeat count': assign({ unanswered: 0 }),
    'forget session': assign({ sessionId: null, attempt: 0, unanswered: 0 }),
  },
  guards: {
    'closed for good': ({ event }) => event.type === 'socket closed' && FINAL_CLOSE_CODES.includes(event.code),
    'closed as unauthorized': ({ event }) =>
      event.type === 'socket closed' && event.code === SocketClose.Unauthorized.code,
    'closed for other windows': ({ event }) =>
      event.type === 'socket closed' && ELSEWHERE_CLOSE_CODES.includes(event.code),
    // Two heartbeats in a row without any frame back: the connection is dead even if not closed.
    'server silent': ({ context }) => context.unanswered >= 2,
  },
  delays: {
    heartbeat: HEARTBEAT_INTERVAL_MS,
    'reconnect delay': ({ context }) => reconnectDelay(context.attempt),
  },
}).createMachine({
  id: 'socket',
  context: { sessionId: null, attempt: 0, unanswered: 0 },
  initial: 'idle',
  states: {
    idle: {
      on: { connect: { target: 'connecting' } },
    },
    connecting: {
      entry: 'open connection',
      on: {
        'socket opened': { target: 'open', actions: 'reset heartbeat count' },
        'socket message received': { actions: 'handle message' },
        'socket closed': [
          {
            guard: 'closed for other windows',
            target: 'elsewhere',
            actions: ['close connection', 'forget session'],
          },
          {
            guard: 'closed for good',
            target: 'idle',
            actions: [
              'close connection',
              enqueueActions(({ check, enqueue }) => {
                if (check('closed as unauthorized')) enqueue('report unauthorized');
              }),
              'forget session',
            ],
          },
          { target: 'reconnecting', actions: 'close connection' },
        ],
        disconnect: { target: 'idle', actions: ['close connection', 'forget session'] },
      },
    },
    open: {
      entry: 'reset attempts',
      after: {
        heartbeat: [
          { guard: 'server silent', target: 'reconnecting', actions: 'close connection' },
          { target: 'open', reenter: true, actions: 'send heartbeat' },
        ],
      },
      on: {
        'socket message received': { actions: 'handle message' },
        'socket closed': [
          {
            guard: 'closed for other windows',
            target: 'elsewhere',
            actions: ['close connection', 'forget session'],
          },
          {
            guard: 'closed for good',
            target: 'idle',
            actions: [
              'close connection',
              enqueueActions(({ check, enqueue }) => {
                if (check('closed as unauthorized')) enqueue('report unauthorized');
              }),
              'forget session',
            ],
          },
          { target: 'reconnecting', actions: 'close connection' },
        ],
        disconnect: { target: 'idle', actions: ['close connection', 'forget session'] },
      },
    },
    // opened in other windows: no realtime messages here until the user takes the connection back (connect)
    elsewhere: {
      on: {
        connect: { target: 'connecting' },
        disconnect: { target: 'idle' },
      },
    },
    reconnecting: {
      after: {
        'reconnect delay': { target: 'connecting', actions: 'count attempt' },
      },
      on: {
        connect: { target: 'connecting', actions: 'count attempt' },
        disconnect: { target: 'idle', actions: 'forget session' },
      },
    },
  },
});

export type SocketActorRef = ActorRefFrom<typeof socketMachine>;

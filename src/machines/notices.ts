// The user's notices (spec §3 realtime state noticeList and docMessage): announcements from the notice list
// (GET /notice/v1/list) and the socket (type 4 cmd 1), popups (display mode 1) until acknowledged, and the
// document list's flag that a background job ended (type 2 cmd 1). Runs while signed in (the session says when).
//
// off -> loading -> ready
import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import type { ServerMessage } from '../../openapi/socket-protocol';
import { isAnnouncement, isDocumentFlag, isPair, Socket } from '../../openapi/socket-protocol';
import { notProvided } from './provide';
import { socketMessages } from './findings/socket';
import type { Notice, NoticeList } from './noticeCalls';

export interface NoticesContext {
  list: Notice[];
  /** a document's background job ended since the document list was last seen */
  documentsChanged: boolean;
}

export type NoticesEvent =
  | { type: 'signed in' }
  | { type: 'signed out' }
  /** a popup acknowledged, or a notice opened in the list */
  | { type: 'read'; ids: number[] }
  | { type: 'read all' }
  | { type: 'documents seen' }
  | { type: 'server message'; message: ServerMessage };

/** Popups still to acknowledge, oldest first. */
export const popupsOf = (list: readonly Notice[]) =>
  list.filter((n) => n.display_mode === 1 && !n.read).sort((a, b) => a.id - b.id);
/** Stored notices not read yet (the bell's badge). */
export const unreadOf = (list: readonly Notice[]) => list.filter((n) => n.display_mode === 0 && !n.read).length;

const ENDED = new Set(['done', 'failed', 'cancelled']);

export const noticesMachine = setup({
  types: {
    context: {} as NoticesContext,
    events: {} as NoticesEvent,
  },
  actors: {
    /** GET /notice/v1/list */
    load: fromPromise<NoticeList, void>(notProvided('notices', 'load')),
    /** POST /notice/v1/read */
    'mark read': fromPromise<void, { ids: number[] }>(notProvided('notices', 'mark read')),
    'socket messages': socketMessages,
  },
  actions: {
    'mark read': enqueueActions(({ context, event, enqueue }) => {
      const ids =
        event.type === 'read'
          ? event.ids
          : event.type === 'read all'
            ? context.list.filter((n) => !n.read).map((n) => n.id)
            : [];
      const mine = ids.filter((id) => context.list.some((n) => n.id === id && !n.read));
      if (mine.length === 0) return;
      enqueue.assign({ list: context.list.map((n) => (mine.includes(n.id) ? { ...n, read: true } : n)) });
      // the list is right at once; the server is told in the background (a failure shows it again next login)
      const known = mine.filter((id) => id > 0);
      if (known.length) enqueue.spawnChild('mark read', { input: { ids: known } });
    }),
  },
  guards: {
    'is announcement': ({ event }) => event.type === 'server message' && isAnnouncement(event.message),
    'new socket session': ({ event }) => event.type === 'server message' && isPair(event.message, Socket.SessionId),
    'a document job ended': ({ event }) =>
      event.type === 'server message' && isDocumentFlag(event.message) && ENDED.has(event.message.data.status),
  },
}).createMachine({
  id: 'notices',
  context: { list: [], documentsChanged: false },
  initial: 'off',
  states: {
    off: { on: { 'signed in': 'signedIn' } },
    signedIn: {
      // listening while signed in
      invoke: { src: 'socket messages', id: 'socketMessages' },
      on: {
        'signed out': { target: 'off', actions: assign({ list: [], documentsChanged: false }) },
        'server message': [
          {
            guard: 'is announcement',
            actions: assign(({ context, event }) => {
              if (event.type !== 'server message' || !isAnnouncement(event.message)) return {};
              const data = event.message.data;
              if (data.id !== undefined && context.list.some((n) => n.id === data.id)) return {};
              const notice: Notice = {
                // (a server that names no id: a local one, below zero, read here only)
                id: data.id ?? -(context.list.length + 1),
                display_mode: data.display_mode,
                announcement_type: data.announcement_type,
                text: data.text ?? '',
                ...(data.html_text ? { html_text: data.html_text } : {}),
                ...(data.time ? { time: data.time } : {}),
                created_at: new Date().toISOString(),
                read: false,
              };
              return { list: [notice, ...context.list] };
            }),
          },
          { guard: 'a document job ended', actions: assign({ documentsChanged: true }) },
          // a new socket session (after a reconnect): what went to a session that expired meanwhile is in the list
          { guard: 'new socket session', target: '.loading' },
        ],
        read: { actions: 'mark read' },
        'read all': { actions: 'mark read' },
        'documents seen': { actions: assign({ documentsChanged: false }) },
      },
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'load',
            onDone: {
              target: 'ready',
              // what the socket brought meanwhile stays, and so does what was read meanwhile
              actions: assign(({ context, event }) => ({
                list: [
                  ...context.list.filter((n) => !event.output.list.some((m) => m.id === n.id)),
                  ...event.output.list.map((m) =>
                    context.list.some((n) => n.id === m.id && n.read) ? { ...m, read: true } : m,
                  ),
                ],
              })),
            },
            onError: 'ready',
          },
        },
        ready: {},
      },
    },
  },
});

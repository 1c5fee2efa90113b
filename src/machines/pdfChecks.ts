// The PDF list (route /pdf): the user's PDF checks a page at a time; an upload's summary joins the list, each
// check's progress arrives on the socket (type 2 cmd 7) and moves its row, and when a check ends the list is read
// again; a check can be cancelled (given back) or deleted.
//
// loading -> ready (action: idle | cancelling | deleting, sync: idle | refreshing) | failed
import { assign, fromPromise, setup } from 'xstate';
import { isPdfProgress, type PdfProgressData, type ServerMessage } from '../../openapi/socket-protocol';
import { notProvided } from './provide';
import { socketMessages } from './findings/socket';
import type { PdfList, PdfSummary } from './pdfCalls';

export const PDF_PAGE_SIZE = 20;

export interface PdfChecksContext {
  list: PdfSummary[];
  total: number;
  num: number;
  /** the check the running action is about */
  pendingId: number | null;
  error: string | null;
}

export type PdfChecksEvent =
  | { type: 'uploaded'; pdf: PdfSummary }
  | { type: 'cancel'; id: number }
  | { type: 'delete'; id: number }
  | { type: 'page'; num: number }
  | { type: 'retry' }
  | { type: 'server message'; message: ServerMessage };

type Args = { context: PdfChecksContext; event: PdfChecksEvent };

const progressOf = (event: PdfChecksEvent): PdfProgressData | null =>
  event.type === 'server message' && isPdfProgress(event.message) ? event.message.data : null;

/** A row with a progress message merged in. */
export function mergePdfProgress(row: PdfSummary, data: PdfProgressData): PdfSummary {
  const ended = data.status === 'failed' || data.status === 'cancelled';
  return {
    ...row,
    status: data.status,
    progress: data.progress,
    page_count: data.page_count ?? row.page_count,
    pages_done: data.pages_done ?? row.pages_done,
    issue_count: data.issue_count ?? row.issue_count,
    ...(ended ? { error: data.error, error_code: data.error_code, error_params: data.error_params } : {}),
  };
}

const listed = (page: PdfList): Partial<PdfChecksContext> => ({
  list: page.list,
  total: page.total,
  num: page.num,
  error: null,
});

const errorText = (error: unknown) => (error instanceof Error && error.message ? error.message : '系统异常');

export const pdfChecksMachine = setup({
  types: {
    context: {} as PdfChecksContext,
    events: {} as PdfChecksEvent,
  },
  actors: {
    /** GET /misscut/v2/pdf_check/page */
    'load list': fromPromise<PdfList, { num: number }>(notProvided('pdfChecks', 'load list')),
    /** POST /misscut/v2/pdf_check/cancel */
    cancel: fromPromise<void, { id: number }>(notProvided('pdfChecks', 'cancel')),
    /** DELETE /misscut/v2/pdf_check/delete/{id} */
    delete: fromPromise<void, { id: number }>(notProvided('pdfChecks', 'delete')),
    'socket messages': socketMessages,
  },
  actions: {
    'apply progress': assign(({ context, event }: Args) => {
      const data = progressOf(event);
      if (!data) return {};
      return { list: context.list.map((row) => (row.id === data.id ? mergePdfProgress(row, data) : row)) };
    }),
    'add upload': assign(({ context, event }: Args) => {
      if (event.type !== 'uploaded') return {};
      const known = context.list.some((row) => row.id === event.pdf.id);
      return {
        list: [event.pdf, ...context.list.filter((row) => row.id !== event.pdf.id)].slice(0, PDF_PAGE_SIZE),
        total: known ? context.total : context.total + 1,
      };
    }),
    'drop pending': assign(({ context }) => ({
      list: context.list.filter((row) => row.id !== context.pendingId),
      total: Math.max(0, context.total - 1),
    })),
  },
  guards: {
    /** a check ended (listed or not: one uploaded in another tab shows up too) */
    'is check end': ({ event }: Args) => {
      const data = progressOf(event);
      return !!data && (data.status === 'done' || data.status === 'failed' || data.status === 'cancelled');
    },
    'is listed progress': ({ context, event }: Args) => {
      const data = progressOf(event);
      return !!data && context.list.some((row) => row.id === data.id);
    },
  },
}).createMachine({
  id: 'pdfChecks',
  context: { list: [], total: 0, num: 1, pendingId: null, error: null },
  invoke: { src: 'socket messages', id: 'socketMessages' },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'load list',
        input: ({ context }) => ({ num: context.num }),
        onDone: { target: 'ready', actions: assign(({ event }) => listed(event.output)) },
        onError: { target: 'failed', actions: assign(({ event }) => ({ error: errorText(event.error) })) },
      },
    },
    failed: { on: { retry: 'loading' } },
    ready: {
      type: 'parallel',
      on: {
        page: { target: 'loading', actions: assign(({ event }) => ({ num: event.num })) },
        uploaded: { actions: 'add upload' },
      },
      states: {
        action: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                cancel: { target: 'cancelling', actions: assign(({ event }) => ({ pendingId: event.id })) },
                delete: { target: 'deleting', actions: assign(({ event }) => ({ pendingId: event.id })) },
              },
            },
            // the end arrives on the socket (status cancelled) and moves the row
            cancelling: {
              invoke: {
                src: 'cancel',
                input: ({ context }) => ({ id: context.pendingId ?? 0 }),
                onDone: 'idle',
                onError: 'idle',
              },
            },
            deleting: {
              invoke: {
                src: 'delete',
                input: ({ context }) => ({ id: context.pendingId ?? 0 }),
                onDone: { target: 'idle', actions: 'drop pending' },
                onError: 'idle',
              },
            },
          },
        },
        sync: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'server message': [
                  { guard: 'is check end', target: 'refreshing', actions: 'apply progress' },
                  { guard: 'is listed progress', actions: 'apply progress' },
                ],
              },
            },
            refreshing: {
              invoke: {
                src: 'load list',
                input: ({ context }) => ({ num: context.num }),
                onDone: { target: 'idle', actions: assign(({ event }) => listed(event.output)) },
                onError: 'idle',
              },
              on: {
                'server message': [
                  { guard: 'is check end', target: 'refreshing', reenter: true, actions: 'apply progress' },
                  { guard: 'is listed progress', actions: 'apply progress' },
                ],
              },
            },
          },
        },
      },
    },
  },
});

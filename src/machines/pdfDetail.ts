// A PDF check's pages (route /pdfdetail?id=): the result is loaded, and read again whenever the socket (type 2
// cmd 7) says more pages are done or the check ended, so pages appear as they complete; the page shown, the zoom
// and the words added to the dictionary from a finding are kept here.
//
// loading -> ready (sync: idle | reloading, export: idle | exporting) | failed
import { assign, fromPromise, setup } from 'xstate';
import { isPdfProgress, type ServerMessage } from '../../openapi/socket-protocol';
import { mustProvide, notProvided } from './provide';
import { socketMessages } from './findings/socket';
import type { PdfResult } from './pdfCalls';

/** Zoom steps: the share of the available width the page takes. */
export const PDF_ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2] as const;

export interface PdfDetailContext {
  id: number;
  result: PdfResult | null;
  pageIndex: number;
  /** index into PDF_ZOOMS */
  zoom: number;
  allowed: string[];
  error: string | null;
}

export type PdfDetailEvent =
  | { type: 'select page'; index: number }
  | { type: 'zoom'; step: 1 | -1 | 0 }
  | { type: 'word added'; word: string }
  | { type: 'retry' }
  | { type: 'export'; format: 'pdf' | 'xlsx' }
  | { type: 'server message'; message: ServerMessage };

type Args = { context: PdfDetailContext; event: PdfDetailEvent };

const FIT = PDF_ZOOMS.indexOf(1);

/** This check moved on: more pages done than shown, or it ended. */
const movedOn = ({ context, event }: Args) => {
  if (event.type !== 'server message' || !isPdfProgress(event.message)) return false;
  const data = event.message.data;
  if (data.id !== context.id || !context.result) return false;
  const ended = data.status !== 'queued' && data.status !== 'running';
  return (data.pages_done ?? 0) > context.result.pages.length || (ended && data.status !== context.result.status);
};

export const pdfDetailMachine = setup({
  types: {
    context: {} as PdfDetailContext,
    events: {} as PdfDetailEvent,
    input: {} as { id: number },
  },
  actors: {
    /** GET /misscut/v2/pdf_check/result */
    load: fromPromise<PdfResult, { id: number }>(notProvided('pdfDetail', 'load')),
    /** GET /misscut/v2/pdf_check/export */
    export: fromPromise<{ blob: Blob; name: string }, { id: number; name: string; format: 'pdf' | 'xlsx' }>(
      notProvided('pdfDetail', 'export'),
    ),
    'socket messages': socketMessages,
  },
  actions: {
    /** hands the exported file to the browser */
    'save file': (_, _params: { blob: Blob; name: string }) => mustProvide('pdfDetail', 'save file'),
  },
  guards: {
    'moved on': movedOn,
    'is done': ({ context }: Args) => context.result?.status === 'done',
  },
}).createMachine({
  id: 'pdfDetail',
  context: ({ input }) => ({ id: input.id, result: null, pageIndex: 0, zoom: FIT, allowed: [], error: null }),
  invoke: { src: 'socket messages', id: 'socketMessages' },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({ id: context.id }),
        onDone: { target: 'ready', actions: assign(({ event }) => ({ result: event.output, error: null })) },
        onError: {
          target: 'failed',
          actions: assign(({ event }) => ({
            error: event.error instanceof Error && event.error.message ? event.error.message : '系统异常',
          })),
        },
      },
    },
    failed: { on: { retry: 'loading' } },
    ready: {
      type: 'parallel',
      on: {
        'select page': {
          actions: assign(({ context, event }) => ({
            pageIndex: Math.max(0, Math.min(event.index, (context.result?.pages.length ?? 1) - 1)),
          })),
        },
        zoom: {
          actions: assign(({ context, event }) => ({
            zoom: event.step === 0 ? FIT : Math.max(0, Math.min(PDF_ZOOMS.length - 1, context.zoom + event.step)),
          })),
        },
        'word added': {
          actions: assign(({ context, event }) => ({ allowed: [...new Set([...context.allowed, event.word])] })),
        },
      },
      states: {
        sync: {
          initial: 'idle',
          states: {
            idle: { on: { 'server message': { guard: 'moved on', target: 'reloading' } } },
            reloading: {
              invoke: {
                src: 'load',
                input: ({ context }) => ({ id: context.id }),
                onDone: { target: 'idle', actions: assign(({ event }) => ({ result: event.output })) },
                // the pages shown stay; the next message tries again
                onError: 'idle',
              },
            },
          },
        },
        export: {
          initial: 'idle',
          states: {
            idle: { on: { export: { guard: 'is done', target: 'exporting' } } },
            exporting: {
              invoke: {
                src: 'export',
                input: ({ context, event }) => ({
                  id: context.id,
                  name: context.result?.name ?? '',
                  format: event.type === 'export' ? event.format : 'pdf',
                }),
                onDone: { target: 'idle', actions: { type: 'save file', params: ({ event }) => event.output } },
                onError: 'idle',
              },
            },
          },
        },
      },
    },
  },
});

// Image proofreading (route /image, kept alive): images chosen or pasted are uploaded one by one (each an image
// check of right 2), read by OCR on the server, and their results arrive on the socket (type 2 cmd 5; a result
// missed there is read by polling every few seconds); the recognised text can be corrected and checked again.
//
// One region: `items` in context, each with its own phase; uploads, polls and re-checks are callback actors that
// report back with the item's key.
import { assign, enqueueActions, fromCallback, setup, type EventObject } from 'xstate';
import { isImageResult, type ImageResultData, type ServerMessage } from '../../openapi/socket-protocol';
import { socketMessages } from './findings/socket';
import { mustProvide } from './provide';

export const IMAGE_POLL_MS = 3000;
/** Image types the server reads (HEIC is refused by the server with its own message). */
export const IMAGE_EXTENSIONS = ['.png', '.jpg', '.jpeg', '.webp', '.bmp', '.gif', '.tif', '.tiff', '.heic'];

export type ImagePhase = 'uploading' | 'queued' | 'running' | 'done' | 'failed' | 'rechecking';

export interface ImageItem {
  key: string;
  name: string;
  /** the picture as the page shows it (an object URL the view made) */
  url: string;
  phase: ImagePhase;
  taskId: number | null;
  result: ImageResultData | null;
  /** the text being corrected (null: not edited) */
  draft: string | null;
  error: string | null;
}

export interface ImageChecksContext {
  items: ImageItem[];
  selected: string | null;
  next: number;
  /** words added to the dictionary from a finding: their findings are not shown any more */
  allowed: string[];
}

export type ImageChecksEvent =
  | { type: 'files chosen'; files: Array<{ file: Blob; name: string; url: string }> }
  | { type: 'select'; key: string }
  | { type: 'dismiss'; key: string }
  | { type: 'text edited'; key: string; text: string }
  | { type: 'recheck'; key: string }
  | { type: 'word added'; word: string }
  | { type: 'uploaded'; key: string; taskId: number }
  | { type: 'upload failed'; key: string; error: string }
  | { type: 'result'; data: ImageResultData }
  | { type: 'recheck failed'; key: string; error: string }
  | { type: 'server message'; message: ServerMessage };

const ENDED = new Set(['done', 'failed', 'cancelled']);

/** An item with a result (socket, poll or re-check) merged in. */
export function withResult(item: ImageItem, data: ImageResultData): ImageItem {
  if (data.status === 'done')
    return { ...item, phase: 'done', result: data, draft: item.phase === 'rechecking' ? null : item.draft };
  if (data.status === 'failed' || data.status === 'cancelled')
    return { ...item, phase: 'failed', result: data, error: data.error ?? '系统异常' };
  return { ...item, phase: data.status === 'running' ? 'running' : 'queued' };
}

const update = (items: ImageItem[], key: string, change: (item: ImageItem) => ImageItem) =>
  items.map((item) => (item.key === key ? change(item) : item));

export const imageChecksMachine = setup({
  types: {
    context: {} as ImageChecksContext,
    events: {} as ImageChecksEvent,
  },
  actors: {
    /** POST /misscut/v1/image/check; reports `uploaded` or `upload failed` */
    upload: fromCallback<EventObject, { key: string; file: Blob; name: string }>(() =>
      mustProvide('imageChecks', 'upload'),
    ),
    /** GET /misscut/v1/image/result every IMAGE_POLL_MS until the task ended; reports `result` */
    poll: fromCallback<EventObject, { taskId: number }>(() => mustProvide('imageChecks', 'poll')),
    /** POST /misscut/v1/image/recheck; reports `result` or `recheck failed` */
    recheck: fromCallback<EventObject, { key: string; taskId: number; text: string }>(() =>
      mustProvide('imageChecks', 'recheck'),
    ),
    'socket messages': socketMessages,
  },
  actions: {
    /** the view let go of a picture's object URL */
    'release picture': (_, _params: { url: string }) => mustProvide('imageChecks', 'release picture'),
  },
}).createMachine({
  id: 'imageChecks',
  context: { items: [], selected: null, next: 0, allowed: [] },
  invoke: { src: 'socket messages', id: 'socketMessages' },
  on: {
    'files chosen': {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const items: ImageItem[] = event.files.map((f, i) => ({
          key: `image-${context.next + i}`,
          name: f.name,
          url: f.url,
          phase: 'uploading',
          taskId: null,
          result: null,
          draft: null,
          error: null,
        }));
        event.files.forEach((f, i) =>
          enqueue.spawnChild('upload', {
            id: `upload-${items[i].key}`,
            input: { key: items[i].key, file: f.file, name: f.name },
          }),
        );
        enqueue.assign({
          items: [...items, ...context.items],
          next: context.next + items.length,
          selected: items[0]?.key ?? context.selected,
        });
      }),
    },
    uploaded: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        if (!context.items.some((item) => item.key === event.key)) return;
        enqueue.assign({
          items: update(context.items, event.key, (item) => ({ ...item, phase: 'queued', taskId: event.taskId })),
        });
        enqueue.spawnChild('poll', { id: `poll-${event.taskId}`, input: { taskId: event.taskId } });
      }),
    },
    'upload failed': {
      actions: assign(({ context, event }) => ({
        items: update(context.items, event.key, (item) => ({ ...item, phase: 'failed', error: event.error })),
      })),
    },
    'server message': {
      actions: enqueueActions(({ event, enqueue }) => {
        if (isImageResult(event.message)) enqueue.raise({ type: 'result', data: event.message.data });
      }),
    },
    result: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const item = context.items.find((x) => x.taskId === event.data.task_id);
        if (!item) return;
        // a re-check's answer is the latest word; a late socket message of the first reading is not
        if (item.phase === 'done' && event.data.status !== 'done') return;
        enqueue.assign({ items: update(context.items, item.key, (x) => withResult(x, event.data)) });
        if (ENDED.has(event.data.status)) enqueue.stopChild(`poll-${event.data.task_id}`);
      }),
    },
    select: { actions: assign(({ event }) => ({ selected: event.key })) },
    dismiss: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const item = context.items.find((x) => x.key === event.key);
        if (!item) return;
        if (item.taskId !== null) enqueue.stopChild(`poll-${item.taskId}`);
        enqueue.stopChild(`upload-${item.key}`);
        enqueue({ type: 'release picture', params: { url: item.url } });
        const items = context.items.filter((x) => x.key !== event.key);
        enqueue.assign({
          items,
          selected: context.selected === event.key ? (items[0]?.key ?? null) : context.selected,
        });
      }),
    },
    'text edited': {
      actions: assign(({ context, event }) => ({
        items: update(context.items, event.key, (item) =>
          item.phase === 'done' ? { ...item, draft: event.text } : item,
        ),
      })),
    },
    recheck: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const item = context.items.find((x) => x.key === event.key);
        if (!item || item.phase !== 'done' || item.taskId === null || !item.draft?.trim()) return;
        enqueue.assign({ items: update(context.items, item.key, (x) => ({ ...x, phase: 'rechecking' })) });
        enqueue.spawnChild('recheck', {
          id: `recheck-${item.key}-${context.next}`,
          input: { key: item.key, taskId: item.taskId, text: item.draft },
        });
        enqueue.assign({ next: context.next + 1 });
      }),
    },
    'recheck failed': {
      actions: assign(({ context, event }) => ({
        items: update(context.items, event.key, (item) => ({ ...item, phase: 'done' })),
      })),
    },
    'word added': {
      actions: assign(({ context, event }) => ({ allowed: [...new Set([...context.allowed, event.word])] })),
    },
  },
});

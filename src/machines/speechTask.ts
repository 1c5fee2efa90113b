// Audio and video proofreading (route /video): what the server can take a transcript from is read first (so the
// page says plainly whether speech recognition is configured); the user chooses the media and, optionally, its
// subtitle file; the upload is charged in minutes, then the task is polled until it ends; the result's segments and
// their findings are shown beside the player, and the corrected subtitles can be saved.
//
// loadingSources -> idle -> uploading -> processing (poll) -> done | failed ; reset -> idle
import { assign, fromCallback, fromPromise, setup, type EventObject } from 'xstate';
import { mustProvide, notProvided } from './provide';
import type { SpeechSources, SpeechTask } from './speechCalls';

export const SPEECH_POLL_MS = 2000;

export interface SpeechContext {
  sources: SpeechSources | null;
  media: File | null;
  subtitle: File | null;
  task: SpeechTask | null;
  /** upload progress, 0-100 */
  sent: number;
  error: string | null;
}

export type SpeechEvent =
  | { type: 'media chosen'; file: File }
  | { type: 'subtitle chosen'; file: File | null }
  | { type: 'start' }
  | { type: 'reset' }
  | { type: 'retry' }
  | { type: 'export'; format: 'srt' | 'vtt' }
  | { type: 'upload progress'; percent: number }
  | { type: 'uploaded'; task: SpeechTask }
  | { type: 'upload failed'; error: string };

const ended = (task: SpeechTask) => task.status !== 'queued' && task.status !== 'running';

export const speechTaskMachine = setup({
  types: {
    context: {} as SpeechContext,
    events: {} as SpeechEvent,
  },
  actors: {
    /** GET /misscut/v1/audio/sources */
    sources: fromPromise<SpeechSources, void>(notProvided('speechTask', 'sources')),
    /** POST /misscut/v1/audio/convert_file_to_mp3: reports `upload progress`, then `uploaded` or `upload failed` */
    upload: fromCallback<EventObject, { media: File; subtitle: File | null }>(() =>
      mustProvide('speechTask', 'upload'),
    ),
    /** POST /misscut/v1/get_speech_detail */
    detail: fromPromise<SpeechTask, { taskId: number }>(notProvided('speechTask', 'detail')),
    /** GET /misscut/v1/audio/subtitles */
    subtitles: fromPromise<{ blob: Blob; name: string }, { task: SpeechTask; format: 'srt' | 'vtt' }>(
      notProvided('speechTask', 'subtitles'),
    ),
  },
  actions: {
    'save file': (_, _params: { blob: Blob; name: string }) => mustProvide('speechTask', 'save file'),
  },
  guards: {
    'has media': ({ context }) => context.media !== null,
    'task ended': ({ context }) => context.task !== null && ended(context.task),
    'task done': ({ context }) => context.task?.status === 'done',
  },
  delays: { poll: SPEECH_POLL_MS },
}).createMachine({
  id: 'speechTask',
  context: { sources: null, media: null, subtitle: null, task: null, sent: 0, error: null },
  initial: 'loadingSources',
  states: {
    loadingSources: {
      invoke: {
        src: 'sources',
        onDone: { target: 'idle', actions: assign(({ event }) => ({ sources: event.output })) },
        // the page still works: it just cannot say what the server has
        onError: 'idle',
      },
    },
    idle: {
      on: {
        'media chosen': { actions: assign(({ event }) => ({ media: event.file, error: null })) },
        'subtitle chosen': { actions: assign(({ event }) => ({ subtitle: event.file })) },
        start: { guard: 'has media', target: 'uploading' },
      },
    },
    uploading: {
      entry: assign({ sent: 0, error: null, task: null }),
      on: {
        'upload progress': { actions: assign(({ event }) => ({ sent: event.percent })) },
        uploaded: { target: 'processing', actions: assign(({ event }) => ({ task: event.task, sent: 100 })) },
        'upload failed': { target: 'failed', actions: assign(({ event }) => ({ error: event.error })) },
      },
      invoke: {
        src: 'upload',
        input: ({ context }) => ({ media: context.media!, subtitle: context.subtitle }),
      },
    },
    processing: {
      always: [{ guard: 'task ended', target: 'ended' }],
      initial: 'waiting',
      states: {
        waiting: { after: { poll: 'reading' } },
        reading: {
          invoke: {
            src: 'detail',
            input: ({ context }) => ({ taskId: context.task!.task_id }),
            onDone: { target: 'waiting', actions: assign(({ event }) => ({ task: event.output })) },
            // a missed poll (network) is tried again at the next tick
            onError: 'waiting',
          },
        },
      },
    },
    ended: {
      always: [{ guard: 'task done', target: 'done' }, { target: 'failed' }],
    },
    done: {
      initial: 'idle',
      on: { reset: { target: '#speechTask.idle', actions: assign({ task: null, media: null, subtitle: null }) } },
      states: {
        idle: { on: { export: 'exporting' } },
        exporting: {
          invoke: {
            src: 'subtitles',
            input: ({ context, event }) => ({
              task: context.task!,
              format: event.type === 'export' ? event.format : 'srt',
            }),
            onDone: { target: 'idle', actions: { type: 'save file', params: ({ event }) => event.output } },
            onError: 'idle',
          },
        },
      },
    },
    failed: {
      on: {
        retry: { guard: 'has media', target: 'uploading' },
        reset: { target: 'idle', actions: assign({ task: null, media: null, subtitle: null, error: null }) },
      },
    },
  },
});

// One upload, from the chosen file to its result: shared by every upload screen.
//
// idle -> uploading (bytes sent / total) -> waiting (queued | processing, progress from the socket)
//      -> done | failed | cancelled;  failed/cancelled -> retry (the same file again); any end -> a new file
//
// What differs per screen is injected: the `upload` actor (which call, which fields; it reports byte
// progress and resolves to `{job, result}`), and the input's `channel`: which socket job messages
// (spec §7: type 2 cmd 1 documents, cmd 7 PDFs, cmd 5 images) carry the server-side processing of the
// job the upload created. Without a channel (format check, compare) the upload's answer is the result.
// While waiting, the job's status is also asked every POLL_MS (`job status`), so a socket that was
// down or a message that was lost cannot leave an upload spinning for ever.
import {
  assign,
  enqueueActions,
  fromCallback,
  fromPromise,
  setup,
  type ActorRefFrom,
  type EventObject,
  type SnapshotFrom,
} from 'xstate';
import { notProvided } from './provide';
import { isPair, Socket, SocketType, type JobStatus, type ServerMessage } from '../../openapi/socket-protocol';
import { socketMessages } from './findings/socket';

export type JobChannel = 'document' | 'pdf' | 'image';

/** A server-side job's state, from the upload's answer, a socket message or a status call. */
export interface JobUpdate {
  id: number;
  status: JobStatus;
  /** 0..100 */
  progress: number;
  issueCount?: number;
  error?: string;
}

export interface UploadOutput {
  /** the job the upload created (null: there is no server-side processing) */
  job: JobUpdate | null;
  /** the call's result (e.g. the document summary, a format report) */
  result: unknown;
}

export interface UploadInput {
  file: File;
  fields: Record<string, string>;
}

export interface UploadFailure {
  /** HTTP status, 0 without an answer */
  status: number;
  message: string;
}

/** What the upload actor reports. */
export type UploadReport =
  | { type: 'upload progress'; loaded: number; total: number }
  | { type: 'upload succeeded'; output: UploadOutput }
  | { type: 'upload failed'; error: UploadFailure };

export type UploadPipelineEvent =
  | { type: 'file selected'; file: File; fields?: Record<string, string> }
  | { type: 'retry' }
  | { type: 'cancel requested' }
  | { type: 'reset' }
  | { type: 'server message'; message: ServerMessage }
  | { type: 'job update'; update: JobUpdate | null }
  | UploadReport;

export interface UploadPipelineInput {
  /** the socket messages of the server-side processing; absent: the upload's answer is the result */
  channel?: JobChannel | null;
  /** extra form fields sent with every upload (e.g. checkMode) */
  fields?: Record<string, string>;
  /** a file to upload at once (a screen spawning one pipeline per chosen file) */
  file?: File;
}

export interface UploadPipelineContext {
  channel: JobChannel | null;
  fields: Record<string, string>;
  file: File | null;
  /** bytes sent and to send (total 0 until the first progress report) */
  loaded: number;
  total: number;
  job: JobUpdate | null;
  result: unknown;
  error: UploadFailure | null;
  /** job messages that arrived before the upload's answer named the job */
  early: JobUpdate[];
  /** how many times this file was (re)started */
  attempts: number;
}

export const POLL_MS = 5000;

export type UploadPhase = 'idle' | 'uploading' | 'queued' | 'processing' | 'done' | 'failed' | 'cancelled';

// ---- pure helpers -------------------------------------------------------------------------------

const JOB_STATUSES: readonly JobStatus[] = ['queued', 'running', 'done', 'failed', 'cancelled'];

function clampProgress(value: unknown): number {
  const n = typeof value === 'number' && Number.isFinite(value) ? value : 0;
  return Math.max(0, Math.min(100, Math.round(n)));
}

/** The job update a socket message carries for a channel, or null (other messages, error reports). */
export function jobUpdateOf(message: ServerMessage, channel: JobChannel): JobUpdate | null {
  if (message.type !== SocketType.Proofread || (message.status !== undefined && message.status !== 200)) return null;
  const payload: unknown = message.data;
  if (!payload || typeof payload !== 'object') return null;
  // the fields are checked one by one below: a socket frame's shape is not trusted
  const data: Record<string, unknown> = { ...payload };
  const status = data.status as JobStatus;
  if (!JOB_STATUSES.includes(status)) return null;
  const error = typeof data.error === 'string' ? data.error : undefined;
  const issueCount = typeof data.issue_count === 'number' ? data.issue_count : undefined;
  if (
    (channel === 'document' && isPair(message, Socket.DocumentFlag)) ||
    (channel === 'pdf' && isPair(message, Socket.PdfProgress))
  ) {
    if (typeof data.id !== 'number') return null;
    const progress = status === 'done' ? 100 : clampProgress(data.progress);
    return {
      id: data.id,
      status,
      progress,
      ...(issueCount !== undefined ? { issueCount } : {}),
      ...(error ? { error } : {}),
    };
  }
  if (channel === 'image' && isPair(message, Socket.ImageResult)) {
    if (typeof data.task_id !== 'number') return null;
    const issues = Array.isArray(data.issues) ? data.issues.length : undefined;
    return {
      id: data.task_id,
      status,
      progress: status === 'done' ? 100 : 0,
      ...(issues !== undefined ? { issueCount: issues } : {}),
      ...(error ? { error } : {}),
    };
  }
  return null;
}

/** Where a pipeline is, as one name (views and tests). */
export function phaseOf(snapshot: SnapshotFrom<typeof uploadPipelineMachine>): UploadPhase {
  const value = snapshot.value;
  if (typeof value === 'string') return value as UploadPhase;
  const waiting = (value as { waiting?: { stage?: string } }).waiting;
  return waiting?.stage === 'processing' ? 'processing' : 'queued';
}

/**
 * Overall progress 0..1 for one bar: the upload is the first part, the processing the rest (without a
 * processing phase the upload is all of it).
 */
export function overallProgress(context: UploadPipelineContext, phase: UploadPhase): number {
  const uploadShare = context.channel ? 0.3 : 1;
  const sent = context.total > 0 ? Math.min(1, context.loaded / context.total) : 0;
  switch (phase) {
    case 'idle':
      return 0;
    case 'uploading':
      return sent * uploadShare;
    case 'queued':
      return uploadShare;
    case 'processing':
      return uploadShare + (1 - uploadShare) * ((context.job?.progress ?? 0) / 100);
    case 'done':
      return 1;
    default:
      return context.job ? uploadShare + (1 - uploadShare) * (context.job.progress / 100) : sent * uploadShare;
  }
}

function isUpdateForJob(context: UploadPipelineContext, update: JobUpdate | null): update is JobUpdate {
  return update !== null && context.job !== null && update.id === context.job.id;
}

function updateOf(context: UploadPipelineContext, event: UploadPipelineEvent): JobUpdate | null {
  if (event.type === 'job update') return event.update;
  if (event.type === 'server message' && context.channel) return jobUpdateOf(event.message, context.channel);
  return null;
}

/** A later message may repeat an earlier one (re-sent after a reconnect): progress never goes back. */
function merged(previous: JobUpdate | null, update: JobUpdate): JobUpdate {
  if (!previous || previous.status !== update.status) return update;
  return { ...previous, ...update, progress: Math.max(previous.progress, update.progress) };
}

const fresh = (file: File, fields: Record<string, string>, attempts: number): Partial<UploadPipelineContext> => ({
  file,
  fields,
  loaded: 0,
  total: file.size,
  job: null,
  result: null,
  error: null,
  early: [],
  attempts,
});

// ---- the machine --------------------------------------------------------------------------------

export const uploadPipelineMachine = setup({
  types: {
    context: {} as UploadPipelineContext,
    events: {} as UploadPipelineEvent,
    input: {} as UploadPipelineInput,
  },
  actors: {
    // sends the file (multipart), reports byte progress, resolves with the job it created; stopping
    // it aborts the request
    upload: fromCallback<EventObject, UploadInput>(() => {
      throw new Error('upload must be provided via .provide()');
    }),
    // the job's current state by id (null when it cannot be told)
    'job status': fromPromise<JobUpdate | null, { channel: JobChannel; id: number }>(
      notProvided('uploadPipeline', 'job status'),
    ),
    // stops the server-side job; a failure is ignored (the job is cancelled for the user anyway)
    // (id null: the upload was stopped before a job existed)
    'cancel job': fromPromise<void, { channel: JobChannel | null; id: number | null }>(async () => undefined),
    // forwards the socket actor's `server message` events (the real one by default: it listens to
    // the actor with systemId 'socket' when there is one)
    'socket messages': socketMessages,
  },
  actions: {
    forget: assign({ file: null, loaded: 0, total: 0, job: null, result: null, error: null, early: [], attempts: 0 }),
  },
  guards: {
    'has processing': ({ context, event }) =>
      event.type === 'upload succeeded' && context.channel !== null && event.output.job !== null,
    'job known': ({ context }) => context.job !== null && context.channel !== null,
    'has file': ({ context }) => context.file !== null,
  },
  delays: {
    poll: POLL_MS,
  },
}).createMachine({
  id: 'uploadPipeline',
  context: ({ input }) => ({
    channel: input?.channel ?? null,
    fields: input?.fields ?? {},
    file: input?.file ?? null,
    loaded: 0,
    total: input?.file?.size ?? 0,
    job: null,
    result: null,
    error: null,
    early: [],
    attempts: input?.file ? 1 : 0,
  }),
  invoke: { src: 'socket messages', id: 'socketMessages' },
  initial: 'idle',
  on: {
    'file selected': {
      target: '.uploading',
      reenter: true,
      actions: assign(({ context, event }) => fresh(event.file, { ...context.fields, ...(event.fields ?? {}) }, 1)),
    },
  },
  states: {
    idle: {
      // started with a file: upload it at once
      always: { guard: ({ context }) => context.file !== null && context.attempts === 1, target: 'uploading' },
    },
    uploading: {
      invoke: {
        src: 'upload',
        id: 'upload',
        input: ({ context }) => ({ file: context.file!, fields: context.fields }),
      },
      on: {
        'upload progress': {
          actions: assign(({ context, event }) => ({
            loaded: Math.max(context.loaded, event.loaded),
            total: event.total > 0 ? event.total : context.total,
          })),
        },
        'upload succeeded': [
          {
            guard: 'has processing',
            target: 'waiting',
            actions: enqueueActions(({ enqueue, context, event }) => {
              enqueue.assign({ loaded: context.total, result: event.output.result, job: event.output.job });
              // job messages that came before the answer, handled now that the job id is known
              for (const update of context.early) enqueue.raise({ type: 'job update', update });
              enqueue.assign({ early: [] });
            }),
          },
          {
            target: 'done',
            actions: assign(({ context, event }) => ({
              loaded: context.total,
              result: event.output.result,
              job: event.output.job,
            })),
          },
        ],
        'upload failed': { target: 'failed', actions: assign(({ event }) => ({ error: event.error })) },
        'server message': {
          guard: ({ context, event }) => updateOf(context, event) !== null,
          actions: assign(({ context, event }) => ({ early: [...context.early, updateOf(context, event)!] })),
        },
        'cancel requested': { target: 'cancelled' },
      },
    },
    waiting: {
      type: 'parallel',
      // the answer may already say running/done/failed: the `always` below routes it
      on: {
        'server message': {
          guard: ({ context, event }) => isUpdateForJob(context, updateOf(context, event)),
          actions: enqueueActions(({ enqueue, context, event }) =>
            enqueue.raise({ type: 'job update', update: updateOf(context, event) }),
          ),
        },
        'job update': [
          {
            guard: ({ context, event }) => isUpdateForJob(context, event.update) && event.update!.status === 'done',
            target: 'done',
            actions: assign(({ context, event }) => ({
              job: { ...merged(context.job, event.update!), progress: 100 },
            })),
          },
          {
            guard: ({ context, event }) => isUpdateForJob(context, event.update) && event.update!.status === 'failed',
            target: 'failed',
            actions: assign(({ context, event }) => ({
              job: merged(context.job, event.update!),
              error: { status: 200, message: event.update!.error || '文档处理失败' },
            })),
          },
          {
            // cancelled on the server (e.g. from another tab)
            guard: ({ context, event }) =>
              isUpdateForJob(context, event.update) && event.update!.status === 'cancelled',
            target: 'cancelled',
            actions: assign(({ context, event }) => ({ job: merged(context.job, event.update!) })),
          },
          {
            guard: ({ context, event }) => isUpdateForJob(context, event.update) && event.update!.status === 'running',
            target: '.stage.processing',
            actions: assign(({ context, event }) => ({ job: merged(context.job, event.update!) })),
          },
          {
            guard: ({ context, event }) => isUpdateForJob(context, event.update),
            actions: assign(({ context, event }) => ({ job: merged(context.job, event.update!) })),
          },
        ],
        'cancel requested': { target: 'cancelled' },
      },
      states: {
        stage: {
          initial: 'routing',
          states: {
            // the upload's answer decides where the job starts
            routing: {
              always: [
                { guard: ({ context }) => context.job?.status === 'running', target: 'processing' },
                { target: 'queued' },
              ],
            },
            queued: {},
            processing: {},
          },
        },
        poll: {
          initial: 'sleeping',
          states: {
            sleeping: { after: { poll: 'asking' } },
            asking: {
              invoke: {
                src: 'job status',
                input: ({ context }) => ({ channel: context.channel!, id: context.job!.id }),
                onDone: {
                  target: 'sleeping',
                  actions: enqueueActions(({ enqueue, event }) =>
                    enqueue.raise({ type: 'job update', update: event.output }),
                  ),
                },
                onError: { target: 'sleeping' },
              },
            },
          },
        },
      },
      // an answer that is already final
      always: [
        {
          guard: ({ context }) => context.job?.status === 'done',
          target: 'done',
          actions: assign(({ context }) => ({ job: { ...context.job!, progress: 100 } })),
        },
        {
          guard: ({ context }) => context.job?.status === 'failed',
          target: 'failed',
          actions: assign(({ context }) => ({ error: { status: 200, message: context.job?.error || '文档处理失败' } })),
        },
      ],
    },
    done: {
      on: { reset: { target: 'idle', actions: 'forget' } },
    },
    failed: {
      on: {
        retry: {
          guard: 'has file',
          target: 'uploading',
          actions: assign(({ context }) => fresh(context.file!, context.fields, context.attempts + 1)),
        },
        reset: { target: 'idle', actions: 'forget' },
      },
    },
    cancelled: {
      invoke: {
        src: 'cancel job',
        // not when the server itself reported the job cancelled
        input: ({ context }) => ({
          channel: context.channel,
          id: context.job && context.job.status !== 'cancelled' ? context.job.id : null,
        }),
      },
      on: {
        retry: {
          guard: 'has file',
          target: 'uploading',
          actions: assign(({ context }) => fresh(context.file!, context.fields, context.attempts + 1)),
        },
        reset: { target: 'idle', actions: 'forget' },
      },
    },
  },
});

export type UploadPipelineRef = ActorRefFrom<typeof uploadPipelineMachine>;

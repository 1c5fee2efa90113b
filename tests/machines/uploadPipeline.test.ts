// Model-based test of the upload pipeline: an abstract model of what the user sees, whose
// paths drive the REAL live pipeline (liveUploadPipeline + the document upload binding + src/api's
// multipart upload and error catalogue) inside a system with a socket, on a SimulatedClock. Only the
// transport is fake: an XMLHttpRequest class whose answers the path decides, a fetch for the status
// call, and a socket actor that emits the server messages the path sends.
import { afterAll, describe, expect, it } from 'vitest';
import { assign, createActor, emit, setup, SimulatedClock } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { modelOptions } from './model';
import { configureApi } from '../../src/api/client';
import { setToken } from '../../src/api/storage';
import { documentUploadBinding, liveUploadPipeline, type UploadBinding } from '../../src/machines/live';
import { uploadMultipart } from '../../src/api/upload';
import { overallProgress, phaseOf, POLL_MS, type UploadPipelineRef } from '../../src/machines/uploadPipeline';
import type { DocumentFlagData, ServerMessage } from '../../openapi/socket-protocol';
import { collectNotices, freshStores } from '../api/helpers';

type ModelEvent =
  | 'SELECT'
  | 'PROGRESS'
  | 'EARLY_RUNNING'
  | 'ANSWER_OK'
  | 'ANSWER_413'
  | 'NETWORK_DOWN'
  | 'RUNNING'
  | 'STALE_MESSAGE'
  | 'OTHER_JOB'
  | 'JOB_DONE'
  | 'JOB_FAILED'
  | 'SERVER_CANCELLED'
  | 'POLL_DONE'
  | 'CANCEL'
  | 'RETRY'
  | 'RESET';

interface ModelContext {
  /** a running message for the job arrived before the upload's answer */
  early: boolean;
  /** how the last attempt ended: who cancelled, what failed */
  cancelledBy: 'none' | 'user-upload' | 'user-job' | 'server';
  failure: 'none' | '413' | 'network' | 'job';
}

function makeModel(processing: boolean) {
  // (typed loosely: xstate cannot infer the model's context for transitions built outside createMachine)
  const failed = (failure: ModelContext['failure']) => ({ target: 'failed', actions: assign({ failure }) }) as never;
  const cancelled = (cancelledBy: ModelContext['cancelledBy']) =>
    ({ target: 'cancelled', actions: assign({ cancelledBy }) }) as never;
  const start = {
    target: 'uploading',
    actions: assign({ early: false, cancelledBy: 'none' as const, failure: 'none' as const }),
  } as never;
  const waitingEvents = {
    RUNNING: { target: 'processing' },
    OTHER_JOB: { target: 'queued' },
    JOB_DONE: { target: 'done' },
    JOB_FAILED: failed('job'),
    SERVER_CANCELLED: cancelled('server'),
    POLL_DONE: { target: 'done' },
    CANCEL: cancelled('user-job'),
  };
  return setup({ types: {} as { context: ModelContext; events: { type: ModelEvent } } }).createMachine({
    id: processing ? 'document upload' : 'upload without processing',
    context: { early: false, cancelledBy: 'none', failure: 'none' },
    initial: 'idle',
    states: {
      idle: { on: { SELECT: start } },
      uploading: {
        on: {
          PROGRESS: { target: 'uploading' },
          ...(processing
            ? {
                EARLY_RUNNING: {
                  guard: ({ context }) => !context.early,
                  target: 'uploading',
                  actions: assign({ early: true }),
                },
                ANSWER_OK: [{ guard: ({ context }) => context.early, target: 'processing' }, { target: 'queued' }],
              }
            : { ANSWER_OK: { target: 'done' } }),
          ANSWER_413: failed('413'),
          NETWORK_DOWN: failed('network'),
          CANCEL: cancelled('user-upload'),
        },
      },
      queued: { on: waitingEvents },
      processing: {
        on: {
          ...waitingEvents,
          RUNNING: { target: 'processing' },
          STALE_MESSAGE: { target: 'processing' },
          OTHER_JOB: { target: 'processing' },
        },
      },
      done: { on: { SELECT: start, RESET: { target: 'idle' } } },
      failed: { on: { RETRY: start, SELECT: start, RESET: { target: 'idle' } } },
      cancelled: { on: { RETRY: start, SELECT: start, RESET: { target: 'idle' } } },
    },
  });
}

// ---- the real pipeline over a fake transport --------------------------------------------------

class FakeXhr {
  static instances: FakeXhr[] = [];
  url = '';
  method = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  aborted = false;
  status = 0;
  responseText = '';
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.instances.push(this);
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(key: string, value: string) {
    this.headers[key.toLowerCase()] = value;
  }
  getResponseHeader(key: string) {
    return key.toLowerCase() === 'content-type' ? 'application/json' : null;
  }
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  // server side
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total });
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
  networkError() {
    this.onerror?.();
  }
}

const { notices, unsubscribe } = collectNotices();
afterAll(unsubscribe);

const FILE_BYTES = 1000;

function summary(id: number, status: string, progress: number, extra: Record<string, unknown> = {}) {
  return {
    id,
    name: '报告.docx',
    file_type: 'docx',
    size: FILE_BYTES,
    status,
    progress,
    word_count: 120,
    issue_count: 0,
    created_at: '2026-11-23T19:00:00.000Z',
    updated_at: '2026-11-23T19:00:00.000Z',
    ...extra,
  };
}

function harness(processing: boolean) {
  freshStores();
  setToken('tok-1');
  notices.length = 0;
  FakeXhr.instances = [];
  let pollDoc: ReturnType<typeof summary> | null = null;
  const statusCalls: number[] = [];
  const cancelCalls: number[] = [];
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    if (url.pathname === '/misscut/document/v1/page') {
      statusCalls.push(Date.now());
      return json(200, {
        code: 200,
        msg: 'ok',
        result: { list: pollDoc ? [pollDoc] : [], total: pollDoc ? 1 : 0, num: 1, size: 100 },
      });
    }
    return json(404, { code: 404, msg: 'not found', result: null });
  };
  configureApi({ baseURL: 'http://api.test', fetch });
  const documents = documentUploadBinding({ XMLHttpRequest: FakeXhr as unknown as typeof XMLHttpRequest });
  const binding: UploadBinding = processing
    ? { ...documents, cancelJob: async (_channel, id) => void cancelCalls.push(id) }
    : {
        // like the format check: the answer is the result, no job
        upload: async (file, call) => ({
          job: null,
          result: await uploadMultipart('/misscut/v1/doc/format_check', file, file.name, {
            ...call,
            XMLHttpRequest: FakeXhr as unknown as typeof XMLHttpRequest,
          }),
        }),
      };
  const socket = setup({
    types: {} as {
      context: { sessionId: string };
      events: { type: 'push'; message: ServerMessage };
      emitted: { type: 'server message'; message: ServerMessage };
    },
  }).createMachine({
    context: { sessionId: 'sess-1' },
    on: { push: { actions: emit(({ event }) => ({ type: 'server message' as const, message: event.message })) } },
  });
  const root = setup({ actors: { socket, pipeline: liveUploadPipeline(binding) } }).createMachine({
    invoke: [
      { src: 'socket', id: 'socket', systemId: 'socket' },
      {
        src: 'pipeline',
        id: 'pipeline',
        systemId: 'pipeline',
        input: { channel: processing ? 'document' : null, fields: { checkMode: '3' } },
      },
    ],
  });
  const clock = new SimulatedClock();
  const app = createActor(root, { clock });
  app.start();
  const pipe = app.system.get('pipeline') as UploadPipelineRef;
  const socketRef = app.system.get('socket')!;
  let index = 0;
  let attempt = 0;
  let lastLoaded = 0;
  let progress = 0;
  const push = (data: DocumentFlagData) =>
    socketRef.send({ type: 'push', message: { type: 2, cmd: 1, status: 200, index: ++index, data } as ServerMessage });
  const xhr = () => FakeXhr.instances.at(-1)!;
  const jobId = () => 100 + FakeXhr.instances.length;
  const settle = async () => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
  };
  return {
    pipe,
    clock,
    statusCalls,
    cancelCalls,
    xhr,
    jobId,
    expected: () => ({ lastLoaded, progress }),
    async select() {
      attempt++;
      lastLoaded = 0;
      progress = 0;
      pipe.send({ type: 'file selected', file: new File([new Uint8Array(FILE_BYTES)], `报告${attempt}.docx`) });
      await settle();
    },
    async retry() {
      lastLoaded = 0;
      progress = 0;
      pipe.send({ type: 'retry' });
      await settle();
    },
    progressStep() {
      lastLoaded = Math.min(FILE_BYTES, lastLoaded + 400);
      xhr().progress(lastLoaded, FILE_BYTES);
    },
    early() {
      progress = 20;
      push({ id: jobId(), status: 'running', progress, issue_count: 0 });
    },
    async answer(status: number) {
      if (status === 200)
        xhr().respond(200, {
          code: 200,
          msg: 'ok',
          result: processing ? summary(jobId(), 'queued', 0) : { violations: [], template: 'GB/T 9704' },
        });
      else xhr().respond(status, { code: status, msg: '文件过大 (file too large)', result: null });
      await settle();
    },
    async networkDown() {
      xhr().networkError();
      await settle();
    },
    running() {
      progress = Math.min(90, progress + 30);
      push({ id: jobId(), status: 'running', progress, issue_count: 0 });
    },
    stale() {
      push({ id: jobId(), status: 'running', progress: 1, issue_count: 0 });
    },
    otherJob() {
      push({ id: 999, status: 'done', progress: 100, issue_count: 4 });
    },
    jobDone() {
      push({ id: jobId(), status: 'done', progress: 100, issue_count: 3 });
    },
    jobFailed() {
      push({ id: jobId(), status: 'failed', progress, issue_count: 0, error: '文档已损坏，无法读取' });
    },
    serverCancelled() {
      push({ id: jobId(), status: 'cancelled', progress, issue_count: 0 });
    },
    async pollDone() {
      pollDoc = summary(jobId(), 'done', 100, { issue_count: 2 });
      const before = statusCalls.length;
      clock.increment(POLL_MS);
      await settle();
      expect(statusCalls.length).toBe(before + 1);
    },
    settle,
    stop: () => app.stop(),
  };
}

for (const processing of [true, false]) {
  describe(`upload pipeline (model-based, ${processing ? 'with' : 'without'} server-side processing)`, () => {
    const testModel = createTestModel(makeModel(processing), modelOptions);
    const paths = testModel.getShortestPaths({ allowDuplicatePaths: true });
    console.log(`upload pipeline model (${processing ? 'document' : 'no processing'}): ${paths.length} shortest paths`);

    it('has paths covering every event and state of the model', () => {
      const events = new Set<string>();
      const states = new Set<string>();
      for (const path of paths) {
        states.add(JSON.stringify(path.state.value));
        for (const step of path.steps) {
          events.add(step.event.type);
          states.add(JSON.stringify(step.state.value));
        }
      }
      const expectedEvents: ModelEvent[] = [
        'SELECT',
        'PROGRESS',
        'ANSWER_OK',
        'ANSWER_413',
        'NETWORK_DOWN',
        'CANCEL',
        'RETRY',
        'RESET',
      ];
      if (processing)
        expectedEvents.push(
          'EARLY_RUNNING',
          'RUNNING',
          'STALE_MESSAGE',
          'OTHER_JOB',
          'JOB_DONE',
          'JOB_FAILED',
          'SERVER_CANCELLED',
          'POLL_DONE',
        );
      for (const e of expectedEvents) expect(events.has(e), e).toBe(true);
      const expectedStates = [
        'idle',
        'uploading',
        'done',
        'failed',
        'cancelled',
        ...(processing ? ['queued', 'processing'] : []),
      ];
      for (const s of expectedStates) expect(states.has(JSON.stringify(s)), s).toBe(true);
    });

    for (const path of paths) {
      it(path.description, async () => {
        const h = harness(processing);
        await path.test({
          states: {
            '*': async (state) => {
              const model = state.context as ModelContext;
              const snapshot = h.pipe.getSnapshot();
              const context = snapshot.context;
              const phase = phaseOf(snapshot);
              expect(phase).toBe(state.value);
              const progress = overallProgress(context, phase);
              expect(progress).toBeGreaterThanOrEqual(0);
              expect(progress).toBeLessThanOrEqual(1);
              switch (state.value) {
                case 'idle':
                  expect(context.file).toBeNull();
                  expect(progress).toBe(0);
                  break;
                case 'uploading': {
                  const xhr = h.xhr();
                  expect(xhr.aborted).toBe(false);
                  expect(xhr.url).toBe(
                    processing
                      ? 'http://api.test/misscut/document/v1/upload'
                      : 'http://api.test/misscut/v1/doc/format_check',
                  );
                  // spec §7 headers, the socket session and the form
                  expect(xhr.headers.authorization).toBe('Bearer tok-1');
                  expect(xhr.headers.endpoint).toBe('1');
                  expect(xhr.headers.session).toBe('sess-1');
                  expect((xhr.body!.get('file') as File).name).toBe(context.file!.name);
                  expect(xhr.body!.get('checkMode')).toBe('3');
                  expect(context.loaded).toBe(h.expected().lastLoaded);
                  expect(context.total).toBe(FILE_BYTES);
                  break;
                }
                case 'queued':
                  expect(context.job).toMatchObject({ id: h.jobId(), status: 'queued' });
                  expect(context.loaded).toBe(FILE_BYTES);
                  expect(progress).toBeCloseTo(0.3);
                  break;
                case 'processing':
                  // the newest progress, never going back for a stale re-sent message
                  expect(context.job).toMatchObject({
                    id: h.jobId(),
                    status: 'running',
                    progress: h.expected().progress,
                  });
                  break;
                case 'done':
                  expect(progress).toBe(1);
                  if (processing) {
                    expect(context.job).toMatchObject({ id: h.jobId(), status: 'done', progress: 100 });
                    expect(context.job!.issueCount).toBeGreaterThan(0);
                    expect(context.result).toMatchObject({ id: h.jobId() });
                  } else {
                    expect(context.job).toBeNull();
                    expect(context.result).toEqual({ violations: [], template: 'GB/T 9704' });
                  }
                  break;
                case 'failed': {
                  const message = {
                    '413': '文档上传失败',
                    network: '网络连接失败',
                    job: '文档已损坏，无法读取',
                    none: '',
                  }[model.failure];
                  expect(context.error?.message).toBe(message);
                  // HTTP failures are told through the catalogue; a job's failure is shown in its row
                  if (model.failure !== 'job') expect(notices.at(-1)?.title).toBe(message);
                  break;
                }
                case 'cancelled':
                  if (model.cancelledBy === 'user-upload') {
                    expect(h.xhr().aborted).toBe(true);
                    expect(h.cancelCalls).toEqual([]);
                  }
                  if (model.cancelledBy === 'user-job') expect(h.cancelCalls.at(-1)).toBe(h.jobId());
                  if (model.cancelledBy === 'server') expect(h.cancelCalls).not.toContain(h.jobId());
                  break;
              }
            },
          },
          events: {
            SELECT: () => h.select(),
            PROGRESS: () => h.progressStep(),
            EARLY_RUNNING: () => h.early(),
            ANSWER_OK: () => h.answer(200),
            ANSWER_413: async () => {
              const before = notices.length;
              await h.answer(413);
              expect(notices.length).toBe(before + 1);
            },
            NETWORK_DOWN: () => h.networkDown(),
            RUNNING: () => h.running(),
            STALE_MESSAGE: () => h.stale(),
            OTHER_JOB: () => {
              const before = h.pipe.getSnapshot().context.job;
              h.otherJob();
              expect(h.pipe.getSnapshot().context.job).toEqual(before);
            },
            JOB_DONE: () => h.jobDone(),
            JOB_FAILED: () => h.jobFailed(),
            SERVER_CANCELLED: () => h.serverCancelled(),
            POLL_DONE: () => h.pollDone(),
            CANCEL: async () => {
              const before = notices.length;
              h.pipe.send({ type: 'cancel requested' });
              await h.settle();
              // cancelling is not an error
              expect(notices.length).toBe(before);
            },
            RETRY: async () => {
              const before = FakeXhr.instances.length;
              const name = h.pipe.getSnapshot().context.file!.name;
              await h.retry();
              expect(FakeXhr.instances.length).toBe(before + 1);
              expect(h.pipe.getSnapshot().context.file!.name).toBe(name);
            },
            RESET: () => h.pipe.send({ type: 'reset' }),
          },
        });
        h.stop();
      });
    }
  });
}

describe('the document upload accepts what the server reads', () => {
  it('takes .docx, .pptx, .txt, .md, .doc and .wps whatever their case, and nothing else', async () => {
    const { isDocumentFile } = await import('../../src/machines/documentUploads');
    for (const name of ['报告.docx', '汇报.PPTX', '说明.txt', 'README.md', '旧.doc', '旧.wps'])
      expect(isDocumentFile(name), name).toBe(true);
    for (const name of ['旧版.ppt', '扫描.pdf', 'setup.exe', 'pptx', '表.xlsx'])
      expect(isDocumentFile(name), name).toBe(false);
  });
});

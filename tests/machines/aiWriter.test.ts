// Model-based test of the AI writing screen's machine: an abstract model whose paths drive the REAL live machine
// (liveAiWriter: the /gpt calls through the API client, its proofreading job through check_text and the socket).
// Only the transport is fake: a fetch answering JSON or server-sent events, and a socket whose messages the test
// sends.
import { afterAll, describe, expect, it } from 'vitest';
import { createActor, emit, setup } from 'xstate';
import { createTestModel } from 'xstate/graph';
import type { ServerMessage } from '../../openapi/socket-protocol';
import { onQuotaExhausted, type QuotaExhausted } from '../../src/api/client';
import { liveAiWriter } from '../../src/machines/live-ai';
import type { SocketEmitted } from '../../src/machines/socket';
import { collectNotices, fakeFetch } from '../api/helpers';
import { modelOptions, settle as settleFor, fakeApi } from './model';

const model = setup({
  types: {} as {
    events:
      | { type: 'OPEN' }
      | { type: 'OPEN_UNAVAILABLE' }
      | { type: 'OPEN_FAILS' }
      | { type: 'RETRY' }
      | { type: 'GENERATE' }
      | { type: 'GENERATE_FAILS' }
      | { type: 'GENERATE_EXHAUSTED' }
      | { type: 'GENERATE_AND_STOP' }
      | { type: 'DRAFT_WITHOUT_TITLE' }
      | { type: 'PROOFREAD' }
      | { type: 'ACCEPT' }
      | { type: 'INSERT' };
  },
}).createMachine({
  id: 'aiWriterModel',
  initial: 'start',
  states: {
    start: { on: { OPEN: 'ready', OPEN_UNAVAILABLE: 'unavailable', OPEN_FAILS: 'failed' } },
    failed: { on: { RETRY: 'ready' } },
    unavailable: {},
    ready: {
      on: {
        GENERATE: 'written',
        GENERATE_FAILS: 'runFailed',
        GENERATE_EXHAUSTED: 'exhausted',
        GENERATE_AND_STOP: 'stopped',
        DRAFT_WITHOUT_TITLE: 'notSent',
      },
    },
    written: { on: { PROOFREAD: 'proofread', INSERT: 'inserted' } },
    proofread: { on: { ACCEPT: 'corrected' } },
    corrected: { on: { INSERT: 'insertedCorrected' } },
    inserted: {},
    insertedCorrected: {},
    runFailed: {},
    exhausted: {},
    stopped: {},
    notSent: {},
  },
});

const REPLY = ['我们将认真', '研究群众反映的', '问提。'];
const WRITTEN = REPLY.join('');
const FUNCTIONS = {
  functions: [
    { id: 'polish', name: '润色', description: '', placeholder: '' },
    {
      id: 'notice',
      name: '起草通知',
      description: '',
      placeholder: '',
      fields: [
        { key: 'title', label: '事由（标题）', required: true },
        { key: 'issuer', label: '发文机关', required: true },
      ],
    },
  ],
};
const ok = (result: unknown) => ({ body: { code: 200, msg: 'success', result } });
const settle = () => settleFor(12);

const { notices, unsubscribe } = collectNotices();
const quota: QuotaExhausted[] = [];
const stopQuota = onQuotaExhausted((e) => quota.push(e));
afterAll(() => {
  unsubscribe();
  stopQuota();
});

/** A socket actor of the app's kind: it emits what the test sends it. */
const fakeSocket = setup({ types: { events: {} as SocketEmitted, emitted: {} as SocketEmitted } }).createMachine({
  on: { 'server message': { actions: emit(({ event }) => event) } },
});

describe('AI writing (model-based)', () => {
  const paths = createTestModel(model, modelOptions).getShortestPaths({ allowDuplicatePaths: true });
  it('has enough paths to cover the flow', () => expect(paths.length).toBeGreaterThanOrEqual(11));

  for (const path of paths) {
    it(path.description, async () => {
      notices.length = 0;
      quota.length = 0;
      const routes: Parameters<typeof fakeFetch>[0] = {};
      const transport = fakeApi(routes);
      const socket = createActor(fakeSocket);
      socket.start();
      const actor = createActor(liveAiWriter({ socket: () => socket, sessionId: () => 'sess-1' }));
      const a = () => actor.getSnapshot();
      const sent = (key: string) => transport.requests.filter((r) => `${r.method} ${new URL(r.url).pathname}` === key);
      const open = async (available: boolean) => {
        routes['GET /gpt/v1/chat/function'] = ok({ ...FUNCTIONS, available });
        actor.start();
        await settle();
      };
      const write = async (events: unknown[]) => {
        routes['POST /gpt/v1/chat/completions'] = { events };
        actor.send({ type: 'input changed', text: '这个方案须要进一步完善。' });
        actor.send({ type: 'generate' });
        await settle();
      };
      const message = (data: unknown): ServerMessage =>
        ({ type: 2, cmd: 2, status: 200, index: 1, data }) as ServerMessage;
      await path.test({
        events: {
          OPEN: () => open(true),
          OPEN_UNAVAILABLE: () => open(false),
          OPEN_FAILS: async () => {
            routes['GET /gpt/v1/chat/function'] = { networkDown: true };
            actor.start();
            await settle();
          },
          RETRY: async () => {
            routes['GET /gpt/v1/chat/function'] = ok({ ...FUNCTIONS, available: true });
            actor.send({ type: 'retry' });
            await settle();
          },
          GENERATE: () =>
            write([...REPLY.map((delta) => ({ delta })), { done: true, used: WRITTEN.length, truncated: false }]),
          GENERATE_FAILS: () =>
            write([
              { delta: '第一段' },
              { error: { code: 'ai.failed', msg: 'AI 写作服务出错，已退回字数，请稍后重试' } },
            ]),
          GENERATE_EXHAUSTED: async () => {
            routes['POST /gpt/v1/chat/completions'] = {
              status: 402,
              body: { code: 402, msg: 'AI 写作字数已用完', msg_code: 'ai.exhausted', result: { kind: 1 } },
            };
            actor.send({ type: 'input changed', text: '一段文字' });
            actor.send({ type: 'generate' });
            await settle();
          },
          GENERATE_AND_STOP: async () => {
            await write([{ delta: '写到一半' }, null]);
            actor.send({ type: 'cancel' });
            await settle();
          },
          DRAFT_WITHOUT_TITLE: async () => {
            actor.send({ type: 'choose', id: 'notice' });
            actor.send({ type: 'field changed', key: 'issuer', value: '办公室' });
            actor.send({ type: 'input changed', text: '周五开会' });
            actor.send({ type: 'generate' });
            await settle();
          },
          PROOFREAD: async () => {
            routes['POST /misscut/v1/check_text'] = ok({ check_id: 'c1' });
            actor.send({ type: 'proofread' });
            await settle();
            const at = WRITTEN.indexOf('问提');
            socket.send({
              type: 'server message',
              message: message({
                check_id: 'c1',
                paragraph: 0,
                offset: 0,
                hash: 'h0',
                done: true,
                used: WRITTEN.length,
                issues: [
                  {
                    start: at,
                    end: at + 2,
                    original: '问提',
                    suggestions: ['问题'],
                    category: '5',
                    level: 1,
                    message: '“问提”疑误',
                  },
                ],
              }),
            });
            await settle();
          },
          ACCEPT: async () => {
            const job = a().children.proofreader!;
            job.send({ type: 'accept', id: job.getSnapshot().context.findings[0].id });
            await settle();
          },
          INSERT: async () => {
            actor.send({ type: 'draft changed', text: '开头。结尾。' });
            actor.send({ type: 'insert', from: 3, to: 3 });
            await settle();
          },
        },
        states: {
          start: () => {},
          failed: () => expect(a().matches('failed')).toBe(true),
          unavailable: () => {
            expect(a().matches('unavailable')).toBe(true);
            expect(sent('POST /gpt/v1/chat/completions')).toHaveLength(0);
          },
          ready: () => {
            expect(a().matches({ ready: 'idle' })).toBe(true);
            expect(a().context.functions.map((f) => f.id)).toEqual(['polish', 'notice']);
          },
          written: async () => {
            expect(a().matches({ ready: 'done' })).toBe(true);
            expect(a().context).toMatchObject({ output: WRITTEN, used: WRITTEN.length, truncated: false });
            const [request] = sent('POST /gpt/v1/chat/completions');
            expect(await request.clone().json()).toEqual({
              function_id: 'polish',
              content: '这个方案须要进一步完善。',
              lang: 'cn',
            });
          },
          proofread: async () => {
            const job = a().children.proofreader!;
            expect(job.getSnapshot().context.findings.map((f) => f.original)).toEqual(['问提']);
            // the result was sent for checking with the app's socket session
            const [check] = sent('POST /misscut/v1/check_text');
            expect(check.headers.get('session')).toBe('sess-1');
            expect((await check.clone().json()).text).toBe(WRITTEN);
          },
          corrected: () => {
            const job = a().children.proofreader!;
            expect(job.getSnapshot().context.text).toBe(WRITTEN.replace('问提', '问题'));
          },
          inserted: () => expect(a().context.draft).toBe(`开头。${WRITTEN}结尾。`),
          insertedCorrected: () => expect(a().context.draft).toBe(`开头。${WRITTEN.replace('问提', '问题')}结尾。`),
          runFailed: () => {
            expect(a().matches({ ready: 'failed' })).toBe(true);
            expect(a().context).toMatchObject({ output: '第一段', error: 'AI 写作服务出错，已退回字数，请稍后重试' });
          },
          exhausted: () => {
            expect(a().matches({ ready: 'failed' })).toBe(true);
            // the quota dialog opens, as for every 402
            expect(quota).toEqual([expect.objectContaining({ kind: 1 })]);
          },
          stopped: () => {
            expect(a().matches({ ready: 'cancelled' })).toBe(true);
            expect(a().context.output).toBe('写到一半');
            // the request was aborted: the server stops the run and charges what it wrote
            expect(sent('POST /gpt/v1/chat/completions')[0].signal.aborted).toBe(true);
          },
          notSent: () => {
            expect(a().matches({ ready: 'idle' })).toBe(true);
            expect(sent('POST /gpt/v1/chat/completions')).toHaveLength(0);
          },
        },
      });
      actor.stop();
      socket.stop();
    });
  }
});

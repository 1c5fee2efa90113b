// Model-based test of the text proofreading job: an abstract model of what the user sees,
// whose paths drive the REAL live job machine. Only the transport is fake: a fetch whose check_text
// answer the path decides, and socket `server message` events built from the text actually sent.
import { afterAll, describe, expect, it } from 'vitest';
import { assign, createActor, fromCallback, setup } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { modelOptions } from './model';
import { configureApi, onQuotaExhausted, type QuotaExhausted } from '../../src/api/client';
import { liveProofreadJob } from '../../src/machines/live';
import { FINE_MODE_UNAVAILABLE, type ProofreadContext } from '../../src/machines/proofreadJob';
import type { ServerMessage, SocketIssue } from '../../openapi/socket-protocol';
import { collectNotices, freshStores } from '../api/helpers';

interface ModelContext {
  /** paragraphs whose results are missing or stale */
  unchecked: 0 | 1 | 2;
  /** paragraphs sent by the running check */
  sent: 0 | 1 | 2;
  received: 0 | 1 | 2;
  fine: boolean;
  /** the running check was sent in mode 4 */
  sentFine: boolean;
  /** cancel was asked for before the check's id was known */
  cancelWanted: boolean;
}

// a check with nothing changed ends at once; otherwise only the unchecked paragraphs are sent
const check = [
  { guard: ({ context }: { context: ModelContext }) => context.unchecked === 0, target: '#job.done' },
  {
    target: '#job.submitting',
    actions: assign(({ context }: { context: ModelContext }) => ({
      sent: context.unchecked,
      received: 0 as const,
      sentFine: context.fine,
      cancelWanted: false,
    })),
  },
];

const model = setup({
  types: {} as {
    context: ModelContext;
    events:
      | { type: 'CHECK' }
      | { type: 'ANSWER_OK' }
      | { type: 'ANSWER_402' }
      | { type: 'ANSWER_403' }
      | { type: 'RESULT_ONE' }
      | { type: 'RESULT_DUPLICATE' }
      | { type: 'RESULT_REST' }
      | { type: 'SOCKET_ERROR' }
      | { type: 'CANCEL' }
      | { type: 'EDIT' }
      | { type: 'CHOOSE_FINE_GRANTED' }
      | { type: 'CHOOSE_FINE_DENIED' }
      | { type: 'CHOOSE_FAST' };
  },
}).createMachine({
  id: 'job',
  context: { unchecked: 2, sent: 0, received: 0, fine: false, sentFine: false, cancelWanted: false },
  initial: 'idle',
  on: {
    CHOOSE_FINE_GRANTED: { guard: ({ context }) => !context.fine, actions: assign({ fine: true }) },
    CHOOSE_FINE_DENIED: { guard: ({ context }) => !context.fine, actions: assign({ fine: false }) },
    CHOOSE_FAST: { guard: ({ context }) => context.fine, actions: assign({ fine: false }) },
  },
  states: {
    idle: { on: { CHECK: check as never } },
    submitting: {
      on: {
        // a cancel while the check is being sent waits for its id, then cancels it
        CANCEL: { guard: ({ context }) => !context.cancelWanted, actions: assign({ cancelWanted: true }) },
        ANSWER_OK: [{ guard: ({ context }) => context.cancelWanted, target: 'cancelled' }, { target: 'streaming' }],
        ANSWER_402: { target: 'failed' },
        // the server refuses mode 4 (the right ran out meanwhile): back to the fast model
        ANSWER_403: { guard: ({ context }) => context.sentFine, target: 'failed', actions: assign({ fine: false }) },
      },
    },
    streaming: {
      on: {
        RESULT_ONE: {
          guard: ({ context }) => context.sent === 2 && context.received === 0,
          target: 'streaming',
          actions: assign({ received: 1, unchecked: 1 }),
        },
        RESULT_DUPLICATE: { guard: ({ context }) => context.received === 1, target: 'streaming' },
        RESULT_REST: {
          target: 'done',
          actions: assign(({ context }) => ({ received: context.sent, unchecked: 0 as const })),
        },
        // a failed paragraph is reported, then its normal (empty) result follows: the check goes on
        SOCKET_ERROR: { target: 'streaming' },
        CANCEL: { target: 'cancelled' },
      },
    },
    done: {
      on: {
        CHECK: check as never,
        EDIT: { guard: ({ context }) => context.unchecked === 0, target: 'done', actions: assign({ unchecked: 1 }) },
      },
    },
    cancelled: { on: { CHECK: check as never } },
    failed: { on: { CHECK: check as never } },
  },
});

// ---- the real machine over a fake transport -------------------------------------------------

const TEXT = '他高兴的跑了。\n我们在次见面。';
/** The fake engine: known errors by substring. */
const KNOWN: Array<{ original: string; at: number; suggestion: string; category: string }> = [
  { original: '的', at: 3, suggestion: '地', category: '3' },
  { original: '在次', at: 2, suggestion: '再次', category: '1' },
];

function issuesOf(paragraph: string, offset: number): SocketIssue[] {
  const out: SocketIssue[] = [];
  for (const k of KNOWN) {
    if (paragraph.slice(k.at, k.at + k.original.length) === k.original)
      out.push({
        start: offset + k.at,
        end: offset + k.at + k.original.length,
        original: k.original,
        suggestions: [k.suggestion],
        category: k.category,
        level: 1,
        message: `“${k.original}”疑误`,
      });
  }
  return out;
}

const { notices, unsubscribe } = collectNotices();
const quotaEvents: QuotaExhausted[] = [];
const stopQuota = onQuotaExhausted((e) => quotaEvents.push(e));
afterAll(() => {
  unsubscribe();
  stopQuota();
});

function harness() {
  freshStores();
  notices.length = 0;
  quotaEvents.length = 0;
  const bodies: Array<{ text: string; checkMode: number }> = [];
  const cancels: string[] = [];
  const sessionHeaders: string[] = [];
  let answer: ((r: Response) => void) | null = null;
  let fineAvailable = true;
  let checks = 0;
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const fetch = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    if (path === '/misscut/v1/check_text') {
      bodies.push(await request.clone().json());
      sessionHeaders.push(request.headers.get('session') ?? '');
      return new Promise<Response>((resolve) => (answer = resolve));
    }
    if (path === '/misscut/v1/cancel') {
      cancels.push((await request.clone().json()).check_id);
      return json(200, { code: 200, msg: 'ok', result: null });
    }
    if (path === '/user/v1/check/user_fine_proofreading_right')
      return json(200, {
        code: 200,
        msg: 'ok',
        result: { available: fineAvailable, disposable_num: fineAvailable ? 10 : 0 },
      });
    return json(404, { code: 404, msg: 'not found', result: null });
  };
  configureApi({ baseURL: 'http://api.test', fetch });
  const logic = liveProofreadJob({}, () => 'sess-1').provide({
    actors: { 'socket messages': fromCallback(() => () => undefined) },
  });
  const actor = createActor(logic);
  actor.start();
  actor.send({ type: 'text edited', text: TEXT });
  let index = 0;
  let checkId = '';
  const paragraphsSent = () => bodies.at(-1)!.text.split('\n');
  const message = (data: unknown, extra: Partial<{ status: number }> = {}): ServerMessage =>
    ({ type: 2, cmd: 2, status: 200, index: ++index, data, ...extra }) as ServerMessage;
  const resultFor = (p: number, done: boolean): ServerMessage => {
    const paragraphs = paragraphsSent();
    const offset = paragraphs.slice(0, p).reduce((n, s) => n + s.length + 1, 0);
    return message({
      check_id: checkId,
      paragraph: p,
      offset,
      hash: `h${p}`,
      done,
      issues: issuesOf(paragraphs[p], offset),
      ...(done ? { used: bodies.at(-1)!.text.length } : {}),
    });
  };
  const settle = () => new Promise((r) => setTimeout(r, 0));
  let lastFirst: ServerMessage | null = null;
  return {
    actor,
    bodies,
    cancels,
    sessionHeaders,
    setFine: (v: boolean) => (fineAvailable = v),
    async answer(status: number) {
      checkId = `c${++checks}`;
      const body =
        status === 200
          ? { code: 200, msg: 'ok', result: { check_id: checkId } }
          : {
              code: status,
              msg: status === 402 ? '高速校对字数不足' : FINE_MODE_UNAVAILABLE,
              result: status === 402 ? { kind: 1 } : null,
            };
      // the check id arrives on the socket before the HTTP answer: the machine must keep it
      if (status === 200)
        actor.send({
          type: 'server message',
          message: {
            type: 2,
            cmd: 3,
            status: 200,
            index: ++index,
            data: { check_id: checkId, paragraphs: paragraphsSent().length },
          },
        });
      answer!(json(status === 200 ? 200 : status, body));
      await settle();
      await settle();
    },
    resultOne() {
      lastFirst = resultFor(0, false);
      actor.send({ type: 'server message', message: lastFirst });
    },
    duplicate() {
      actor.send({ type: 'server message', message: lastFirst! });
    },
    resultRest(received: number) {
      const n = paragraphsSent().length;
      for (let p = received; p < n; p++) actor.send({ type: 'server message', message: resultFor(p, p === n - 1) });
    },
    socketError() {
      actor.send({
        type: 'server message',
        message: message(['第2段校对失败，未扣字数，请稍后重试'], { status: 500 }),
      });
      expect(notices.at(-1)?.title).toBe('第2段校对失败，未扣字数，请稍后重试');
    },
    edit() {
      actor.send({ type: 'text edited', text: actor.getSnapshot().context.text + '！' });
    },
    settle,
  };
}

type H = ReturnType<typeof harness>;

function jobOf(actor: H['actor']): string {
  return (actor.getSnapshot().value as { job: string }).job;
}

function assertFindingsValid(context: ProofreadContext) {
  for (const f of context.findings) expect(context.text.slice(f.start, f.end)).toBe(f.original);
}

describe('proofreading job (model-based)', () => {
  const testModel = createTestModel(model, modelOptions);
  const paths = testModel.getShortestPaths({ allowDuplicatePaths: true });
  console.log(`proofreading job model: ${paths.length} shortest paths`);

  it('has paths covering every transition of the model', () => {
    // every (state, event) pair the model allows appears in some path
    const covered = new Set<string>();
    for (const path of paths)
      for (const step of path.steps) covered.add(`${JSON.stringify(step.state.value)}:${step.event.type}`);
    for (const event of [
      'CHECK',
      'ANSWER_OK',
      'ANSWER_402',
      'ANSWER_403',
      'RESULT_ONE',
      'RESULT_DUPLICATE',
      'RESULT_REST',
      'SOCKET_ERROR',
      'CANCEL',
      'EDIT',
      'CHOOSE_FINE_GRANTED',
      'CHOOSE_FINE_DENIED',
      'CHOOSE_FAST',
    ])
      expect(
        [...covered].some((k) => k.endsWith(`:${event}`)),
        event,
      ).toBe(true);
    expect(paths.length).toBeGreaterThan(20);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const h = harness();
      await path.test({
        states: {
          '*': async (state) => {
            const snapshot = h.actor.getSnapshot();
            const context = snapshot.context;
            const model = state.context as ModelContext;
            expect(jobOf(h.actor)).toBe(state.value as string);
            expect(snapshot.matches({ mode: model.fine ? 'fine' : 'fast' })).toBe(true);
            assertFindingsValid(context);
            if (state.value === 'done') {
              expect(context.findings.map((f) => f.original)).toEqual(['的', '在次']);
              expect(Object.values(context.results).filter((r) => r.checked).length).toBeGreaterThanOrEqual(
                2 - model.unchecked,
              );
            }
            if (state.value === 'streaming') expect(context.checkId).toBe(`c${h.bodies.length}`);
            if (state.value === 'submitting') {
              // only paragraphs needing a check are sent, with the socket session and the mode
              expect(h.bodies.at(-1)!.text.split('\n')).toHaveLength(model.sent);
              expect(h.bodies.at(-1)!.checkMode).toBe(model.sentFine ? 4 : 3);
              expect(h.sessionHeaders.at(-1)).toBe('sess-1');
              expect(context.cancelWanted).toBe(model.cancelWanted);
            }
            if (state.value === 'cancelled') expect(h.cancels.at(-1)).toBe(`c${h.bodies.length}`);
          },
        },
        events: {
          CHECK: async () => {
            h.actor.send({ type: 'check requested' });
            await h.settle();
          },
          ANSWER_OK: () => h.answer(200),
          ANSWER_402: async () => {
            await h.answer(402);
            expect(quotaEvents.at(-1)).toMatchObject({ kind: 1 });
            expect(h.actor.getSnapshot().context.error).toBe('高速校对字数不足');
          },
          ANSWER_403: async () => {
            // only a check sent in mode 4 can be refused so (the model's guard)
            if (h.bodies.at(-1)?.checkMode !== 4 || jobOf(h.actor) !== 'submitting') return;
            await h.answer(403);
            expect(notices.some((n) => n.title === FINE_MODE_UNAVAILABLE)).toBe(true);
          },
          RESULT_ONE: () => {
            const c = h.actor.getSnapshot().context;
            if (c.received.size !== 0 || c.segments.length !== 2) return;
            h.resultOne();
            expect(h.actor.getSnapshot().context.findings.map((f) => f.original)).toContain('的');
          },
          RESULT_DUPLICATE: () => {
            if (h.actor.getSnapshot().context.received.size !== 1) return;
            const before = h.actor.getSnapshot().context.findings.length;
            h.duplicate();
            expect(h.actor.getSnapshot().context.findings.length).toBe(before);
          },
          RESULT_REST: () => h.resultRest(h.actor.getSnapshot().context.received.size),
          SOCKET_ERROR: () => h.socketError(),
          CANCEL: async () => {
            h.actor.send({ type: 'cancel requested' });
            await h.settle();
            await h.settle();
          },
          EDIT: () => {
            if (Object.values(h.actor.getSnapshot().context.results).some((r) => !r.checked)) return;
            h.edit();
            // the finding before the edit stays where it was
            expect(h.actor.getSnapshot().context.findings.map((f) => f.original)).toEqual(['的', '在次']);
          },
          CHOOSE_FINE_GRANTED: async () => {
            if (!h.actor.getSnapshot().matches({ mode: 'fast' })) return;
            h.setFine(true);
            h.actor.send({ type: 'mode chosen', mode: 4 });
            await h.settle();
            await h.settle();
          },
          CHOOSE_FINE_DENIED: async () => {
            if (!h.actor.getSnapshot().matches({ mode: 'fast' })) return;
            h.setFine(false);
            h.actor.send({ type: 'mode chosen', mode: 4 });
            await h.settle();
            await h.settle();
            expect(notices.at(-1)?.title).toBe(FINE_MODE_UNAVAILABLE);
          },
          CHOOSE_FAST: () => h.actor.send({ type: 'mode chosen', mode: 3 }),
        },
      });
      h.actor.stop();
    });
  }
});

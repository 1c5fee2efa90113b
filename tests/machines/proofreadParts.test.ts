// A text over the plan's per-check limit: the server answers 413 `check.too_long` {max, total}, which is a choice
// (check the first part, or leave it / upgrade), never the quota dialog. A model of that choice drives the REAL live
// job machine; the fake server refuses any text over LIMIT characters and finds every '在次' it is sent.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createActor, fromCallback, setup } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { modelOptions } from './model';
import { configureApi, onQuotaExhausted } from '../../src/api/client';
import { liveProofreadJob } from '../../src/machines/live';
import { planCheck, uncheckedChars, type ProofreadContext } from '../../src/machines/proofreadJob';
import { countChars, partEnd, tooLongOf } from '../../src/machines/findings/parts';
import type { ServerMessage } from '../../openapi/socket-protocol';
import { collectNotices, freshStores } from '../api/helpers';

const LIMIT = 50;
const SENTENCE = '他在次来到北京，很高兴。'; // 12 characters, one finding
// three paragraphs of 24 characters: the first part is two of them (the third would pass 50), then the rest
const PARAGRAPHS = [SENTENCE, '她在次来到上海，很高兴。', '我在次来到广州，很高兴。'].map((s) => s.repeat(2));
const TEXT = PARAGRAPHS.join('\n');

const model = setup({
  types: {} as {
    events:
      { type: 'CHECK' } | { type: 'FIRST_PART' } | { type: 'DISMISS' } | { type: 'RESULTS' } | { type: 'CHECK_REST' };
  },
}).createMachine({
  id: 'parts',
  initial: 'idle',
  states: {
    idle: { on: { CHECK: 'tooLong' } },
    tooLong: { on: { FIRST_PART: 'firstPart', DISMISS: 'idle' } },
    firstPart: { on: { RESULTS: 'firstDone' } },
    firstDone: { on: { CHECK_REST: 'rest' } },
    rest: { on: { RESULTS: 'allDone' } },
    allDone: {},
  },
});

const quotaEvents: unknown[] = [];
const stopQuota = onQuotaExhausted((e) => quotaEvents.push(e));
afterAll(() => stopQuota());
// the worker's files share src/api's modules: no listener of a test outlives it
const stops: Array<() => void> = [];
afterEach(() => stops.splice(0).forEach((stop) => stop()));

function harness(text = TEXT) {
  freshStores();
  const { notices, unsubscribe } = collectNotices();
  stops.push(unsubscribe);
  const bodies: Array<{ text: string }> = [];
  let checks = 0;
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const fetch = async (request: Request): Promise<Response> => {
    if (new URL(request.url).pathname !== '/misscut/v1/check_text') return json(404, { code: 404, msg: '' });
    const body = (await request.clone().json()) as { text: string };
    bodies.push(body);
    const total = countChars(body.text);
    if (total > LIMIT)
      return json(413, {
        code: 413,
        msg: `单次最多校对 ${LIMIT} 字，这段文字有 ${total} 字`,
        msg_code: 'check.too_long',
        msg_params: { max: LIMIT, total },
        result: { max: LIMIT, total },
      });
    return json(200, { code: 200, msg: 'ok', result: { check_id: `c${++checks}` } });
  };
  configureApi({ baseURL: 'http://api.test', fetch });
  const logic = liveProofreadJob({}, () => 'sess-1').provide({
    actors: { 'socket messages': fromCallback(() => () => undefined) },
  });
  const actor = createActor(logic);
  actor.start();
  actor.send({ type: 'text edited', text });
  let index = 0;
  // the server's answer to what was sent last: one message per paragraph, offsets into the sent text
  const results = () => {
    const sent = bodies.at(-1)!.text.split('\n');
    let offset = 0;
    sent.forEach((paragraph, p) => {
      const issues = [];
      for (let at = paragraph.indexOf('在次'); at >= 0; at = paragraph.indexOf('在次', at + 1))
        issues.push({
          start: offset + at,
          end: offset + at + 2,
          original: '在次',
          suggestions: ['再次'],
          category: '1',
          message: '别字',
          level: 1,
        });
      const message = {
        type: 2,
        cmd: 2,
        status: 200,
        index: ++index,
        data: { check_id: `c${checks}`, paragraph: p, offset, hash: `h${p}`, done: p === sent.length - 1, issues },
      } as ServerMessage;
      actor.send({ type: 'server message', message });
      offset += paragraph.length + 1;
    });
  };
  const settle = async () => {
    for (let i = 0; i < 4; i++) await new Promise((r) => setTimeout(r, 0));
  };
  return { actor, bodies, notices, results, settle };
}

const jobOf = (h: ReturnType<typeof harness>) => (h.actor.getSnapshot().value as { job: string }).job;

function assertFindingsValid(context: ProofreadContext) {
  for (const f of context.findings) expect(context.text.slice(f.start, f.end)).toBe(f.original);
}

describe('a text over the per-check limit (model-based)', () => {
  const paths = createTestModel(model, modelOptions).getShortestPaths({ allowDuplicatePaths: true });

  for (const path of paths) {
    it(path.description, async () => {
      const h = harness();
      await path.test({
        states: {
          '*': (state) => {
            const { context } = h.actor.getSnapshot();
            assertFindingsValid(context);
            // the quota dialog never hears of it, and no error toast is shown: the choice is on the screen
            expect(quotaEvents).toEqual([]);
            expect(h.notices).toEqual([]);
            switch (state.value) {
              case 'idle':
                expect(['idle', 'done']).toContain(jobOf(h));
                expect(context.tooLong).toBeNull();
                break;
              case 'tooLong':
                expect(jobOf(h)).toBe('tooLong');
                expect(context.tooLong).toEqual({ max: LIMIT, total: 72 });
                break;
              case 'firstPart':
                expect(jobOf(h)).toBe('streaming');
                expect(h.bodies.at(-1)!.text).toBe(PARAGRAPHS.slice(0, 2).join('\n'));
                break;
              case 'firstDone':
                expect(jobOf(h)).toBe('done');
                expect(context.findings.map((f) => f.start)).toEqual([1, 13, 26, 38]);
                expect(uncheckedChars(context)).toBe(24);
                break;
              case 'rest':
                expect(jobOf(h)).toBe('streaming');
                expect(h.bodies.at(-1)!.text).toBe(PARAGRAPHS[2]);
                break;
              case 'allDone':
                expect(jobOf(h)).toBe('done');
                // findings of both parts, at their places in the whole text
                expect(context.findings.map((f) => f.start)).toEqual([1, 13, 26, 38, 51, 63]);
                expect(uncheckedChars(context)).toBe(0);
                expect(context.partLimit).toBeNull();
                break;
            }
          },
        },
        events: {
          CHECK: async () => {
            h.actor.send({ type: 'check requested' });
            await h.settle();
          },
          FIRST_PART: async () => {
            h.actor.send({ type: 'first part chosen' });
            await h.settle();
          },
          DISMISS: async () => {
            h.actor.send({ type: 'too long dismissed' });
            await h.settle();
          },
          RESULTS: async () => {
            h.results();
            await h.settle();
          },
          CHECK_REST: async () => {
            h.actor.send({ type: 'check requested' });
            await h.settle();
          },
        },
      });
    });
  }
});

describe('one paragraph longer than the limit', () => {
  it('is checked in two parts whose findings land at their places in the paragraph', async () => {
    const h = harness(SENTENCE.repeat(5));
    h.actor.send({ type: 'check requested' });
    await h.settle();
    h.actor.send({ type: 'first part chosen' });
    await h.settle();
    expect(h.bodies.at(-1)!.text).toBe(SENTENCE.repeat(4));
    h.results();
    await h.settle();
    expect(jobOf(h)).toBe('done');
    expect(h.actor.getSnapshot().context.findings.map((f) => f.start)).toEqual([1, 13, 25, 37]);
    h.actor.send({ type: 'check requested' });
    await h.settle();
    expect(h.bodies.at(-1)!.text).toBe(SENTENCE);
    h.results();
    await h.settle();
    const { context } = h.actor.getSnapshot();
    expect(context.findings.map((f) => f.start)).toEqual([1, 13, 25, 37, 49]);
    assertFindingsValid(context);
    expect(uncheckedChars(context)).toBe(0);
    expect(quotaEvents).toEqual([]);
  });
});

describe('cutting the first part', () => {
  it('cuts a paragraph longer than the limit after a sentence end, offsets staying right in the whole text', () => {
    const long = SENTENCE.repeat(5); // 60 characters in one paragraph
    const first = planCheck(long, {}, LIMIT);
    expect(first.text).toBe(SENTENCE.repeat(4));
    expect(first.segments).toEqual([expect.objectContaining({ from: 0, last: false })]);
  });

  it('never cuts inside a surrogate pair or a Latin word; white space is not counted', () => {
    const astral = '𠀀'.repeat(10);
    expect(partEnd(astral, 3)).toBe(6);
    expect(countChars(astral.slice(0, partEnd(astral, 3)))).toBe(3);
    expect(partEnd('hello world again', 12)).toBe('hello world '.length);
    expect(partEnd('a b c', 3)).toBe(5);
  });

  it('reads only a 413 with {max, total} as too long', () => {
    expect(tooLongOf({ status: 413, result: { max: 5000, total: 6800 } })).toEqual({ max: 5000, total: 6800 });
    expect(tooLongOf({ status: 402, result: { kind: 1 } })).toBeNull();
    expect(tooLongOf({ status: 413, result: null })).toBeNull();
  });
});

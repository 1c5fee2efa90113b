import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register, startTestApp, type TestApp } from './helpers';
import { http, listen, runCheck, SocketClient } from './proofread-support';
import { checkerPool } from '../../server/workers/checker/pool';
import { splitUnits } from '../../server/workers/checker/jobs';
import { countChars, setDefaultRemaining } from '../../server/domain/rights/ledger';
import { FINE_REFUSED_MSG } from '../../server/workers/checker/jobs';

// A paragraph containing this marker fails inside the worker (fault injection, read when workers start: the node
// test project sets it for every file, since the pool may already run when this file starts).
const FAULT = process.env.CHECKER_FAULT_MARKER ?? '';

let t: TestApp;
let base: string;
let token: string;
let uid: number;
let client: SocketClient;

/** A paragraph long enough (>= MIN_UNIT) to be a unit of its own. */
const long = (head: string, n: number) =>
  head + `第${n}段的补充说明：各部门按照计划推进工作，按时完成任务，并及时报告进展情况。`.repeat(5);
const TEXT = `${long('我们明天讨论这个问提。', 1)}\n\n${long('他在次来到北京,很高兴。', 2)}`;

beforeAll(async () => {
  expect(FAULT).not.toBe('');
  t = await startTestApp();
  base = await listen(t);
  await checkerPool().ready();
  token = await register(t, '13900000001');
  uid = (await http(base, 'GET', '/user/user_info', token)).json.result.uid;
  client = await SocketClient.open(base, token);
}, 60_000);
afterAll(async () => {
  await client.close();
  await t.close();
});

const wordsNum = async (tk = token) =>
  (await http(base, 'GET', '/user/check_words_num', tk)).json.result.words_num as number;

describe('check_text over real HTTP and a real socket', () => {
  it(
    'streams one result per paragraph with absolute offsets, done on the last, and ' + 'charges the characters',
    async () => {
      const before = await wordsNum();
      const run = await runCheck(base, token, client, { text: TEXT });
      expect(run.status).toBe(200);
      expect(run.checkId).toMatch(/^c_/);
      const idMessage = run.messages.find((m) => m.type === 2 && m.cmd === 3) as {
        data: { check_id: string; paragraphs: number };
      };
      expect(idMessage.data).toEqual({ check_id: run.checkId, paragraphs: 2 });
      expect(splitUnits(TEXT)).toHaveLength(2);
      expect(run.results.map((r) => r.paragraph).sort()).toEqual([0, 1]);
      expect(run.results.filter((r) => r.done)).toHaveLength(1);
      expect(run.results[run.results.length - 1].done).toBe(true);
      const issues = run.results.flatMap((r) => r.issues);
      for (const i of issues) expect(TEXT.slice(i.start, i.end)).toBe(i.original);
      expect(issues).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ original: '提', suggestions: ['题'] }),
          expect.objectContaining({ original: '在', suggestions: ['再'] }),
        ]),
      );
      expect(run.results.find((r) => r.paragraph === 1)!.offset).toBe(TEXT.indexOf('他在次'));
      expect(run.used).toBe(countChars(TEXT));
      expect(await wordsNum()).toBe(before - countChars(TEXT));
      // every indexed message was acknowledged, so nothing waits for re-sending
      client.send({ type: 1, cmd: 1 });
      await client.next();
      expect(t.app.realtime.pending(client.sessionId)).toBe(0);
    },
  );

  it('serves a re-check from the cache without charging, and charges only the changed paragraph', async () => {
    const text = `${long('这是缓存测试的第一段。', 1)}\n${long('这是缓存测试的第二段。', 2)}`;
    const first = await runCheck(base, token, client, { text });
    expect(first.used).toBe(countChars(text));
    const before = await wordsNum();
    const again = await runCheck(base, token, client, { text });
    expect(again.used).toBe(0);
    expect(await wordsNum()).toBe(before);
    const changedParagraph = long('这是改过的第二段。', 2);
    const third = await runCheck(base, token, client, {
      text: `${long('这是缓存测试的第一段。', 1)}\n${changedParagraph}`,
    });
    expect(third.used).toBe(countChars(changedParagraph));
    expect(await wordsNum()).toBe(before - countChars(changedParagraph));
  });

  it('joins short lines into one unit and streams it as one paragraph', async () => {
    const text = '标题\n\n第一行，有个问提。\r\n第二行。';
    const units = splitUnits(text);
    expect(units).toHaveLength(1);
    expect(units[0]).toMatchObject({ offset: 0, text: '标题\n\n第一行，有个问提。\r\n第二行。' });
    const run = await runCheck(base, token, client, { text });
    expect(run.results).toHaveLength(1);
    const typo = run.results[0].issues.find((i) => i.original === '提')!;
    expect(typo.start).toBe(text.indexOf('问提') + 1);
  });

  it('splits a long paragraph without newlines instead of refusing it', async () => {
    const sentence = '我们今天在会议室讨论了下一阶段的工作安排。';
    const text = sentence.repeat(100); // 2,100 characters, one paragraph
    const units = splitUnits(text);
    expect(units.length).toBeGreaterThan(1);
    const run = await runCheck(base, token, client, { text });
    expect(run.results).toHaveLength(units.length);
    for (const r of run.results) for (const i of r.issues) expect(text.slice(i.start, i.end)).toBe(i.original);
    expect(run.used).toBe(countChars(text));
  });

  it(
    'applies the personal dictionary to the very next check (wrong word, sensitive,' + ' key word, allowed word)',
    async () => {
      const text = '本公司的萍果产品由张三负责，问提不大。';
      const plain = await runCheck(base, token, client, { text });
      expect(plain.results[0].issues.some((i) => i.original === '提')).toBe(true);
      const add = (body: object) => http(base, 'POST', '/dict/v1/add_one', token, body);
      expect((await add({ word: '萍果', type: 5, correct: '苹果' })).status).toBe(200);
      expect((await add({ word: '张三', type: 4 })).status).toBe(200);
      expect((await add({ word: '产品', type: 9 })).status).toBe(200);
      expect((await add({ word: '问提', type: 1 })).status).toBe(200);
      const run = await runCheck(base, token, client, { text });
      const issues = run.results[0].issues;
      expect(issues).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ original: '萍果', suggestions: ['苹果'], type: 5 }),
          expect.objectContaining({ original: '张三', type: 4 }),
          expect.objectContaining({ original: '产品', type: 9, category: '11' }),
        ]),
      );
      // the allowed word silences every finding that overlaps it
      expect(issues.some((i) => i.start < text.indexOf('问提') + 2 && i.end > text.indexOf('问提'))).toBe(false);
      // a dictionary change is a new cache key: this check was charged again
      expect(run.used).toBe(countChars(text));
      const list = (await http(base, 'GET', '/dict/v1/get_list?type=1', token)).json.result.list;
      expect((await http(base, 'DELETE', `/dict/v1/delete_one?id=${list[0].id}`, token)).status).toBe(200);
      const after = await runCheck(base, token, client, { text });
      expect(after.results[0].issues.some((i) => i.original === '提')).toBe(true);
      await http(base, 'POST', '/dict/v1/delete_all_word', token, {});
    },
  );

  it('refuses mode 4 without the fine-proofreading right (403 with the spec message)', async () => {
    const res = await http(
      base,
      'POST',
      '/misscut/v1/check_text',
      token,
      { text: TEXT, checkMode: 4 },
      { session: client.sessionId },
    );
    expect(res.status).toBe(403);
    expect(res.json).toEqual({
      code: 403,
      msg: '该模型资源消耗较大，暂时只开放给付费用户体验。',
      msg_code: FINE_REFUSED_MSG,
      result: null,
    });
    const right = await http(base, 'GET', '/user/v1/check/user_fine_proofreading_right', token);
    expect(right.json.result).toEqual({ available: false, disposable_num: 0 });
  });

  it(
    'answers 402 with result.kind when the quota is insufficient (2) or exhausted (1); a text over the ' +
      'per-check limit is 413 check.too_long with {max, total}, whatever the balance',
    async () => {
      const other = await register(t, '13900000002');
      const otherUid = (await http(base, 'GET', '/user/user_info', other)).json.result.uid;
      const socket = await SocketClient.open(base, other);
      try {
        await setDefaultRemaining(t.app.db, otherUid, 1, 5);
        const short = await http(
          base,
          'POST',
          '/misscut/v1/check_text',
          other,
          { text: '这段文字超过五个字。' },
          { session: socket.sessionId },
        );
        expect(short.status).toBe(402);
        expect(short.json.result).toEqual({ kind: 2 });
        expect(short.json.msg).toContain('不足');
        expect(await wordsNum(other)).toBe(5);
        await setDefaultRemaining(t.app.db, otherUid, 1, 0);
        const none = await http(
          base,
          'POST',
          '/misscut/v1/check_text',
          other,
          { text: '你好' },
          { session: socket.sessionId },
        );
        expect(none.status).toBe(402);
        expect(none.json).toMatchObject({ code: 402, result: { kind: 1 } });
        expect((await http(base, 'GET', '/user/check_words_num', other)).json.result.num_desc).toBe('0字');
        await setDefaultRemaining(t.app.db, otherUid, 1, 100_000);
        const long = await http(
          base,
          'POST',
          '/misscut/v1/check_text',
          other,
          { text: '字'.repeat(5001) },
          { session: socket.sessionId },
        );
        expect(long.status).toBe(413);
        expect(long.json).toMatchObject({
          code: 413,
          msg_code: 'check.too_long',
          msg_params: { max: 5000, total: 5001 },
          result: { max: 5000, total: 5001 },
        });
        expect(long.json.result).not.toHaveProperty('kind');
        expect(await wordsNum(other)).toBe(100_000);
        // at the limit the same text is checked and charged
        const first = await http(
          base,
          'POST',
          '/misscut/v1/check_text',
          other,
          { text: '字'.repeat(5000) },
          { session: socket.sessionId },
        );
        expect(first.status).toBe(200);
      } finally {
        await socket.close();
      }
    },
  );

  it('never drives the balance below zero under concurrent checks', async () => {
    const other = await register(t, '13900000003');
    const otherUid = (await http(base, 'GET', '/user/user_info', other)).json.result.uid;
    const socket = await SocketClient.open(base, other);
    try {
      await setDefaultRemaining(t.app.db, otherUid, 1, 1000);
      // 20 different texts of 100 characters: at most 10 fit
      const texts = Array.from({ length: 20 }, (_, n) => `第${String(n).padStart(2, '0')}号` + '测'.repeat(96));
      for (const text of texts) expect(countChars(text)).toBe(100);
      const answers = await Promise.all(
        texts.map((text) =>
          http(base, 'POST', '/misscut/v1/check_text', other, { text }, { session: socket.sessionId }),
        ),
      );
      const ok = answers.filter((a) => a.status === 200).length;
      expect(answers.every((a) => a.status === 200 || a.status === 402)).toBe(true);
      expect(ok).toBe(10);
      expect(await wordsNum(other)).toBe(0);
      await socket.drain(1500);
    } finally {
      await socket.close();
    }
  });

  it('cancel stops the remaining paragraphs and refunds the characters not checked', async () => {
    const other = await register(t, '13900000004');
    const socket = await SocketClient.open(base, other);
    try {
      const before = await wordsNum(other);
      const text = Array.from(
        { length: 80 },
        (_, n) => `第${n}段：我们今天在会议室讨论了下一阶段的工作安排，大家都发表了自己的看法，会议开得很成功。`,
      ).join('\n');
      const units = splitUnits(text);
      const res = await http(base, 'POST', '/misscut/v1/check_text', other, { text }, { session: socket.sessionId });
      expect(res.status).toBe(200);
      const checkId = res.json.result.check_id;
      const cancel = await http(base, 'POST', '/misscut/v1/cancel', other, { check_id: checkId });
      expect(cancel.status).toBe(200);
      const messages = await socket.drain(1500);
      const delivered = messages
        .filter((m) => m.type === 2 && m.cmd === 2)
        .map((m) => m.data as { paragraph: number; done: boolean });
      expect(delivered.length).toBeLessThan(units.length);
      expect(delivered.some((d) => d.done)).toBe(false);
      const charged = delivered.reduce((s, d) => s + units[d.paragraph].chars, 0);
      expect(await wordsNum(other)).toBe(before - charged);
      // cancelling again is a no-op; another user's or an unknown id is 404
      expect((await http(base, 'POST', '/misscut/v1/cancel', other, { check_id: checkId })).status).toBe(200);
      expect((await http(base, 'POST', '/misscut/v1/cancel', token, { check_id: checkId })).status).toBe(404);
      expect((await http(base, 'POST', '/misscut/v1/cancel', other, { check_id: 'c_unknown' })).status).toBe(404);
    } finally {
      await socket.close();
    }
  });

  it('reports a failed paragraph on the socket, refunds it and finishes the stream', async () => {
    const before = await wordsNum();
    const failing = long(`第二段${FAULT}会失败。`, 2);
    const text = `${long('第一段没有问题。', 1)}\n${failing}\n${long('第三段也没有问题。', 3)}`;
    const run = await runCheck(base, token, client, { text });
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0][0]).toContain('第2段');
    expect(run.results).toHaveLength(3);
    expect(run.results.filter((r) => r.done)).toHaveLength(1);
    const failedChars = countChars(failing);
    expect(run.used).toBe(countChars(text) - failedChars);
    expect(await wordsNum()).toBe(before - (countChars(text) - failedChars));
    // the server is still fine
    expect((await http(base, 'GET', '/health', null)).status).toBe(200);
  });

  it('rejects bad input and unknown sessions', async () => {
    const post = (body: unknown, session = client.sessionId) =>
      http(base, 'POST', '/misscut/v2/check_text', token, body, { session });
    expect((await post({ text: '' })).status).toBe(400);
    expect((await post({ text: '   \n  ' })).status).toBe(400);
    expect((await post({ text: '你好', checkMode: 5 })).status).toBe(400);
    expect((await post({ text: '你好', lang: 'fr' })).status).toBe(400);
    expect((await post({ text: '你好' }, 'no-such-session')).status).toBe(400);
    expect(
      (await http(base, 'POST', '/misscut/v1/check_text', null, { text: '你好' }, { session: client.sessionId }))
        .status,
    ).toBe(401);
  });
});

describe('labels, functions, clicks and feedback', () => {
  it('lists category labels (simplified and traditional), levels and result types', async () => {
    const cn = (await http(base, 'GET', '/misscut/v1/get_all_mistakes_type', token)).json.result;
    expect(cn.category_description).toEqual(
      expect.arrayContaining([
        ['1', '同音', 1],
        ['8-2', '黄赌毒', 3],
      ]),
    );
    expect(cn.recommendation_level).toEqual(expect.arrayContaining([[1, null, '错误']]));
    expect(cn.result_type).toEqual(expect.arrayContaining([[5, '自定义错词']]));
    const hk = (await http(base, 'GET', '/misscut/v1/get_all_mistakes_type?st_flag=1', token)).json.result;
    expect(hk.category_description).toEqual(expect.arrayContaining([['8-2', '黃賭毒', 3]]));
  });

  it('lists the check families with their bits', async () => {
    const res = (await http(base, 'GET', '/misscut/v1/check_function/get', token)).json.result;
    expect(res.default_options).toBe(127);
    const bits = res.functions.map((f: { bit: number }) => f.bit);
    expect(bits).toEqual([1, 2, 4, 8, 16, 32, 64, 128]);
    const advanced = res.functions.find((f: { bit: number }) => f.bit === 128);
    expect(advanced).toMatchObject({ enabled: false, available: false });
    expect(res.functions.find((f: { bit: number }) => f.bit === 1).categories).toEqual(['1', '2', '5']);
  });

  it('stores clicks and finding feedback, validating them', async () => {
    expect((await http(base, 'GET', '/misscut/v1/click?click_type=1', token)).status).toBe(200);
    expect((await http(base, 'GET', '/misscut/v1/click?click_type=abc', token)).status).toBe(400);
    const ok = await http(base, 'POST', '/proofread/result/collect/receive', token, {
      action: 'false_alarm',
      original: '提',
      suggestion: '题',
      category: '1',
      context: '问提',
    });
    expect(ok.status).toBe(200);
    expect(
      (
        await http(base, 'POST', '/proofread/result/collect/receive', token, {
          action: 'love',
          original: '提',
          category: '1',
        })
      ).status,
    ).toBe(400);
    const rows = await (t.app.db as any).selectFrom('finding_feedback').selectAll().where('uid', '=', uid).execute();
    expect(rows).toEqual([
      expect.objectContaining({ action: 'false_alarm', original: '提', suggestion: '题', category: '1' }),
    ]);
    const clicks = await (t.app.db as any).selectFrom('clicks').selectAll().where('uid', '=', uid).execute();
    expect(clicks).toEqual([expect.objectContaining({ click_type: 1 })]);
  });
});

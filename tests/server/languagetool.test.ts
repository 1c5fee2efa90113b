import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveApiAccess, call, register, startTestApp, type TestApp } from './helpers';
import { checkerPool } from '../../server/workers/checker/pool';
import { countChars } from '../../server/domain/rights/ledger';
import { parseAnnotation, SENTENCE_REACH } from '../../server/routes/languagetool/index';

let t: TestApp;
let token: string;
const phone = '13900000031';
let apiKey: string;
beforeAll(async () => {
  t = await startTestApp();
  await checkerPool().ready();
  token = await register(t, phone);
  // until an operator approves the account's API application, no key
  const refused = await call(t.app, 'POST', '/user/api_key', undefined, token);
  expect([refused.status, refused.json.msg_code]).toEqual([403, 'auth.api_not_approved']);
  expect((await call(t.app, 'GET', '/user/api_key', undefined, token)).json.result).toMatchObject({
    allowed: false,
    application: null,
  });
  await approveApiAccess(t, token);
  expect((await call(t.app, 'GET', '/user/api_key', undefined, token)).json.result).toMatchObject({
    allowed: true,
    application: 'approved',
  });
  const key = await call(t.app, 'POST', '/user/api_key', undefined, token);
  expect(key.status).toBe(200);
  expect(key.json.result.username).toBe(phone);
  apiKey = key.json.result.api_key;
}, 60_000);
afterAll(async () => t.close());

async function form(url: string, fields: Record<string, string>, bearer?: string) {
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
    },
    payload: new URLSearchParams(fields).toString(),
  });
  let json: any;
  try {
    json = res.json();
  } catch {
    json = null;
  }
  return { status: res.statusCode, json, text: res.body, type: String(res.headers['content-type']) };
}

const TEXT = '我们明天讨论这个问提。他在次来到北京,很高兴。';

describe('LanguageTool-compatible API', () => {
  it("checks with a bearer token and answers in LanguageTool's shape with valid offsets", async () => {
    const res = await form('/v2/check', { text: TEXT, language: 'zh-CN' }, token);
    expect(res.status).toBe(200);
    expect(res.json.software).toMatchObject({ apiVersion: 1 });
    expect(res.json.language).toMatchObject({ code: 'zh-CN' });
    const matches = res.json.matches as any[];
    expect(matches.length).toBeGreaterThanOrEqual(3);
    for (const m of matches) {
      expect(m).toEqual(
        expect.objectContaining({
          message: expect.any(String),
          shortMessage: expect.any(String),
          replacements: expect.any(Array),
          sentence: expect.any(String),
          type: { typeName: expect.any(String) },
          rule: expect.objectContaining({
            id: expect.stringMatching(/^ZH_/),
            description: expect.any(String),
            issueType: expect.any(String),
            category: { id: expect.any(String), name: expect.any(String) },
          }),
        }),
      );
      expect(m.context.text.slice(m.context.offset, m.context.offset + m.context.length)).toBe(
        TEXT.slice(m.offset, m.offset + m.length),
      );
      expect(m.sentence).toContain(TEXT.slice(m.offset, m.offset + m.length));
    }
    const typo = matches.find((m) => TEXT.slice(m.offset, m.offset + m.length) === '提');
    expect(typo).toMatchObject({
      replacements: [{ value: '题' }],
      rule: { category: { id: 'TYPOS' }, issueType: 'misspelling' },
    });
    const punct = matches.find((m) => m.rule.category.id === 'PUNCTUATION');
    expect(TEXT.slice(punct.offset, punct.offset + punct.length)).toBe(',');
    expect(punct.sentence).toBe('他在次来到北京,很高兴。');
  });

  it('authenticates with username + apiKey (phone or login id), refuses a wrong key with plain text 401', async () => {
    const ok = await form('/v2/check', { text: TEXT, language: 'zh-CN', username: phone, apiKey });
    expect(ok.status).toBe(200);
    const bad = await form('/v2/check', { text: TEXT, language: 'zh-CN', username: phone, apiKey: 'wb_wrong' });
    expect(bad.status).toBe(401);
    expect(bad.type).toContain('text/plain');
    expect(bad.text).toMatch(/^Error/);
    const badBearer = await form('/v2/check', { text: TEXT, language: 'zh-CN' }, 'not-a-token');
    expect(badBearer.status).toBe(401);
    expect(badBearer.type).toContain('text/plain');
    const none = await form('/v2/check', { text: TEXT, language: 'zh-CN' });
    expect(none.status).toBe(401);
    expect(none.type).toContain('text/plain');
    expect((await call(t.app, 'PUT', '/user/login_id', { login_id: 'lt_user' }, token)).status).toBe(200);
    expect((await form('/v2/check', { text: TEXT, language: 'zh-CN', username: 'lt_user', apiKey })).status).toBe(200);
    const state = await call(t.app, 'GET', '/user/api_key', undefined, token);
    expect(state.json.result).toMatchObject({ exists: true, username: 'lt_user', hint: apiKey.slice(-4) });
  });

  it('a regenerated key replaces the old one', async () => {
    const again = await call(t.app, 'POST', '/user/api_key', undefined, token);
    const fresh = again.json.result.api_key as string;
    expect(fresh).not.toBe(apiKey);
    expect((await form('/v2/check', { text: '你好。', language: 'zh-CN', username: phone, apiKey })).status).toBe(401);
    apiKey = fresh;
    expect((await form('/v2/check', { text: '你好。', language: 'zh-CN', username: phone, apiKey })).status).toBe(200);
  });

  it('filters by enabled / disabled categories (names or our codes)', async () => {
    const all = (await form('/v2/check', { text: TEXT, language: 'zh-CN' }, token)).json.matches as any[];
    const noPunct = (
      await form('/v2/check', { text: TEXT, language: 'zh-CN', disabledCategories: 'PUNCTUATION' }, token)
    ).json.matches as any[];
    expect(noPunct.length).toBe(all.length - all.filter((m) => m.rule.category.id === 'PUNCTUATION').length);
    expect(noPunct.some((m) => m.rule.category.id === 'PUNCTUATION')).toBe(false);
    const byCode = (await form('/v2/check', { text: TEXT, language: 'zh-CN', disabledCategories: '10' }, token)).json
      .matches as any[];
    expect(byCode.length).toBe(noPunct.length);
    const only = (
      await form('/v2/check', { text: TEXT, language: 'zh-CN', enabledCategories: 'TYPOS', enabledOnly: 'true' }, token)
    ).json.matches as any[];
    expect(only.length).toBeGreaterThan(0);
    expect(only.every((m) => m.rule.category.id === 'TYPOS')).toBe(true);
    expect((await form('/v2/check', { text: TEXT, language: 'zh-CN', enabledOnly: 'true' }, token)).status).toBe(400);
  });

  it('reads LanguageTool annotation data with offsets into the marked-up text', async () => {
    const data = JSON.stringify({
      annotation: [{ markup: '<p>' }, { text: '我们明天讨论这个问提。' }, { markup: '</p>' }],
    });
    const res = await form('/v2/check', { data, language: 'zh-CN' }, token);
    expect(res.status).toBe(200);
    const full = '<p>我们明天讨论这个问提。</p>';
    const typo = (res.json.matches as any[]).find((m) => m.replacements[0]?.value === '题');
    expect(full.slice(typo.offset, typo.offset + typo.length)).toBe('提');
    expect((await form('/v2/check', { data: '{oops', language: 'zh-CN' }, token)).status).toBe(400);
  });

  it('checks traditional text for zh-HK and consumes right 1', async () => {
    const before = (await call(t.app, 'GET', '/user/check_words_num', undefined, token)).json.result.words_num;
    const text = '我們明天討論這個問提。';
    const res = await form('/v2/check', { text, language: 'zh-HK' }, token);
    expect(res.json.language.code).toBe('zh-HK');
    const typo = (res.json.matches as any[]).find((m) => text.slice(m.offset, m.offset + m.length) === '提');
    expect(typo.replacements[0].value).toBe('題');
    const after = (await call(t.app, 'GET', '/user/check_words_num', undefined, token)).json.result.words_num;
    expect(after).toBe(before - countChars(text));
    expect((await form('/v2/check', { text, language: 'en-US' }, token)).status).toBe(400);
    expect((await form('/v2/check', { language: 'zh-CN' }, token)).status).toBe(400);
  });

  it('finds sensitive words hidden by Unicode tricks, each match covering the whole disguise', async () => {
    // what a probe sent to /v2/check and got `matches: []` for
    const disguises = [
      '海\u034F洛因',
      '海\uFE0F洛因',
      '海\u3164洛因',
      '海\uF915因',
      '\u2F8A情服务',
      '海\u0301洛因',
      '海\u{E0100}洛因',
    ];
    for (const written of disguises) {
      const text = `他们在${written}交易中被抓。`;
      const res = await form('/v2/check', { text, language: 'zh-CN' }, token);
      expect(res.status).toBe(200);
      const hits = (res.json.matches as any[]).filter((m) => m.rule.category.id === 'SENSITIVE');
      expect(
        hits.map((m) => text.slice(m.offset, m.offset + m.length)),
        JSON.stringify(written),
      ).toEqual([written]);
    }
  });

  it("bounds each match's sentence: without sentence ends, a match does not carry the whole text", async () => {
    // what a probe sent: typos and doubled commas between long runs of spaces, and no 。！？ anywhere
    const text = ('我门，，' + ' '.repeat(76)).repeat(300);
    const res = await form('/v2/check', { text, language: 'zh-CN' }, token);
    expect(res.status).toBe(200);
    const matches = res.json.matches as any[];
    expect(matches.length).toBeGreaterThan(300);
    for (const m of matches) {
      expect(m.sentence.length).toBeLessThanOrEqual(2 * SENTENCE_REACH + m.length);
      expect(m.sentence).toContain(text.slice(m.offset, m.offset + m.length).trim());
    }
    // about a kilobyte a match, where each match carried the whole text before
    expect(res.text.length).toBeLessThan(matches.length * 1500);
  });

  it('maps offsets of annotated text with many parts to the marked-up text', () => {
    const parts = Array.from({ length: 2000 }, (_, i) => [{ text: '问提' }, { markup: `<b id="${i}">` }]).flat();
    const { text, map } = parseAnnotation(JSON.stringify({ annotation: parts }));
    expect(text.length).toBe(4000);
    const markup = (i: number) => `<b id="${i}">`.length;
    let orig = 0;
    for (let i = 0; i < 2000; i++) {
      expect(map(2 * i)).toBe(orig);
      expect(map(2 * i + 1)).toBe(orig + 1);
      orig += 2 + markup(i);
    }
  });

  it('lists languages', async () => {
    const res = await call(t.app, 'GET', '/v2/languages');
    expect(res.json).toEqual(expect.arrayContaining([{ name: 'Chinese', code: 'zh', longCode: 'zh-CN' }]));
  });

  it('adds, lists and deletes allowed words, which then silence the checker', async () => {
    const add = await form('/v2/words/add', { word: '问提', username: phone, apiKey });
    expect(add.json).toEqual({ added: true });
    expect((await form('/v2/words/add', { word: '问提', username: phone, apiKey })).json).toEqual({ added: false });
    const words = await t.app.inject({
      method: 'GET',
      url: `/v2/words?${new URLSearchParams({ username: phone, apiKey })}`,
    });
    expect(words.json()).toEqual({ words: ['问提'] });
    const dict = await call(t.app, 'GET', '/dict/v1/get_list?type=1', undefined, token);
    expect(dict.json.result.list[0]).toMatchObject({ word: '问提', type: 1 });
    const checked = (await form('/v2/check', { text: TEXT, language: 'zh-CN' }, token)).json.matches as any[];
    expect(checked.some((m) => TEXT.slice(m.offset, m.offset + m.length) === '提')).toBe(false);
    expect((await form('/v2/words/delete', { word: '问提' }, token)).json).toEqual({ deleted: true });
    expect((await form('/v2/words/delete', { word: '问提' }, token)).json).toEqual({ deleted: false });
    expect((await form('/v2/words/add', { word: '问提' })).status).toBe(401);
    expect((await form('/v2/words/add', { word: '' }, token)).status).toBe(400);
  });

  it('answers 402 in plain text when the quota is exhausted', async () => {
    const other = await register(t, '13900000032');
    const otherUid = (await call(t.app, 'GET', '/user/user_info', undefined, other)).json.result.uid;
    const { setDefaultRemaining } = await import('../../server/domain/rights/ledger');
    await setDefaultRemaining(t.app.db, otherUid, 1, 3);
    const res = await form('/v2/check', { text: TEXT, language: 'zh-CN' }, other);
    expect(res.status).toBe(402);
    expect(res.type).toContain('text/plain');
    expect((await form('/v2/check', { text: TEXT, language: 'zh-CN', level: 'picky' }, other)).status).toBe(402);
  });

  it("answers 413 in LanguageTool's words over the plugin limit (right 128), charging nothing", async () => {
    const other = await register(t, '13900000033');
    const otherUid = (await call(t.app, 'GET', '/user/user_info', undefined, other)).json.result.uid;
    const { rightBalance, setDefaultRemaining } = await import('../../server/domain/rights/ledger');
    await setDefaultRemaining(t.app.db, otherUid, 128, 10);
    const res = await form('/v2/check', { text: TEXT, language: 'zh-CN' }, other);
    expect(res.status).toBe(413);
    expect(res.type).toContain('text/plain');
    expect(res.text).toMatch(/^Error: Your text exceeds the limit of 10 characters \(it's \d+ characters\)\./);
    expect(await rightBalance(t.app.db, otherUid, 1)).toBe(20_000);
  });
});

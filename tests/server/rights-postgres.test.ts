import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, PG_BIN } from './pg-cluster';
import { approveApiAccess, call, register, startTestApp, type TestApp } from './helpers';
import { checkerPool } from '../../server/workers/checker/pool';
import { addGrant, consumeRight, rightBalance } from '../../server/domain/rights/ledger';

// The rights, dictionary and LanguageTool calls on PostgreSQL.
describe.skipIf(!PG_BIN)('rights, dictionary and /v2 on PostgreSQL', () => {
  const cluster = new Cluster();
  let t: TestApp;
  let token: string;
  let uid: number;
  beforeAll(async () => {
    const url = await cluster.start();
    t = await startTestApp({ databaseUrl: url });
    await checkerPool().ready();
    token = await register(t, '13900000041');
    uid = (await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result.uid;
  }, 90_000);
  afterAll(async () => {
    await t?.close();
    await cluster.stop();
  });

  it('gives the defaults and never overspends under concurrency', async () => {
    expect((await call(t.app, 'GET', '/user/check_words_num', undefined, token)).json.result).toEqual({
      words_num: 20000,
      max_text: 5000,
      num_desc: '20000字',
    });
    await consumeRight(t.app.db, uid, 1, 19_000, 'setup');
    const attempts = await Promise.allSettled(
      Array.from({ length: 30 }, () => consumeRight(t.app.db, uid, 1, 70, 'race')),
    );
    const won = attempts.filter((a) => a.status === 'fulfilled').length;
    expect(won).toBe(Math.floor(1000 / 70));
    expect(await rightBalance(t.app.db, uid, 1)).toBe(1000 - won * 70);
  });

  it('runs the dictionary calls', async () => {
    const added = await call(t.app, 'POST', '/dict/v1/add_one', { word: '萍果', type: 5, correct: '苹果' }, token);
    expect(added.status).toBe(200);
    expect(
      (await call(t.app, 'POST', '/dict/v1/add_one', { word: '萍果', type: 5, correct: '苹果' }, token)).status,
    ).toBe(409);
    const list = await call(t.app, 'GET', `/dict/v1/get_list?keyword=${encodeURIComponent('萍')}`, undefined, token);
    expect(list.json.result).toMatchObject({ total: 1, list: [{ word: '萍果', type: 5, correct: '苹果' }] });
    expect(
      (await call(t.app, 'POST', '/dict/v1/delete_many', { ids: [added.json.result.id] }, token)).json.result,
    ).toEqual({ count: 1 });
  });

  it('checks through /v2/check with an API key and manages allowed words', async () => {
    expect(await addGrant(t.app.db, uid, 1, 1000, 'test:more')).toBe(true);
    await approveApiAccess(t, token);
    const key = (await call(t.app, 'POST', '/user/api_key', undefined, token)).json.result;
    const form = (url: string, fields: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ ...fields, username: key.username, apiKey: key.api_key }).toString(),
      });
    const text = '我们明天讨论这个问提。';
    const res = await form('/v2/check', { text, language: 'zh-CN' });
    expect(res.statusCode).toBe(200);
    expect(
      res
        .json()
        .matches.some((m: { offset: number; length: number }) => text.slice(m.offset, m.offset + m.length) === '提'),
    ).toBe(true);
    expect((await form('/v2/words/add', { word: '问提' })).json()).toEqual({ added: true });
    const again = await form('/v2/check', { text, language: 'zh-CN' });
    expect(again.json().matches).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, call, login, register, startTestApp, type TestApp } from './helpers';
import {
  addGrant,
  consumeRight,
  InsufficientRight,
  refundRight,
  rightBalance,
} from '../../server/domain/rights/ledger';

let t: TestApp;
let token: string;
let uid: number;
beforeAll(async () => {
  t = await startTestApp();
  token = await register(t, '13900000021');
  uid = (await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result.uid;
});
afterAll(async () => t.close());

describe('rights', () => {
  it('grants the defaults at registration', async () => {
    const fresh = await register(t, '13900000023');
    const freshUid = (await call(t.app, 'GET', '/user/user_info', undefined, fresh)).json.result.uid;
    const rows = await t.app.db
      .selectFrom('right_grants')
      .select(['user_right_type', 'remaining'])
      .where('uid', '=', freshUid)
      .orderBy('user_right_type')
      .execute();
    expect(rows.map((r) => [Number(r.user_right_type), Number(r.remaining)])).toEqual([
      [1, 20000],
      [2, 10],
      [4, 5],
      [8, 5],
      [32, 5000],
      [64, 20000],
      [128, 5000],
      [256, 20],
      [512, 2000],
      [1024, 10],
      [2048, 10],
      [4096, 5],
    ]);
  });

  it('gives new free users the documented defaults', async () => {
    const words = await call(t.app, 'GET', '/user/check_words_num', undefined, token);
    expect(words.json.result).toEqual({ words_num: 20000, max_text: 5000, num_desc: '20000字' });
    const one = await call(t.app, 'GET', '/user/v1/get_user_right?user_right_type=1', undefined, token);
    expect(one.json.result).toMatchObject({
      user_right_type: 1,
      title: '高速校对字数',
      disposable_num: 20000,
      num_desc: '20000字',
    });
    const fine = await call(t.app, 'GET', '/user/v1/get_user_right?user_right_type=8192', undefined, token);
    expect(fine.json.result).toMatchObject({ disposable_num: 0, num_desc: '0字' });
    expect((await call(t.app, 'GET', '/user/v1/get_user_right?user_right_type=3', undefined, token)).status).toBe(400);
    expect((await call(t.app, 'GET', '/user/v1/get_user_right', undefined, token)).status).toBe(400);
    const detail = await call(t.app, 'GET', '/user/v1/get_user_right_detail', undefined, token);
    expect(detail.json.result.role).toBe('free');
    expect(detail.json.result.rights).toHaveLength(17);
    expect(detail.json.result.rights.find((r: { user_right_type: number }) => r.user_right_type === 32)).toMatchObject({
      disposable_num: 5000,
    });
  });

  it('gives the root account large rights, including fine proofreading', async () => {
    const root = await login(t.app, ADMIN.phone, ADMIN.password);
    const fine = await call(t.app, 'GET', '/user/v1/check/user_fine_proofreading_right', undefined, root);
    expect(fine.json.result.available).toBe(true);
    const words = await call(t.app, 'GET', '/user/check_words_num', undefined, root);
    expect(words.json.result.words_num).toBeGreaterThanOrEqual(1_000_000_000);
    expect(words.json.result.num_desc).toBe('不限');
  });

  it('reads an unlimited right as unlimited after some of it is used, every right of an operator', async () => {
    const root = await login(t.app, ADMIN.phone, ADMIN.password);
    const rootUid = (await call(t.app, 'GET', '/user/user_info', undefined, root)).json.result.uid;
    await consumeRight(t.app.db, rootUid, 1, 296, 'test');
    const one = await call(t.app, 'GET', '/user/v1/get_user_right?user_right_type=1', undefined, root);
    expect(one.json.result).toMatchObject({ disposable_num: 1_000_000_000, num_desc: '不限' });
    const words = await call(t.app, 'GET', '/user/check_words_num', undefined, root);
    expect(words.json.result).toMatchObject({ words_num: 1_000_000_000, num_desc: '不限' });
    const detail = (await call(t.app, 'GET', '/user/v1/get_user_right_detail', undefined, root)).json.result;
    const publication = detail.rights.find((r: { user_right_type: number }) => r.user_right_type === 65536);
    expect(publication).toMatchObject({ disposable_num: 1_000_000_000, num_desc: '不限' });
  });

  it('consumes atomically across grants, expiring grants first, records it, and refunds', async () => {
    const soon = new Date(Date.now() + 3600_000).toISOString();
    expect(await addGrant(t.app.db, uid, 1, 100, 'test:soon', soon)).toBe(true);
    expect(await addGrant(t.app.db, uid, 1, 100, 'test:soon', soon)).toBe(false);
    expect(await addGrant(t.app.db, uid, 1, 50, 'test:past', new Date(Date.now() - 1000).toISOString())).toBe(true);
    expect(await rightBalance(t.app.db, uid, 1)).toBe(20100);
    const used = await consumeRight(t.app.db, uid, 1, 150, 'test');
    expect(used.parts[0]).toMatchObject({ amount: 100 });
    const grants = await t.app.db
      .selectFrom('right_grants')
      .selectAll()
      .where('uid', '=', uid)
      .where('source', '=', 'test:soon')
      .executeTakeFirstOrThrow();
    expect(Number(grants.remaining)).toBe(0);
    expect(await rightBalance(t.app.db, uid, 1)).toBe(19950);
    await expect(consumeRight(t.app.db, uid, 1, 19951, 'too much')).rejects.toBeInstanceOf(InsufficientRight);
    expect(await rightBalance(t.app.db, uid, 1)).toBe(19950);
    expect(await refundRight(t.app.db, used, 30, 'refund')).toBe(30);
    expect(await rightBalance(t.app.db, uid, 1)).toBe(19980);
    const records = await t.app.db
      .selectFrom('right_records')
      .select(['num', 'reason'])
      .where('uid', '=', uid)
      .orderBy('id')
      .execute();
    expect(records.map((r) => Number(r.num))).toEqual([20000, 10, 5, 5, 20, 2000, 10, 10, 5, 100, 50, -150, 30]);
  });

  it('never goes below zero with many concurrent consumers', async () => {
    const other = await register(t, '13900000022');
    const otherUid = (await call(t.app, 'GET', '/user/user_info', undefined, other)).json.result.uid;
    await consumeRight(t.app.db, otherUid, 1, 19_000, 'setup');
    const attempts = await Promise.allSettled(
      Array.from({ length: 40 }, () => consumeRight(t.app.db, otherUid, 1, 70, 'race')),
    );
    const won = attempts.filter((a) => a.status === 'fulfilled').length;
    expect(won).toBe(Math.floor(1000 / 70));
    expect(await rightBalance(t.app.db, otherUid, 1)).toBe(1000 - won * 70);
  });

  it('needs a token', async () => {
    expect((await call(t.app, 'GET', '/user/check_words_num')).status).toBe(401);
    expect((await call(t.app, 'GET', '/user/v1/get_user_right_detail')).status).toBe(401);
  });
});

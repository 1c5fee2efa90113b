import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, PG_BIN } from './pg-cluster';
import { CLIENT_HEADERS, call, lastSmsCode, register, startTestApp, type TestApp } from './helpers';
import { createCoupons } from '../../server/domain/commerce/coupons';
import { recordDownload } from '../../server/domain/accounts/downloads';
import { recordShare, SHARE_BONUS } from '../../server/domain/commerce/sharing';
import { rightBalance } from '../../server/domain/rights/ledger';

// Redemption codes, sharing rewards and the download center on PostgreSQL, where transactions really overlap.
describe.skipIf(!PG_BIN)('coupons, sharing and downloads on PostgreSQL', () => {
  const cluster = new Cluster();
  let t: TestApp;
  const accounts: Array<{ token: string; uid: number }> = [];
  beforeAll(async () => {
    const url = await cluster.start();
    t = await startTestApp({ databaseUrl: url });
    for (let i = 0; i < 6; i++) {
      const token = await register(t, `1390000080${i}`);
      accounts.push({ token, uid: (await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result.uid });
    }
  }, 90_000);
  afterAll(async () => {
    await t?.close();
    await cluster.stop();
  });

  const use = (code: string, token: string) =>
    t.app.inject({
      method: 'POST',
      url: '/user/right_coupon_code/v1/use',
      headers: { ...CLIENT_HEADERS, authorization: `Bearer ${token}` },
      payload: { code },
    });

  it('simultaneous uses of one code: exactly one wins', async () => {
    for (let round = 0; round < 3; round++) {
      const { codes } = await createCoupons(t.app.db, { rightType: 1, amount: 999, count: 1 });
      const before = await Promise.all(accounts.map((a) => rightBalance(t.app.db, a.uid, 1)));
      const results = await Promise.all(accounts.map((a) => use(codes[0], a.token)));
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
      const after = await Promise.all(accounts.map((a) => rightBalance(t.app.db, a.uid, 1)));
      const gains = after.map((b, i) => b - before[i]);
      expect(gains.filter((g) => g === 999)).toHaveLength(1);
      expect(gains.filter((g) => g === 0)).toHaveLength(5);
      expect(gains[results.findIndex((r) => r.statusCode === 200)]).toBe(999);
    }
  });

  it('simultaneous shares reward once a day', async () => {
    const { uid } = accounts[0];
    const before = await rightBalance(t.app.db, uid, 1);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => recordShare(t.app.db, uid, 'link', null).catch((e: Error) => e)),
    );
    expect(results.filter((r) => !(r instanceof Error) && r.reward_num === SHARE_BONUS)).toHaveLength(1);
    expect(await rightBalance(t.app.db, uid, 1)).toBe(before + SHARE_BONUS);
  });

  it('stores, lists and serves downloads to their owner only', async () => {
    const row = await recordDownload(t.app.db, t.dataDir, accounts[1].uid, {
      name: '导出.txt',
      mime: 'text/plain; charset=utf-8',
      data: '内容',
    });
    expect((await call(t.app, 'GET', '/user/download/page', undefined, accounts[1].token)).json.result.list).toEqual([
      row,
    ]);
    expect(
      (await call(t.app, 'GET', `/user/download/file?id=${row.id}`, undefined, accounts[1].token)).res.payload,
    ).toBe('内容');
    expect((await call(t.app, 'GET', `/user/download/file?id=${row.id}`, undefined, accounts[2].token)).status).toBe(
      404,
    );
  });
  it('parallel guesses at an SMS code: five are compared, the rest refused unchecked', async () => {
    const phone = '13900000899';
    const sent = await call(t.app, 'POST', '/user/sms_code', { phone, purpose: 'register' });
    expect(sent.status).toBe(200);
    const right = lastSmsCode(t.dataDir, phone, 'register');
    const guesses = Array.from({ length: 40 }, (_, i) => String((Number(right) + 1 + i) % 1_000_000).padStart(6, '0'));
    const answers = await Promise.all(
      guesses.map((code) => call(t.app, 'POST', '/user/register', { phone, code, password: 'rightpass1' })),
    );
    const codes = answers.map((a) => a.json.msg_code);
    expect(codes.filter((c) => c === 'sms.wrong')).toHaveLength(5);
    expect(codes.filter((c) => c === 'sms.too_many_wrong')).toHaveLength(35);
    // and the right code is burnt with them
    const late = await call(t.app, 'POST', '/user/register', { phone, code: right, password: 'rightpass1' });
    expect(late.json.msg_code).toBe('sms.too_many_wrong');
  });
});

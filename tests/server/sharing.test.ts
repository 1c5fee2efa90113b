import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, register, startTestApp, type TestApp } from './helpers';
import { recordShare, SHARE_BONUS, sharePeriod } from '../../server/domain/commerce/sharing';
import { rightBalance } from '../../server/domain/rights/ledger';

let t: TestApp;
let token: string;
let uid: number;
beforeAll(async () => {
  t = await startTestApp();
  token = await register(t, '13900000701');
  uid = (await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result.uid;
});
afterAll(async () => t.close());

describe("'free speed-up' sharing", () => {
  it('reads the period as the calendar day in China Standard Time', () => {
    expect(sharePeriod(new Date('2026-11-23T15:59:59Z'))).toBe('2026-11-23');
    expect(sharePeriod(new Date('2026-11-23T16:00:00Z'))).toBe('2026-11-24');
  });

  it("shows the rule and today's state before sharing", async () => {
    const info = await call(t.app, 'GET', '/user/sharing_info', undefined, token);
    expect(info.json.result).toEqual({ shared_count: 0, rewarded_today: false, bonus: 5000, bonus_days: 30 });
  });

  it('grants the bonus for the first share of the day only, and records every share', async () => {
    const before = await rightBalance(t.app.db, uid, 1);
    const first = await call(
      t.app,
      'POST',
      '/user/add_sharing_info',
      { channel: 'wechat', share_url: 'https://example.com/workbench/' },
      token,
    );
    expect(first.json).toEqual({
      code: 200,
      msg: '分享成功，加速字数已到账',
      result: { shared_count: 1, reward_num: SHARE_BONUS },
    });
    expect(await rightBalance(t.app.db, uid, 1)).toBe(before + SHARE_BONUS);
    const second = await call(t.app, 'POST', '/user/add_sharing_info', { channel: 'weibo' }, token);
    expect(second.json).toEqual({ code: 200, msg: '分享成功', result: { shared_count: 2, reward_num: 0 } });
    expect(await rightBalance(t.app.db, uid, 1)).toBe(before + SHARE_BONUS);
    expect((await call(t.app, 'GET', '/user/sharing_info', undefined, token)).json.result).toMatchObject({
      shared_count: 2,
      rewarded_today: true,
    });
    const grant = await t.app.db
      .selectFrom('right_grants')
      .selectAll()
      .where('uid', '=', uid)
      .where('source', '=', `share:${sharePeriod()}`)
      .executeTakeFirstOrThrow();
    const days = (Date.parse(grant.expires_at!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.99);
    expect(days).toBeLessThanOrEqual(30);
  });

  it('rewards again the next day, and simultaneous shares reward once', async () => {
    const before = await rightBalance(t.app.db, uid, 1);
    const tomorrow = new Date(Date.now() + 86_400_000);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => recordShare(t.app.db, uid, 'qq', null, tomorrow)),
    );
    expect(results.filter((r) => r.reward_num === SHARE_BONUS)).toHaveLength(1);
    expect(await rightBalance(t.app.db, uid, 1)).toBe(before + SHARE_BONUS);
  });

  it('rejects bad input and anonymous callers; another user starts from zero', async () => {
    expect((await call(t.app, 'POST', '/user/add_sharing_info', { channel: 'myspace' }, token)).status).toBe(400);
    expect((await call(t.app, 'POST', '/user/add_sharing_info', {}, token)).status).toBe(400);
    expect(
      (await call(t.app, 'POST', '/user/add_sharing_info', { channel: 'link', share_url: 'x'.repeat(2049) }, token))
        .status,
    ).toBe(400);
    expect((await call(t.app, 'POST', '/user/add_sharing_info', { channel: 'link' })).status).toBe(401);
    expect((await call(t.app, 'GET', '/user/sharing_info')).status).toBe(401);
    const other = await register(t, '13900000702');
    expect((await call(t.app, 'GET', '/user/sharing_info', undefined, other)).json.result).toMatchObject({
      shared_count: 0,
      rewarded_today: false,
    });
  });

  it('limits share records to 30 per hour per account', async () => {
    const spammer = await register(t, '13900000703');
    for (let i = 0; i < 30; i++)
      expect((await call(t.app, 'POST', '/user/add_sharing_info', { channel: 'link' }, spammer)).status).toBe(200);
    expect((await call(t.app, 'POST', '/user/add_sharing_info', { channel: 'link' }, spammer)).status).toBe(429);
  });
});

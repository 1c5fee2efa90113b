import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_HEADERS, call, register, startTestApp, type TestApp } from './helpers';
import { runAdmin } from '../../server/cli/admin';
import { openDatabase } from '../../server/db';
import { createCoupons, normaliseCode } from '../../server/domain/commerce/coupons';
import { rightBalance } from '../../server/domain/rights/ledger';

let t: TestApp;
const users: Record<string, { token: string; uid: number }> = {};
let nextPhone = 13900000600;

async function newUser(app: TestApp = t) {
  const token = await register(app, String(nextPhone++));
  const uid = (await call(app.app, 'GET', '/user/user_info', undefined, token)).json.result.uid as number;
  return { token, uid };
}

async function admin(...args: string[]) {
  const out: string[] = [];
  await runAdmin(args, t.app.db, (line) => out.push(line));
  return out;
}

const use = (app: FastifyInstance, code: unknown, token?: string, remoteAddress = '127.0.0.1') =>
  app
    .inject({
      method: 'POST',
      url: '/user/right_coupon_code/v1/use',
      remoteAddress,
      headers: { ...CLIENT_HEADERS, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      payload: code === undefined ? {} : { code },
    })
    .then((res) => ({ status: res.statusCode, json: res.json() }));

beforeAll(async () => {
  t = await startTestApp();
  for (const name of ['alice', 'bob', 'carol']) users[name] = await newUser();
});
afterAll(async () => t.close());

describe('admin CLI: coupon create', () => {
  it('prints K unguessable codes, one a line, stored hashed', async () => {
    const codes = await admin('coupon', 'create', '--right-type', '1', '--amount', '3000', '--count', '5');
    expect(codes).toHaveLength(5);
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    expect(new Set(codes).size).toBe(5);
    const rows = await t.app.db.selectFrom('coupon_codes').selectAll().execute();
    const stored = JSON.stringify(rows);
    for (const code of codes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(normaliseCode(code));
    }
    expect(rows.map((r) => r.hint).sort()).toEqual(codes.map((c) => c.slice(-4)).sort());
    const list = await admin('coupon', 'list');
    expect(list[0].split('\t')).toEqual([
      'id',
      'batch',
      'code',
      'right_type',
      'amount',
      'valid_days',
      'expires_at',
      'used_by',
      'used_at',
    ]);
    expect(list).toHaveLength(6);
  });

  it('refuses bad options with a usage message', async () => {
    await expect(admin('coupon', 'create', '--right-type', '3', '--amount', '1', '--count', '1')).rejects.toThrow(
      /--right-type must be one of/,
    );
    await expect(admin('coupon', 'create', '--right-type', '1', '--count', '1')).rejects.toThrow(
      /--amount is required/,
    );
    await expect(admin('coupon', 'create', '--right-type', '1', '--amount=-5', '--count', '1')).rejects.toThrow(
      /--amount must be a whole number/,
    );
    await expect(admin('coupon', 'create', '--right-type', '1', '--amount', '1.5', '--count', '1')).rejects.toThrow(
      /--amount must be a whole number/,
    );
    await expect(admin('coupon', 'create', '--right-type', '1', '--amount', '0', '--count', '1')).rejects.toThrow(
      /amount must be an integer from 1/,
    );
    await expect(admin('coupon', 'create', '--right-type', '1', '--amount', '5', '--count', '10001')).rejects.toThrow(
      /count must be an integer from 1 to 10000/,
    );
    await expect(
      admin('coupon', 'create', '--right-type', '1', '--amount', '5', '--count', '1', '--expires', '2001-01-01'),
    ).rejects.toThrow(/--expires must be in the future/);
    await expect(
      admin('coupon', 'create', '--right-type', '1', '--amount', '5', '--count', '1', '--expires', '2030-02-30'),
    ).rejects.toThrow(/--expires must be YYYY-MM-DD/);
    await expect(
      admin('coupon', 'create', '--right-type', '1', '--amount', '5', '--count', '1', '--expires', 'soon'),
    ).rejects.toThrow(/--expires must be YYYY-MM-DD/);
  });

  it('reads --expires as the end of that day in China Standard Time', async () => {
    const [code] = await admin(
      'coupon',
      'create',
      '--right-type',
      '4096',
      '--amount',
      '2',
      '--count',
      '1',
      '--expires',
      '2099-12-31',
    );
    const row = await t.app.db
      .selectFrom('coupon_codes')
      .select('expires_at')
      .where('hint', '=', code.slice(-4))
      .executeTakeFirstOrThrow();
    expect(row.expires_at).toBe('2099-12-31T15:59:59.999Z');
  });

  it("works against the server's DATA_DIR through a database connection of its own", async () => {
    // (the CLI's entry point in a process of its own is run by admin-cli.test.ts)
    const { db } = openDatabase({ dataDir: t.dataDir });
    const codes: string[] = [];
    try {
      await runAdmin(['coupon', 'create', '--right-type', '1', '--amount', '777', '--count', '2'], db, (line) =>
        codes.push(line),
      );
    } finally {
      await db.destroy();
    }
    expect(codes).toHaveLength(2);
    const { token, uid } = await newUser();
    const before = await rightBalance(t.app.db, uid, 1);
    const res = await use(t.app, codes[1], token);
    expect(res.status).toBe(200);
    expect(await rightBalance(t.app.db, uid, 1)).toBe(before + 777);
  }, 30_000);
});

describe('POST /user/right_coupon_code/v1/use', () => {
  it("grants the code's right, visible in get_user_right, and says what was granted", async () => {
    const { codes } = await createCoupons(t.app.db, { rightType: 1, amount: 5000, count: 1 });
    const { token, uid } = users.alice;
    const before = (await call(t.app, 'GET', '/user/v1/get_user_right?user_right_type=1', undefined, token)).json.result
      .disposable_num;
    const res = await use(t.app, codes[0], token);
    expect(res).toEqual({
      status: 200,
      json: {
        code: 200,
        msg: '兑换成功',
        result: { granted: [{ user_right_type: 1, title: '高速校对字数', num: 5000, num_desc: '5000字' }] },
      },
    });
    const after = (await call(t.app, 'GET', '/user/v1/get_user_right?user_right_type=1', undefined, token)).json.result
      .disposable_num;
    expect(after).toBe(before + 5000);
    const row = await t.app.db
      .selectFrom('coupon_codes')
      .selectAll()
      .where('hint', '=', codes[0].slice(-4))
      .executeTakeFirstOrThrow();
    expect(Number(row.used_by)).toBe(uid);
    expect(row.used_at).not.toBeNull();
  });

  it('accepts the code in lower case, without dashes, with O for 0 and I/L for 1', async () => {
    const { codes } = await createCoupons(t.app.db, { rightType: 8192, amount: 1000, count: 1 });
    const sloppy = codes[0].replace(/-/g, '').toLowerCase().replace(/0/g, 'o').replace(/1/g, 'l');
    const res = await use(t.app, sloppy, users.bob.token);
    expect(res.status).toBe(200);
    expect(await rightBalance(t.app.db, users.bob.uid, 8192)).toBe(1000);
  });

  it('refuses a used code, for the same user and for everyone else, without granting again', async () => {
    const { codes } = await createCoupons(t.app.db, { rightType: 1, amount: 100, count: 1 });
    expect((await use(t.app, codes[0], users.carol.token)).status).toBe(200);
    const balance = await rightBalance(t.app.db, users.carol.uid, 1);
    expect(await use(t.app, codes[0], users.carol.token)).toEqual({
      status: 409,
      json: { code: 409, msg: '您已兑换过该兑换码', msg_code: 'coupon.used_by_you', result: null },
    });
    expect(await use(t.app, codes[0], users.alice.token)).toEqual({
      status: 409,
      json: { code: 409, msg: '该兑换码已被使用', msg_code: 'coupon.used', result: null },
    });
    expect(await rightBalance(t.app.db, users.carol.uid, 1)).toBe(balance);
  });

  it('refuses unknown and expired codes with clear messages', async () => {
    expect(await use(t.app, 'AAAA-BBBB-CCCC-DDDD', users.alice.token)).toEqual({
      status: 404,
      json: { code: 404, msg: '兑换码不存在，请检查后重新输入', msg_code: 'coupon.unknown', result: null },
    });
    const { codes } = await createCoupons(t.app.db, {
      rightType: 1,
      amount: 100,
      count: 1,
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    await t.app.db
      .updateTable('coupon_codes')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('hint', '=', codes[0].slice(-4))
      .execute();
    const before = await rightBalance(t.app.db, users.alice.uid, 1);
    expect(await use(t.app, codes[0], users.alice.token)).toEqual({
      status: 409,
      json: { code: 409, msg: '该兑换码已过期', msg_code: 'coupon.expired', result: null },
    });
    expect(await rightBalance(t.app.db, users.alice.uid, 1)).toBe(before);
    const row = await t.app.db
      .selectFrom('coupon_codes')
      .select('used_at')
      .where('hint', '=', codes[0].slice(-4))
      .executeTakeFirstOrThrow();
    expect(row.used_at).toBeNull();
  });

  it('gives time-limited rights when the code says so', async () => {
    const { codes } = await createCoupons(t.app.db, { rightType: 16, amount: 3, count: 1, validDays: 10 });
    const { token } = await newUser();
    expect((await use(t.app, codes[0], token)).status).toBe(200);
    const right = (await call(t.app, 'GET', '/user/v1/get_user_right?user_right_type=16', undefined, token)).json
      .result;
    expect(right.disposable_num).toBe(3);
    const days = (Date.parse(right.expire_time) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(9.99);
    expect(days).toBeLessThanOrEqual(10);
  });

  it('rejects bad input and anonymous callers', async () => {
    const { token } = users.alice;
    expect((await use(t.app, undefined, token)).status).toBe(400);
    expect((await use(t.app, 12345678, token)).status).toBe(400);
    expect((await use(t.app, 'abc', token)).status).toBe(400);
    expect((await use(t.app, 'AAAA BBBB', token)).status).toBe(400);
    expect((await use(t.app, 'A'.repeat(65), token)).status).toBe(400);
    expect((await use(t.app, "x' OR 1=1 --", token)).status).toBe(400);
    // Unknown properties are dropped by validation: nobody redeems for another account by naming its uid.
    const { codes } = await createCoupons(t.app.db, { rightType: 1, amount: 10, count: 1 });
    const victim = users.bob.uid;
    const victimBefore = await rightBalance(t.app.db, victim, 1);
    const extra = await call(t.app, 'POST', '/user/right_coupon_code/v1/use', { code: codes[0], uid: victim }, token);
    expect(extra.status).toBe(200);
    expect(await rightBalance(t.app.db, victim, 1)).toBe(victimBefore);
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/user/right_coupon_code/v1/use',
      headers: { ...CLIENT_HEADERS, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: '{"code":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 400, result: null });
    expect((await use(t.app, 'AAAA-BBBB-CCCC-DDDD')).status).toBe(401);
  });

  it('two simultaneous uses of one code: exactly one wins, the other gets nothing', async () => {
    for (let round = 0; round < 5; round++) {
      const { codes } = await createCoupons(t.app.db, { rightType: 1, amount: 1234, count: 1 });
      const a = await newUser();
      const b = await newUser();
      const [balanceA, balanceB] = [await rightBalance(t.app.db, a.uid, 1), await rightBalance(t.app.db, b.uid, 1)];
      const results = await Promise.all([use(t.app, codes[0], a.token), use(t.app, codes[0], b.token)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const gained = [
        (await rightBalance(t.app.db, a.uid, 1)) - balanceA,
        (await rightBalance(t.app.db, b.uid, 1)) - balanceB,
      ];
      expect([...gained].sort()).toEqual([0, 1234]);
      expect(gained[results[0].status === 200 ? 0 : 1]).toBe(1234);
    }
  }, 30_000);
});

describe('redemption rate limits', () => {
  let r: TestApp;
  beforeAll(async () => {
    r = await startTestApp();
  });
  afterAll(async () => r.close());

  it('limits attempts per account (10 per 10 minutes), whatever the address', async () => {
    const { token } = await newUser(r);
    for (let i = 0; i < 10; i++)
      expect((await use(r.app, `AAAA-BBBB-CCCC-${1000 + i}`, token, `10.0.1.${i}`)).status).toBe(404);
    const limited = await use(r.app, 'AAAA-BBBB-CCCC-2000', token, '10.0.1.99');
    expect(limited).toEqual({
      status: 429,
      json: { code: 429, msg: '请求过于频繁，请稍后再试', msg_code: 'rate.too_many', result: null },
    });
  });

  it(
    'limits attempts per client address (30 per 10 minutes), whatever the account; ' +
      'a valid code is not spent by a refused attempt',
    async () => {
      const { codes } = await createCoupons(r.app.db, { rightType: 1, amount: 10, count: 1 });
      for (let u = 0; u < 3; u++) {
        const { token } = await newUser(r);
        for (let i = 0; i < 10; i++)
          expect((await use(r.app, `ZZZZ-ZZZZ-ZZZZ-${u}${i}00`, token, '10.0.2.1')).status).toBe(404);
      }
      const fresh = await newUser(r);
      expect((await use(r.app, codes[0], fresh.token, '10.0.2.1')).status).toBe(429);
      const row = await r.app.db.selectFrom('coupon_codes').select('used_at').executeTakeFirstOrThrow();
      expect(row.used_at).toBeNull();
      expect((await use(r.app, codes[0], fresh.token, '10.0.2.2')).status).toBe(200);
    },
  );
});

// Rights history, products, orders and WeChat Pay Native over the real server and SQLite.
// The WeChat Pay gateway is faked behind the provider's transport (tests/server/wechatpay-fake.ts); signing,
// verification and decryption are the real ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, register, startTestApp, type TestApp } from './helpers';
import { fakeGateway } from './wechatpay-fake';
import { SEED_PRODUCTS } from '../../server/db/seed-products';
import { markOrderPaid } from '../../server/domain/commerce/orders';
import { consumeRight, rightBalance } from '../../server/domain/rights/ledger';

const gw = fakeGateway();
let paid: TestApp; // WeChat Pay configured (fake gateway)
let plain: TestApp; // payment not configured
let alice: string;
let bob: string;
let aliceUid: number;

const uidOf = async (t: TestApp, token: string) =>
  (await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result.uid as number;
const productId = async (t: TestApp, token: string, code: string) =>
  (
    (await call(t.app, 'GET', '/user/right_product/get_list', undefined, token)).json.result as Array<{
      id: number;
      code: string;
    }>
  ).find((p) => p.code === code)!.id;

async function notify(t: TestApp, n: { headers: Record<string, string>; body: string }) {
  const res = await t.app.inject({ method: 'POST', url: '/pay/wx/notify', headers: n.headers, payload: n.body });
  return { status: res.statusCode, body: res.body };
}

beforeAll(async () => {
  paid = await startTestApp({ payment: gw.provider });
  plain = await startTestApp({ payment: null });
  alice = await register(paid, '13900000031');
  bob = await register(paid, '13900000032');
  aliceUid = await uidOf(paid, alice);
});
afterAll(async () => {
  await paid.close();
  await plain.close();
});

describe('rights views and records', () => {
  it('get_user_right and get_user_right_detail give disposable_num, title and num_desc', async () => {
    const one = await call(paid.app, 'GET', '/user/v1/get_user_right?user_right_type=4096', undefined, alice);
    expect(one.json.result).toMatchObject({
      user_right_type: 4096,
      title: '文档比对次数',
      disposable_num: 5,
      num_desc: '5次',
      expire_time: null,
    });
    const detail = (await call(paid.app, 'GET', '/user/v1/get_user_right_detail', undefined, alice)).json.result;
    for (const r of detail.rights) {
      expect(typeof r.title).toBe('string');
      expect(Number.isInteger(r.disposable_num)).toBe(true);
      expect(r.num_desc).toMatch(/^(\d+\D*|不限)$/);
    }
    expect(detail.rights.find((r: { user_right_type: number }) => r.user_right_type === 1)).toMatchObject({
      disposable_num: 20000,
      num_desc: '20000字',
      title: '高速校对字数',
    });
    expect((await call(paid.app, 'GET', '/user/v1/get_user_right?user_right_type=abc', undefined, alice)).status).toBe(
      400,
    );
  });

  it("pages consumption records newest first, filters by type, and shows only the caller's", async () => {
    const carol = await register(paid, '13900000033');
    const carolUid = await uidOf(paid, carol);
    // the default grants of consumable rights are the first records
    const defaults = (await call(paid.app, 'GET', '/user/right_consumption_record/page', undefined, carol)).json.result;
    expect(defaults.total).toBeGreaterThanOrEqual(2);
    expect(defaults.list.every((r: { num: number; reason: string }) => r.num > 0 && r.reason === '默认权益')).toBe(
      true,
    );
    for (let i = 1; i <= 5; i++) await consumeRight(paid.app.db, carolUid, 1, i * 10, '文本校对');
    const page1 = await call(paid.app, 'GET', '/user/right_consumption_record/page?num=1&size=3', undefined, carol);
    expect(page1.status).toBe(200);
    expect(page1.json.result).toMatchObject({ total: defaults.total + 5, num: 1, size: 3 });
    expect(page1.json.result.list.map((r: { num: number }) => r.num)).toEqual([-50, -40, -30]);
    expect(page1.json.result.list[0]).toMatchObject({ user_right_type: 1, title: '高速校对字数', reason: '文本校对' });
    const lastPage = Math.ceil((defaults.total + 5) / 3);
    const last = await call(
      paid.app,
      'GET',
      `/user/right_consumption_record/page?num=${lastPage}&size=3`,
      undefined,
      carol,
    );
    expect(last.json.result.list).toHaveLength((defaults.total + 5) % 3 || 3);
    expect(last.json.result.list.at(-1).reason).toBe('默认权益');
    const beyond = await call(
      paid.app,
      'GET',
      `/user/right_consumption_record/page?num=${lastPage + 1}&size=3`,
      undefined,
      carol,
    );
    expect(beyond.json.result).toMatchObject({ list: [], total: defaults.total + 5 });
    const compares = await call(
      paid.app,
      'GET',
      '/user/right_consumption_record/page?user_right_type=4096',
      undefined,
      carol,
    );
    expect(compares.json.result.list.map((r: { num: number; reason: string }) => [r.num, r.reason])).toEqual([
      [5, '默认权益'],
    ]);
    // bob sees none of carol's
    const bobs = await call(paid.app, 'GET', '/user/right_consumption_record/page?size=100', undefined, bob);
    expect(bobs.json.result.list.every((r: { num: number }) => r.num > 0)).toBe(true);
    for (const bad of ['num=0', 'size=101', 'size=x', 'user_right_type=3']) {
      const res = await call(paid.app, 'GET', `/user/right_consumption_record/page?${bad}`, undefined, carol);
      expect(res.status, bad).toBe(400);
      expect(res.json.code).toBe(400);
    }
    expect((await call(paid.app, 'GET', '/user/right_consumption_record/page')).status).toBe(401);
  });
});

describe('products', () => {
  it(
    'lists the seeded catalogue with prices in fen and the rights each grants, ' + 'filtered by type and belong_to',
    async () => {
      const all = (await call(paid.app, 'GET', '/user/right_product/get_list', undefined, alice)).json.result;
      expect(all.map((p: { code: string }) => p.code)).toEqual(SEED_PRODUCTS.map((p) => p.code));
      const yearly = all.find((p: { code: string }) => p.code === 'personal_yearly');
      expect(yearly).toMatchObject({
        name: '个人专业版（年付）',
        type: 1,
        belong_to: 1,
        price: 29900,
        original_price: 46800,
        duration_days: 366,
        recommended: true,
      });
      expect(yearly.rights.find((r: { user_right_type: number }) => r.user_right_type === 1)).toEqual({
        user_right_type: 1,
        title: '高速校对字数',
        num: 15_000_000,
        num_desc: '15000000字',
      });
      const words = all.find((p: { code: string }) => p.code === 'words_1m');
      expect(words).toMatchObject({ type: 2, price: 1990, duration_days: null });
      const packages = (await call(paid.app, 'GET', '/user/right_product/get_list?type=2', undefined, alice)).json
        .result;
      expect(packages.map((p: { code: string }) => p.code)).toEqual(['words_1m', 'words_5m', 'fine_100k']);
      const team = (await call(paid.app, 'GET', '/user/right_product/get_list?belong_to=2', undefined, alice)).json
        .result;
      expect(team.map((p: { code: string }) => p.code)).toEqual(['team_yearly']);
      const personalPlans = (
        await call(paid.app, 'GET', '/user/right_product/get_list?type=1&belong_to=1', undefined, alice)
      ).json.result;
      expect(personalPlans.map((p: { code: string }) => p.code)).toEqual(['personal_monthly', 'personal_yearly']);
      expect((await call(paid.app, 'GET', '/user/right_product/get_list?type=3', undefined, alice)).status).toBe(400);
      expect((await call(paid.app, 'GET', '/user/right_product/get_list')).status).toBe(401);
    },
  );

  it('displays the professional version while personal plans are on sale', async () => {
    const shown = await call(
      plain.app,
      'GET',
      '/user/right_product/v1/display_professional_version',
      undefined,
      await register(plain, '13900000041'),
    );
    expect(shown.json.result).toEqual({ display: true });
    const c = plain.app.db;
    await c.updateTable('products').set({ on_sale: 0 }).where('type', '=', 1).where('belong_to', '=', 1).execute();
    const token = await register(plain, '13900000042');
    expect(
      (await call(plain.app, 'GET', '/user/right_product/v1/display_professional_version', undefined, token)).json
        .result,
    ).toEqual({ display: false });
    // an off-sale product is neither listed nor sold
    const listed = (await call(plain.app, 'GET', '/user/right_product/get_list', undefined, token)).json.result;
    expect(listed.map((p: { code: string }) => p.code)).not.toContain('personal_monthly');
    const monthly = await c
      .selectFrom('products')
      .select('id')
      .where('code', '=', 'personal_monthly')
      .executeTakeFirstOrThrow();
    expect(
      (await call(plain.app, 'GET', `/pay/wx/native_prepay?product_id=${monthly.id}`, undefined, token)).status,
    ).toBe(404);
    await c.updateTable('products').set({ on_sale: 1 }).execute();
  });
});

describe('WeChat Pay Native', () => {
  it('says whether payment is configured', async () => {
    expect((await call(paid.app, 'GET', '/pay/wx/config', undefined, alice)).json.result).toEqual({
      configured: true,
      provider: 'wechat',
    });
    const token = await register(plain, '13900000043');
    expect((await call(plain.app, 'GET', '/pay/wx/config', undefined, token)).json.result).toEqual({
      configured: false,
      provider: null,
    });
    expect((await call(plain.app, 'GET', '/pay/wx/config')).status).toBe(401);
  });

  it('creates an order and a QR code, polls it, and a notification grants the rights exactly once', async () => {
    const id = await productId(paid, alice, 'words_1m');
    const prepay = await call(paid.app, 'GET', `/pay/wx/native_prepay?product_id=${id}&quantity=2`, undefined, alice);
    expect(prepay.status).toBe(200);
    const { order_no, code_url, amount, configured } = prepay.json.result;
    expect(configured).toBe(true);
    expect(code_url).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
    expect(amount).toBe(3980);
    expect(gw.orders.get(order_no)).toMatchObject({ amount: 3980, description: '字数包 100 万字' });
    expect(gw.requests.at(-1)).toMatchObject({ method: 'POST', path: '/v3/pay/transactions/native', authorized: true });

    const pending = await call(paid.app, 'GET', `/pay/wx/order?order_no=${order_no}`, undefined, alice);
    expect(pending.json.result).toMatchObject({
      order_no,
      status: 'pending',
      amount: 3980,
      quantity: 2,
      product_name: '字数包 100 万字',
      paid_at: null,
    });
    const before = await rightBalance(paid.app.db, aliceUid, 1);

    gw.pay(order_no);
    const n = gw.notification(order_no);
    // repeated and concurrent notifications: every one is accepted, the rights come once
    const answers = await Promise.all(Array.from({ length: 8 }, () => notify(paid, n)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(answers[0].body).toBe('');
    expect((await notify(paid, gw.notification(order_no))).status).toBe(200);
    expect(await rightBalance(paid.app.db, aliceUid, 1)).toBe(before + 2_000_000);
    const grants = await paid.app.db
      .selectFrom('right_grants')
      .selectAll()
      .where('uid', '=', aliceUid)
      .where('source', 'like', `order:${order_no}:%`)
      .execute();
    expect(grants).toHaveLength(1);
    expect(grants[0]).toMatchObject({ user_right_type: 1, total: 2_000_000, expires_at: null });

    const done = await call(paid.app, 'GET', `/pay/wx/order?order_no=${order_no}`, undefined, alice);
    expect(done.json.result).toMatchObject({ status: 'paid', pay_type: 'wechat' });
    expect(done.json.result.paid_at).toBe('2026-11-23T12:01:02.000Z');
    // the order is in the caller's list, not in bob's
    const list = await call(paid.app, 'GET', '/user/right_order/v1/get_list', undefined, alice);
    expect(list.json.result.list[0]).toMatchObject({ order_no, status: 'paid', amount: 3980 });
    const bobs = await call(paid.app, 'GET', '/user/right_order/v1/get_list', undefined, bob);
    expect(bobs.json.result).toMatchObject({ total: 0, list: [] });
    // records say what was bought
    const records = await call(
      paid.app,
      'GET',
      '/user/right_consumption_record/page?user_right_type=1',
      undefined,
      alice,
    );
    expect(records.json.result.list[0]).toMatchObject({ num: 2_000_000, reason: '购买 字数包 100 万字' });
    // paid: no new QR code
    expect((await call(paid.app, 'GET', `/pay/wx/qrcode/refresh?order_no=${order_no}`, undefined, alice)).status).toBe(
      409,
    );
  });

  it('a plan grants time-limited rights; limits are ceilings while it lasts', async () => {
    const id = await productId(paid, bob, 'personal_monthly');
    const { order_no } = (await call(paid.app, 'GET', `/pay/wx/native_prepay?product_id=${id}`, undefined, bob)).json
      .result;
    gw.pay(order_no);
    // no notification: the poll asks the gateway and completes the order
    const polled = await call(paid.app, 'GET', `/pay/wx/order?order_no=${order_no}`, undefined, bob);
    expect(polled.json.result.status).toBe('paid');
    const detail = (await call(paid.app, 'GET', '/user/v1/get_user_right_detail', undefined, bob)).json.result;
    const byType = (t: number) => detail.rights.find((r: { user_right_type: number }) => r.user_right_type === t);
    expect(byType(32)).toMatchObject({ disposable_num: 50_000 });
    expect(byType(8192)).toMatchObject({ disposable_num: 100_000, num_desc: '100000字' });
    const expiry = Date.parse(byType(8192).expire_time);
    expect(Math.abs(expiry - (Date.parse('2026-11-23T12:01:02.000Z') + 31 * 86_400_000))).toBeLessThan(1000);
    expect(detail.expire_time).toBe(byType(8192).expire_time);
  });

  it('refuses forged, stale, undecryptable and mismatched notifications and loses nothing', async () => {
    const id = await productId(paid, alice, 'fine_100k');
    const { order_no } = (await call(paid.app, 'GET', `/pay/wx/native_prepay?product_id=${id}`, undefined, alice)).json
      .result;
    const fine = () => rightBalance(paid.app.db, aliceUid, 8192);
    const before = await fine();
    const forged = gw.notification(order_no, { key: gw.merchantPrivate });
    expect(await notify(paid, forged)).toMatchObject({ status: 401 });
    const stale = gw.notification(order_no, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect((await notify(paid, stale)).status).toBe(401);
    const wrongKey = gw.notification(order_no, { apiV3Key: 'z'.repeat(32) });
    expect((await notify(paid, wrongKey)).status).toBe(401);
    const tampered = gw.notification(order_no);
    expect(
      (
        await notify(paid, {
          headers: tampered.headers,
          body: tampered.body.replace('"summary":"支付成功"', '"summary":"x"'),
        })
      ).status,
    ).toBe(401);
    const cheap = gw.notification(order_no, { amount: 1 });
    const res = await notify(paid, cheap);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).msg).toMatch(/paid 1 fen, expected 4900/);
    // signed and decryptable, but silent about the amount: refused, not taken on trust
    const silent = await notify(paid, gw.notification(order_no, { amount: null }));
    expect(silent.status).toBe(400);
    expect(JSON.parse(silent.body)).toMatchObject({ msg_code: 'pay.notify_amount' });
    expect(JSON.parse(silent.body).msg).toMatch(/did not say the amount/);
    const unknown = gw.notification('WB00000000000000nope');
    expect((await notify(paid, unknown)).status).toBe(404);
    const malformed = await paid.app.inject({
      method: 'POST',
      url: '/pay/wx/notify',
      headers: { 'content-type': 'application/json' },
      payload: '{"resource":',
    });
    expect(malformed.statusCode).toBe(400);
    expect((await notify(plain, gw.notification(order_no))).status).toBe(501);
    expect(await fine()).toBe(before);
    expect(
      (await call(paid.app, 'GET', `/pay/wx/order?order_no=${order_no}`, undefined, alice)).json.result.status,
    ).toBe('pending');
    // the genuine one still works afterwards
    expect((await notify(paid, gw.notification(order_no))).status).toBe(200);
    expect(await fine()).toBe(before + 100_000);
  });

  it("keeps other users' orders private and validates input", async () => {
    const id = await productId(paid, alice, 'words_5m');
    const { order_no } = (await call(paid.app, 'GET', `/pay/wx/native_prepay?product_id=${id}`, undefined, alice)).json
      .result;
    for (const path of ['/pay/wx/order', '/pay/wx/qrcode/refresh']) {
      const res = await call(paid.app, 'GET', `${path}?order_no=${order_no}`, undefined, bob);
      expect(res.status, path).toBe(404);
      expect(res.json.msg).toBe('订单不存在');
      expect((await call(paid.app, 'GET', `${path}?order_no=WB0000000000000000x`, undefined, alice)).status).toBe(404);
      expect(
        (await call(paid.app, 'GET', `${path}?order_no=${encodeURIComponent('bad no!')}`, undefined, alice)).status,
      ).toBe(400);
      expect((await call(paid.app, 'GET', `${path}?order_no=${order_no}`)).status).toBe(401);
    }
    expect((await call(paid.app, 'GET', '/pay/wx/native_prepay?product_id=99999', undefined, alice)).status).toBe(404);
    for (const bad of ['', 'product_id=abc', `product_id=${id}&quantity=0`, `product_id=${id}&quantity=1001`]) {
      expect((await call(paid.app, 'GET', `/pay/wx/native_prepay?${bad}`, undefined, alice)).status, bad).toBe(400);
    }
  });

  it('refreshes the QR code: the same while it is valid, a new order once it expired', async () => {
    const id = await productId(paid, alice, 'words_1m');
    const first = (await call(paid.app, 'GET', `/pay/wx/native_prepay?product_id=${id}`, undefined, alice)).json.result;
    const same = (await call(paid.app, 'GET', `/pay/wx/qrcode/refresh?order_no=${first.order_no}`, undefined, alice))
      .json.result;
    expect(same).toMatchObject({ order_no: first.order_no, code_url: first.code_url });
    await paid.app.db
      .updateTable('orders')
      .set({ expire_at: new Date(Date.now() - 1000).toISOString() })
      .where('order_no', '=', first.order_no)
      .execute();
    const fresh = (await call(paid.app, 'GET', `/pay/wx/qrcode/refresh?order_no=${first.order_no}`, undefined, alice))
      .json.result;
    expect(fresh.order_no).not.toBe(first.order_no);
    expect(fresh.code_url).not.toBe(first.code_url);
    expect(Date.parse(fresh.expire_at)).toBeGreaterThan(Date.now() + 3600_000);
    expect(gw.orders.get(first.order_no)?.state).toBe('CLOSED');
    expect(
      (await call(paid.app, 'GET', `/pay/wx/order?order_no=${first.order_no}`, undefined, alice)).json.result.status,
    ).toBe('closed');
    // a payment that still arrives for the closed order is honoured
    gw.orders.get(first.order_no)!.state = 'NOTPAY';
    gw.pay(first.order_no);
    expect((await notify(paid, gw.notification(first.order_no))).status).toBe(200);
    expect(
      (await call(paid.app, 'GET', `/pay/wx/order?order_no=${first.order_no}`, undefined, alice)).json.result.status,
    ).toBe('paid');
  });

  it('closes the order and says so when the gateway fails', async () => {
    const id = await productId(paid, alice, 'words_1m');
    gw.down = true;
    try {
      const res = await call(paid.app, 'GET', `/pay/wx/native_prepay?product_id=${id}`, undefined, alice);
      expect(res.status).toBe(500);
      expect(res.json.msg).toBe('微信支付下单失败，请稍后再试');
    } finally {
      gw.down = false;
    }
    const latest = (await call(paid.app, 'GET', '/user/right_order/v1/get_list?size=1', undefined, alice)).json.result
      .list[0];
    expect(latest.status).toBe('closed');
  });

  it(
    'without configuration creates the order with no QR code, and an ' + "administrator's confirmation grants once",
    async () => {
      const token = await register(plain, '13900000044');
      const uid = await uidOf(plain, token);
      const id = await productId(plain, token, 'words_1m');
      const res = await call(plain.app, 'GET', `/pay/wx/native_prepay?product_id=${id}`, undefined, token);
      expect(res.status).toBe(200);
      expect(res.json.msg).toMatch(/^微信支付未配置/);
      expect(res.json.result).toMatchObject({ configured: false, code_url: '', amount: 1990 });
      const orderNo = res.json.result.order_no;
      expect(
        (await call(plain.app, 'GET', `/pay/wx/qrcode/refresh?order_no=${orderNo}`, undefined, token)).json.result,
      ).toMatchObject({ order_no: orderNo, configured: false, code_url: '' });
      const results = await Promise.all(
        Array.from({ length: 6 }, () => markOrderPaid(plain.app.db, orderNo, { payType: 'admin' })),
      );
      expect(results.filter((r) => r.changed)).toHaveLength(1);
      expect(await rightBalance(plain.app.db, uid, 1)).toBe(20_000 + 1_000_000);
      expect(
        (await call(plain.app, 'GET', `/pay/wx/order?order_no=${orderNo}`, undefined, token)).json.result,
      ).toMatchObject({ status: 'paid', pay_type: 'admin' });
    },
  );
});

describe('order burst limit', () => {
  it('refuses a 21st order within 10 minutes with 429 and creates nothing more', async () => {
    const token = await register(plain, '13900000045');
    const id = await productId(plain, token, 'words_1m');
    for (let i = 0; i < 20; i++)
      expect((await call(plain.app, 'GET', `/pay/wx/native_prepay?product_id=${id}`, undefined, token)).status).toBe(
        200,
      );
    const refused = await call(plain.app, 'GET', `/pay/wx/native_prepay?product_id=${id}`, undefined, token);
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({ code: 429, msg: '下单过于频繁，请稍后再试', msg_code: 'rate.orders', result: null });
    expect(
      (await call(plain.app, 'GET', '/user/right_order/v1/get_list?size=100', undefined, token)).json.result.total,
    ).toBe(20);
    // another user is not affected
    const other = await register(plain, '13900000046');
    expect((await call(plain.app, 'GET', `/pay/wx/native_prepay?product_id=${id}`, undefined, other)).status).toBe(200);
  });
});

describe('orders list', () => {
  it("pages the caller's orders newest first", async () => {
    const all = (await call(paid.app, 'GET', '/user/right_order/v1/get_list?size=100', undefined, alice)).json.result;
    expect(all.total).toBeGreaterThanOrEqual(5);
    const p1 = (await call(paid.app, 'GET', '/user/right_order/v1/get_list?num=1&size=2', undefined, alice)).json
      .result;
    const p2 = (await call(paid.app, 'GET', '/user/right_order/v1/get_list?num=2&size=2', undefined, alice)).json
      .result;
    expect([...p1.list, ...p2.list].map((o: { order_no: string }) => o.order_no)).toEqual(
      all.list.slice(0, 4).map((o: { order_no: string }) => o.order_no),
    );
    expect(all.list.map((o: { created_at: string }) => o.created_at)).toEqual(
      [...all.list.map((o: { created_at: string }) => o.created_at)].sort().reverse(),
    );
    expect((await call(paid.app, 'GET', '/user/right_order/v1/get_list?size=0', undefined, alice)).status).toBe(400);
    expect((await call(paid.app, 'GET', '/user/right_order/v1/get_list')).status).toBe(401);
  });
});

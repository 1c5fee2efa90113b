// Orders on PostgreSQL: the seeded catalogue and a paid order granting exactly once under concurrent
// confirmations (row locks rather than SQLite's single writer). Skipped where no PostgreSQL binaries exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, PG_BIN } from './pg-cluster';
import { call, register, startTestApp, type TestApp } from './helpers';
import { markOrderPaid } from '../../server/domain/commerce/orders';
import { rightBalance } from '../../server/domain/rights/ledger';
import { fakeGateway } from './wechatpay-fake';

describe.skipIf(!PG_BIN)('orders on PostgreSQL', () => {
  const cluster = new Cluster();
  const gw = fakeGateway();
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ databaseUrl: await cluster.start(), payment: gw.provider });
  }, 90_000);
  afterAll(async () => {
    await t?.close();
    await cluster.stop();
  });

  it('grants a paid order once under concurrent notifications and confirmations', async () => {
    const token = await register(t, '13900000051');
    const uid = (await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result.uid;
    const products = (await call(t.app, 'GET', '/user/right_product/get_list?type=2&belong_to=1', undefined, token))
      .json.result;
    const words = products.find((p: { code: string }) => p.code === 'words_1m');
    const { order_no } = (await call(t.app, 'GET', `/pay/wx/native_prepay?product_id=${words.id}`, undefined, token))
      .json.result;
    gw.pay(order_no);
    const n = gw.notification(order_no);
    const [notified, confirmed] = await Promise.all([
      Promise.all(
        Array.from({ length: 6 }, () =>
          t.app.inject({ method: 'POST', url: '/pay/wx/notify', headers: n.headers, payload: n.body }),
        ),
      ),
      Promise.all(Array.from({ length: 6 }, () => markOrderPaid(t.app.db, order_no, { payType: 'admin' }))),
    ]);
    expect(notified.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
    expect(confirmed.filter((r) => r.changed).length).toBeLessThanOrEqual(1);
    expect(await rightBalance(t.app.db, uid, 1)).toBe(20_000 + 1_000_000);
    expect((await call(t.app, 'GET', `/pay/wx/order?order_no=${order_no}`, undefined, token)).json.result.status).toBe(
      'paid',
    );
  });
});

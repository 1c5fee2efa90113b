// Admin CLI for orders: `order paid ORDER_NO` confirms a payment when WeChat Pay is not
// configured, over the server's own DATA_DIR, and grants the product's rights exactly once.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runAdmin } from '../../server/cli/admin';
import { call, register, startTestApp } from './helpers';

const run = promisify(execFile);
const cli = (dataDir: string, ...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'server/cli/admin.ts', ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
  });

describe('admin CLI: orders and products', () => {
  it('marks an order paid from the command line; repeated calls grant nothing more', async () => {
    const server = await startTestApp({ payment: null });
    const token = await register(server, '13700000031');
    const products = (await call(server.app, 'GET', '/user/right_product/get_list?type=2', undefined, token)).json
      .result;
    const fine = products.find((p: { code: string }) => p.code === 'fine_100k');
    const { order_no } = (
      await call(server.app, 'GET', `/pay/wx/native_prepay?product_id=${fine.id}`, undefined, token)
    ).json.result;
    await server.app.close();

    const first = await cli(server.dataDir, 'order', 'paid', order_no);
    expect(first.stdout).toMatch(
      new RegExp(`^order ${order_no} paid: uid \\d+ 精校包 10 万字 x1\\n  granted right 8192: 100000\\n$`),
    );
    const second = await cli(server.dataDir, 'order', 'paid', order_no);
    expect(second.stdout).toMatch(new RegExp(`^order ${order_no} was already paid at \\S+; nothing granted\\n$`));
    await expect(cli(server.dataDir, 'order', 'paid', 'WB-NO-SUCH-ORDER')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/no order WB-NO-SUCH-ORDER/),
    });
    await expect(cli(server.dataDir, 'order', 'paid')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/order paid takes one ORDER_NO/),
    });

    const again = await startTestApp({ dataDir: server.dataDir, payment: null });
    try {
      const right = await call(again.app, 'GET', '/user/v1/get_user_right?user_right_type=8192', undefined, token);
      expect(right.json.result).toMatchObject({ disposable_num: 100_000, num_desc: '100000字' });
      const order = await call(again.app, 'GET', `/pay/wx/order?order_no=${order_no}`, undefined, token);
      expect(order.json.result).toMatchObject({ status: 'paid', pay_type: 'admin' });

      const lines: string[] = [];
      await runAdmin(['order', 'list', '--phone', '13700000031'], again.app.db, (l) => lines.push(l));
      expect(lines[0].split('\t')).toEqual([
        'order_no',
        'uid',
        'product',
        'quantity',
        'amount_fen',
        'status',
        'created_at',
        'paid_at',
      ]);
      expect(lines.slice(1).map((l) => l.split('\t')[0])).toEqual([order_no]);
      expect(lines[1].split('\t').slice(2, 6)).toEqual(['精校包 10 万字', '1', '4900', 'paid']);
      const catalogue: string[] = [];
      await runAdmin(['product', 'list'], again.app.db, (l) => catalogue.push(l));
      expect(catalogue).toContainEqual(
        expect.stringMatching(/^\d+\tfine_100k\t精校包 10 万字\t2\t1\t4900\t-\t1\t8192:100000$/),
      );
    } finally {
      await again.close();
    }
  }, 60_000);
});

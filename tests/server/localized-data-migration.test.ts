// 0020_localized_data on SQLite and PostgreSQL: the seeded products get their en/hk forms (not one an operator
// renamed), and the ledger's known cn texts their codes, a purchase its product; unknown texts keep none.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from '../../server/db';
import type { DialectName } from '../../server/db/schema';
import { migrationProvider } from '../../server/db/migrations/index';
import { Cluster, PG_BIN } from './pg-cluster';

const MIGRATION = '0020_localized_data';

async function scenario(db: Db, dialect: DialectName) {
  await migrate(db, dialect);
  const migration = (await migrationProvider(dialect).getMigrations())[MIGRATION];
  // back to the database as it was before the migration, with data written then
  await migration.down!(db);
  const now = new Date().toISOString();
  await db
    .updateTable('products')
    .set({ name: '个人专业版（月付，新）' })
    .where('code', '=', 'personal_monthly')
    .execute();
  const { uid } = await db
    .insertInto('users')
    .values({ phone: '13900000072', name: 'u', role: 'free', user_identity: 0, password_hash: 'x', created_at: now })
    .returning('uid')
    .executeTakeFirstOrThrow();
  const product = await db
    .selectFrom('products')
    .select(['id', 'name'])
    .where('code', '=', 'words_1m')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('orders')
    .values({
      order_no: 'WB1',
      uid,
      product_id: product.id,
      product_name: product.name,
      quantity: 1,
      amount: 1990,
      status: 'paid',
      pay_type: 'wechat',
      code_url: null,
      expire_at: now,
      transaction_id: null,
      created_at: now,
      paid_at: now,
    })
    .execute();
  // the columns the migration adds do not exist yet: only the old ones are written
  const old = (reason: string, ref: string | null = null) =>
    db
      .insertInto('right_records')
      .columns(['uid', 'user_right_type', 'num', 'reason', 'ref', 'created_at'])
      .values({ uid, user_right_type: 1, num: 1, reason, ref, created_at: now })
      .execute();
  await old('默认权益');
  await old('API 校对失败退回');
  await old(`购买 ${product.name}`, 'order:WB1:1');
  await old('购买 早已下架的套餐', null);
  await old('运营手工调整');

  await migration.up(db);

  const records = await db
    .selectFrom('right_records')
    .select(['reason', 'reason_code', 'reason_params'])
    .orderBy('id')
    .execute();
  expect(records).toEqual([
    { reason: '默认权益', reason_code: 'grant.default', reason_params: null },
    { reason: 'API 校对失败退回', reason_code: 'check.api_failed_refund', reason_params: null },
    {
      reason: `购买 ${product.name}`,
      reason_code: 'grant.purchase',
      reason_params: JSON.stringify({ product: product.name, product_id: Number(product.id) }),
    },
    {
      reason: '购买 早已下架的套餐',
      reason_code: 'grant.purchase',
      reason_params: JSON.stringify({ product: '早已下架的套餐' }),
    },
    { reason: '运营手工调整', reason_code: null, reason_params: null },
  ]);

  const forms = Object.fromEntries(
    (await db.selectFrom('products').select(['code', 'i18n']).execute()).map((p) => [
      p.code,
      p.i18n ? JSON.parse(p.i18n) : null,
    ]),
  );
  expect(forms.words_1m).toEqual({
    en: {
      name: 'Character pack: 1 million',
      description: '1 million characters of high-speed proofreading; never expires',
    },
    hk: { name: '字數包 100 萬字', description: '100 萬字高速校對，永久有效' },
  });
  // renamed by an operator: only the description (still the seeded one) has its forms
  expect(forms.personal_monthly.en.name).toBeUndefined();
  expect(forms.personal_monthly.en.description).toMatch(/^1 million characters/);
  expect(forms.team_yearly.en.name).toBe('Team (yearly)');
}

describe('0020_localized_data', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('maps the seeded products and the ledger on SQLite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-l10n-'));
    dirs.push(dir);
    const { db } = openDatabase({ dataDir: dir });
    try {
      await scenario(db, 'sqlite');
    } finally {
      await db.destroy();
    }
  });

  it.skipIf(!PG_BIN)(
    'maps the seeded products and the ledger on PostgreSQL',
    async () => {
      const cluster = new Cluster();
      const url = await cluster.start();
      const { db } = openDatabase({ dataDir: '', databaseUrl: url });
      try {
        await scenario(db, 'postgres');
      } finally {
        await db.destroy();
        await cluster.stop();
      }
    },
    90_000,
  );
});

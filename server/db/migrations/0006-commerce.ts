import type { Kysely, Migration } from 'kysely';
import { SEED_PRODUCTS } from '../seed-products';
import type { IdColumn } from './columns';

export function commerceMigration(id: IdColumn): Migration {
  return {
    // The product catalogue (seeded from server/db/seed-products.ts) and orders.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('products')
        .addColumn('id', id.type, id.build)
        .addColumn('code', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'integer', (c) => c.notNull())
        .addColumn('belong_to', 'integer', (c) => c.notNull())
        .addColumn('price', 'integer', (c) => c.notNull())
        .addColumn('original_price', 'integer')
        .addColumn('duration_days', 'integer')
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('recommended', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('on_sale', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('rights', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      const now = new Date().toISOString();
      for (const p of SEED_PRODUCTS) {
        await db
          .insertInto('products')
          .values({
            ...p,
            recommended: p.recommended ? 1 : 0,
            on_sale: 1,
            rights: JSON.stringify(p.rights),
            created_at: now,
            updated_at: now,
          })
          .execute();
      }

      await db.schema
        .createTable('orders')
        .addColumn('id', id.type, id.build)
        .addColumn('order_no', 'text', (c) => c.notNull().unique())
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
        .addColumn('product_name', 'text', (c) => c.notNull())
        .addColumn('quantity', 'integer', (c) => c.notNull())
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('pay_type', 'text', (c) => c.notNull())
        .addColumn('code_url', 'text')
        .addColumn('expire_at', 'text', (c) => c.notNull())
        .addColumn('transaction_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('paid_at', 'text')
        .execute();
      await db.schema.createIndex('orders_uid').on('orders').columns(['uid', 'id']).execute();
    },
    async down(db: Kysely<any>) {
      for (const table of ['orders', 'products']) await db.schema.dropTable(table).execute();
    },
  };
}

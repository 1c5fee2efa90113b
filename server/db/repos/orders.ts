import type { Insertable, Selectable } from 'kysely';
import type { Db } from '..';
import type { OrdersTable, PayType, ProductsTable } from '../schema';
import type { Page } from './filters';

/** Products (`products`) and orders (`orders`); the order's life and what it grants is domain/commerce/orders.ts. */

export type ProductRecord = Selectable<ProductsTable>;
export type OrderRecord = Selectable<OrdersTable>;

/** Products on sale (of one type / for one audience if given), by their sort key then id. */
export async function findProductsOnSale(
  db: Db,
  filter: { type?: number; belong_to?: number },
): Promise<ProductRecord[]> {
  let q = db.selectFrom('products').selectAll().where('on_sale', '=', 1);
  if (filter.type !== undefined) q = q.where('type', '=', filter.type);
  if (filter.belong_to !== undefined) q = q.where('belong_to', '=', filter.belong_to);
  return q.orderBy('sort').orderBy('id').execute();
}

/** Every product, on sale or not, by its sort key (the admin CLI's listing). */
export async function findAllProducts(db: Db): Promise<ProductRecord[]> {
  return db.selectFrom('products').selectAll().orderBy('sort').execute();
}

export async function findProduct(db: Db, id: number): Promise<ProductRecord | undefined> {
  return db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The product; throws when it does not exist (for the product of an existing order). */
export async function getProduct(db: Db, id: number): Promise<ProductRecord> {
  return db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** How many orders the user created after `since`. */
/** The user's orders created after `since`: how many, and when the oldest of them was. */
export async function countOrdersSince(
  db: Db,
  uid: number,
  since: string,
): Promise<{ count: number; oldest: string | null }> {
  const row = await db
    .selectFrom('orders')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
    .where('uid', '=', uid)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return { count: Number(row.n), oldest: row.oldest ? String(row.oldest) : null };
}

export async function insertOrder(db: Db, values: Insertable<OrdersTable>): Promise<void> {
  await db.insertInto('orders').values(values).execute();
}

export async function findOrder(db: Db, orderNo: string): Promise<OrderRecord | undefined> {
  return db.selectFrom('orders').selectAll().where('order_no', '=', orderNo).executeTakeFirst();
}

/** The order; throws when it does not exist (for an order known to exist). */
export async function getOrder(db: Db, orderNo: string): Promise<OrderRecord> {
  return db.selectFrom('orders').selectAll().where('order_no', '=', orderNo).executeTakeFirstOrThrow();
}

/** One page of the user's orders, newest first, and how many there are in all. */
export async function findOrderPage(db: Db, uid: number, page: Page): Promise<{ total: number; rows: OrderRecord[] }> {
  const total = await db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('uid', '=', uid)
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('orders')
    .selectAll()
    .where('uid', '=', uid)
    .orderBy('id', 'desc')
    .limit(page.size)
    .offset((page.num - 1) * page.size)
    .execute();
  return { total: Number(total.n), rows };
}

/** The latest 200 orders (of one user if given), newest first (the admin CLI's listing). */
export async function findLatestOrders(db: Db, filter: { uid?: number }): Promise<OrderRecord[]> {
  let q = db.selectFrom('orders').selectAll().orderBy('id', 'desc').limit(200);
  if (filter.uid !== undefined) q = q.where('uid', '=', filter.uid);
  return q.execute();
}

export async function setCodeUrl(db: Db, orderNo: string, codeUrl: string): Promise<void> {
  await db.updateTable('orders').set({ code_url: codeUrl }).where('order_no', '=', orderNo).execute();
}

/** Closes a pending order (its QR code expired or was replaced); whether it was pending. */
export async function closeOrder(db: Db, orderNo: string): Promise<boolean> {
  const res = await db
    .updateTable('orders')
    .set({ status: 'closed' })
    .where('order_no', '=', orderNo)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * Marks a pending or closed order paid; whether this call did. The guard on the old status makes it happen once:
 * a concurrent call updates no row (PostgreSQL re-checks the WHERE after the row lock; SQLite serialises writers).
 */
export async function setOrderPaid(
  db: Db,
  orderNo: string,
  payment: { paid_at: string; pay_type: PayType; transaction_id: string | null },
): Promise<boolean> {
  const res = await db
    .updateTable('orders')
    .set({
      status: 'paid',
      paid_at: payment.paid_at,
      pay_type: payment.pay_type,
      transaction_id: payment.transaction_id,
    })
    .where('order_no', '=', orderNo)
    .where('status', 'in', ['pending', 'closed'])
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

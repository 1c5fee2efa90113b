/**
 * Products and orders. An order goes pending -> paid (or pending -> closed when its QR code
 * expired or was replaced; a payment that still arrives for a closed order is honoured). The change to paid
 * and the grants it gives happen in ONE transaction guarded by the old status, so a paid order grants its
 * rights exactly once however many notifications, polls or CLI calls report it, even concurrently.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db';
import { nowIso } from '../../db';
import { notFound, tooManyRequests } from '../../errors';
import {
  closeOrder,
  countOrdersSince,
  findOrder,
  findOrderPage,
  findProduct,
  findProductsOnSale,
  getOrder,
  getProduct,
  insertOrder,
  setCodeUrl,
  setOrderPaid,
} from '../../db/repos/orders';
import { addGrant, amountText, LIMIT_TYPES, rightTitle } from '../rights/ledger';
import type { Lang } from '../locale';
import { productNamer, productTexts } from './product-names';
import { findMembership } from '../../db/repos/teams';
import { grantTeamPackage } from '../teams/packages';
import { MEMBER_STATUS } from '../teams/teams';
import type { ProductsTable, OrdersTable, PayType } from '../../db/schema';

export const ORDER_TTL_MS = 2 * 3600_000;
/** At most this many orders per user in the window (each one is a call to the gateway). */
export const ORDER_BURST_LIMIT = 20;
export const ORDER_BURST_WINDOW_MS = 10 * 60_000;

/** 429 when the user created ORDER_BURST_LIMIT orders within the window, with the seconds until one leaves it. */
export async function checkOrderBurst(db: Db, uid: number): Promise<void> {
  const now = Date.now();
  const { count, oldest } = await countOrdersSince(db, uid, new Date(now - ORDER_BURST_WINDOW_MS).toISOString());
  if (count < ORDER_BURST_LIMIT) return;
  const freed = (oldest ? Date.parse(oldest) : now) + ORDER_BURST_WINDOW_MS;
  throw tooManyRequests((freed - now) / 1000, 'rate.orders');
}

export interface ProductRight {
  user_right_type: number;
  num: number;
}

export type { OrderStatus, PayType } from '../../db/schema';

export type ProductRow = import('kysely').Selectable<ProductsTable>;
export type OrderRow = import('kysely').Selectable<OrdersTable>;

export function productRights(row: Pick<ProductRow, 'rights'>): ProductRight[] {
  return (JSON.parse(row.rights) as ProductRight[]).map((r) => ({
    user_right_type: Number(r.user_right_type),
    num: Number(r.num),
  }));
}

export function productView(row: Omit<ProductRow, 'i18n'> & { i18n?: string | null }, lang: Lang = 'cn') {
  const texts = productTexts(row, lang);
  return {
    id: Number(row.id),
    code: row.code,
    name: texts.name,
    type: Number(row.type),
    belong_to: Number(row.belong_to),
    price: Number(row.price),
    ...(row.original_price != null ? { original_price: Number(row.original_price) } : {}),
    duration_days: row.duration_days == null ? null : Number(row.duration_days),
    description: texts.description,
    recommended: Number(row.recommended) === 1,
    rights: productRights(row).map((r) => ({
      user_right_type: r.user_right_type,
      title: rightTitle(r.user_right_type, lang),
      num: r.num,
      num_desc: amountText(r.user_right_type, r.num, lang),
    })),
  };
}

export async function listProducts(db: Db, filter: { type?: number; belong_to?: number }, lang: Lang = 'cn') {
  return (await findProductsOnSale(db, filter)).map((row) => productView(row, lang));
}

/** e.g. WB20261123200102a1b2c3d4e5f6 (letters and digits: WeChat's out_trade_no allows 6-32 of them). */
export function newOrderNo(now = new Date()): string {
  const stamp = now.toISOString().replace(/\D/g, '').slice(0, 14);
  return `WB${stamp}${randomBytes(6).toString('hex')}`;
}

export async function createOrder(
  db: Db,
  uid: number,
  product: ProductRow,
  quantity: number,
  payType: PayType,
): Promise<OrderRow> {
  const now = new Date();
  const row = {
    order_no: newOrderNo(now),
    uid,
    product_id: Number(product.id),
    product_name: product.name,
    quantity,
    amount: Number(product.price) * quantity,
    status: 'pending' as const,
    pay_type: payType,
    code_url: null,
    expire_at: new Date(now.getTime() + ORDER_TTL_MS).toISOString(),
    transaction_id: null,
    created_at: now.toISOString(),
    paid_at: null,
  };
  await insertOrder(db, row);
  return (await findOrder(db, row.order_no))!;
}

/** The caller's order, or undefined for an unknown one or another user's (both answer 404). */
export async function findOwnOrder(db: Db, uid: number, orderNo: string): Promise<OrderRow | undefined> {
  const order = await findOrder(db, orderNo);
  return order && Number(order.uid) === uid ? order : undefined;
}

export function orderView(row: OrderRow, productName: (name: string, id?: number | null) => string = (n) => n) {
  return {
    order_no: row.order_no,
    product_id: Number(row.product_id),
    product_name: productName(row.product_name, Number(row.product_id)),
    quantity: Number(row.quantity),
    amount: Number(row.amount),
    status: row.status,
    pay_type: row.pay_type,
    created_at: row.created_at,
    paid_at: row.paid_at,
    expire_at: row.expire_at,
  };
}

export async function listOrders(db: Db, uid: number, num: number, size: number, lang: Lang = 'cn') {
  const { total, rows } = await findOrderPage(db, uid, { num, size });
  const namer = await productNamer(db, lang);
  return { total, num, size, list: rows.map((row) => orderView(row, namer)) };
}

export interface PaidResult {
  /** True when this call changed the order to paid (and granted); false when it was paid already. */
  changed: boolean;
  order: OrderRow;
  granted: Array<{ user_right_type: number; num: number; expires_at: string | null }>;
  /** the team whose package the order became (a team plan bought by the team's root or an admin) */
  teamPackage?: number;
}

export class OrderProblem extends Error {
  constructor(
    readonly kind: 'unknown' | 'amount' | 'refunded',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Marks an order paid and grants its product's rights, exactly once. A gateway's payment (WeChat Pay) must say its
 * `amount` (fen), and it must equal the order's: a signed notification without one is refused, never taken on
 * trust. An operator's confirmation (admin CLI) has no amount. Consumable amounts are multiplied by the quantity,
 * and so is a plan's validity; limits (32, 64, ...) are not.
 */
export async function markOrderPaid(
  db: Db,
  orderNo: string,
  payment: { payType: PayType; transactionId?: string | null; amount?: number | null; paidAt?: string | null },
): Promise<PaidResult> {
  return db.transaction().execute(async (trx) => {
    const order = await findOrder(trx, orderNo);
    if (!order) throw new OrderProblem('unknown', `no order ${orderNo}`);
    if (order.status === 'refunded') throw new OrderProblem('refunded', `order ${orderNo} was refunded`);
    if (payment.payType === 'wechat' && payment.amount == null) {
      throw new OrderProblem('amount', `order ${orderNo}: the gateway did not say the amount paid`);
    }
    if (payment.amount != null && Number(payment.amount) !== Number(order.amount)) {
      throw new OrderProblem('amount', `order ${orderNo}: paid ${payment.amount} fen, expected ${order.amount}`);
    }
    if (order.status === 'paid') return { changed: false, order, granted: [] };
    const paidAt = payment.paidAt ?? nowIso();
    // The guard on the old status is what makes this exactly-once: a concurrent transaction that got here
    // too updates 0 rows (PostgreSQL re-checks the WHERE after the row lock; SQLite serialises writers).
    const changed = await setOrderPaid(trx, orderNo, {
      paid_at: paidAt,
      pay_type: payment.payType,
      transaction_id: payment.transactionId ?? null,
    });
    if (!changed) return { changed: false, order: await getOrder(trx, orderNo), granted: [] };
    const product = await getProduct(trx, order.product_id);
    const quantity = Number(order.quantity);
    const expiresAt =
      product.duration_days == null
        ? null
        : new Date(new Date(paidAt).getTime() + Number(product.duration_days) * quantity * 86_400_000).toISOString();
    const granted: PaidResult['granted'] = [];
    // A team plan bought by a team's root or admin is the team's: a package its admins allocate to members.
    const membership =
      Number(product.belong_to) === 2 ? await findMembership(trx, Number(order.uid), MEMBER_STATUS.active) : undefined;
    if (membership && (membership.role === 'root' || membership.role === 'admin')) {
      const rights = productRights(product).map((r) => ({
        user_right_type: r.user_right_type,
        num: LIMIT_TYPES.has(r.user_right_type) ? r.num : r.num * quantity,
      }));
      await grantTeamPackage(trx, {
        enterpriseId: Number(membership.enterprise_id),
        productName: order.product_name,
        orderId: Number(order.id),
        expiresAt,
        rights,
      });
      return {
        changed: true,
        order: await getOrder(trx, orderNo),
        granted: [],
        teamPackage: Number(membership.enterprise_id),
      };
    }
    for (const right of productRights(product)) {
      const num = LIMIT_TYPES.has(right.user_right_type) ? right.num : right.num * quantity;
      // The unique (uid, source) index is a second guard: the same order can never grant a type twice.
      await addGrant(
        trx,
        Number(order.uid),
        right.user_right_type,
        num,
        `order:${orderNo}:${right.user_right_type}`,
        expiresAt,
        { code: 'grant.purchase', params: { product: order.product_name, product_id: Number(order.product_id) } },
      );
      granted.push({ user_right_type: right.user_right_type, num, expires_at: expiresAt });
    }
    return { changed: true, order: await getOrder(trx, orderNo), granted };
  });
}

/** A product that can be ordered now; 404 `pay.unknown_product` for an unknown one or one off sale. */
export async function orderableProduct(db: Db, productId: number) {
  const product = await findProduct(db, productId);
  if (!product || Number(product.on_sale) !== 1) throw notFound('pay.unknown_product');
  return product;
}

/** The gateway's QR code of a pending order. */
export const setOrderCodeUrl = (db: Db, orderNo: string, codeUrl: string) => setCodeUrl(db, orderNo, codeUrl);

/** Closes a pending order (its QR code is spent, or the gateway failed); false when it was no longer pending. */
export const closePendingOrder = (db: Db, orderNo: string) => closeOrder(db, orderNo);

/** A pending order past its expiry is closed as it is read; the order as it is now. */
export async function closedIfExpired(db: Db, order: OrderRow): Promise<OrderRow> {
  if (order.status !== 'pending' || Date.parse(order.expire_at) >= Date.now()) return order;
  if (!(await closeOrder(db, order.order_no))) return order;
  return (await findOrder(db, order.order_no))!;
}

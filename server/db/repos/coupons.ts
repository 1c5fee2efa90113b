import type { Insertable, Selectable } from 'kysely';
import type { Db } from '..';
import type { CouponCodesTable } from '../schema';

/** Redemption codes (`coupon_codes`), stored as the sha256 of the normalised code (domain/commerce/coupons.ts). */

export type CouponRecord = Selectable<CouponCodesTable>;

/** Stores codes in one statement. */
export async function insertCoupons(db: Db, values: Array<Insertable<CouponCodesTable>>): Promise<void> {
  await db.insertInto('coupon_codes').values(values).execute();
}

export async function findCouponByHash(db: Db, codeHash: string): Promise<CouponRecord | undefined> {
  return db.selectFrom('coupon_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
}

/**
 * Marks the code used by `uid` unless it is used already; whether this call did. The guard is re-checked under the
 * row lock (PostgreSQL) or by the single writer (SQLite), so of two concurrent redemptions one updates nothing.
 */
export async function claimCoupon(db: Db, id: number, uid: number, usedAt: string): Promise<boolean> {
  const res = await db
    .updateTable('coupon_codes')
    .set({ used_by: uid, used_at: usedAt })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Every code (of one batch if given) in id order, without its hash. */
export async function findCoupons(db: Db, batch?: string): Promise<Array<Omit<CouponRecord, 'code_hash'>>> {
  let query = db
    .selectFrom('coupon_codes')
    .select([
      'id',
      'hint',
      'batch',
      'user_right_type',
      'amount',
      'valid_days',
      'expires_at',
      'created_at',
      'used_by',
      'used_at',
    ]);
  if (batch) query = query.where('batch', '=', batch);
  return query.orderBy('id').execute();
}

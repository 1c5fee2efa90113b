import type { Selectable } from 'kysely';
import type { CouponCodesTable } from '../../db/schema';
import { createHash, randomInt, randomUUID } from 'node:crypto';
import type { Db } from '../../db';
import { nowIso } from '../../db';
import { claimCoupon, findCouponByHash, findCoupons, insertCoupons } from '../../db/repos/coupons';
import { conflict, notFound } from '../../errors';
import { addGrant, amountText, grantDefaultRights, rightTitle, RIGHT_TYPES, UNLIMITED } from '../rights/ledger';
import type { Lang } from '../locale';

/**
 * Redemption codes (route /redemption, `POST /user/right_coupon_code/v1/use`).
 *
 * - A code is 16 characters of Crockford's base 32 (no I, L, O, U) from `crypto.randomInt`, printed in groups of
 *   four (`7KQ2-M9XD-...`): 80 random bits, so guessing is hopeless even before the rate limit.
 * - Only the sha256 of the normalised code is stored (plus its last four characters for the admin listing): a
 *   copy of the database does not give away unused codes. The admin CLI prints the codes once.
 * - Input is normalised before hashing: upper case, dashes and spaces dropped, O -> 0 and I / L -> 1.
 * - One use per code across all users: the redemption marks the code used with a conditional
 *   `UPDATE ... WHERE used_at IS NULL` and adds the grant (`addGrant`, source `coupon:<id>`) in the same
 *   transaction; a second, simultaneous redemption updates no row and is refused (409).
 * - A code may have a redemption deadline (`expires_at`) and may grant time-limited rights (`valid_days`);
 *   without `valid_days` the granted amount is disposable (never expires).
 */

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_LENGTH = 16;
export const MAX_COUPONS_PER_BATCH = 10_000;

export const COUPON_MESSAGES = {
  unknown: 'coupon.unknown',
  used: 'coupon.used',
  usedByYou: 'coupon.used_by_you',
  expired: 'coupon.expired',
} as const;

export function normaliseCode(code: string): string {
  return code
    .toUpperCase()
    .replace(/[\s-]+/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
}

const hashCode = (code: string) => createHash('sha256').update(normaliseCode(code)).digest('hex');

function newCode(): string {
  let raw = '';
  for (let i = 0; i < CODE_LENGTH; i++) raw += ALPHABET[randomInt(ALPHABET.length)];
  return raw.match(/.{4}/g)!.join('-');
}

export interface CouponBatch {
  rightType: number;
  amount: number;
  count: number;
  /** Last moment the codes can be redeemed (ISO-8601); null = no deadline. */
  expiresAt?: string | null;
  /** Days the granted rights stay valid after redemption; null = disposable (no expiry). */
  validDays?: number | null;
}

/** Creates `count` codes and returns them (the only time they exist in clear). */
export async function createCoupons(db: Db, batch: CouponBatch): Promise<{ batch: string; codes: string[] }> {
  if (!(RIGHT_TYPES as readonly number[]).includes(batch.rightType))
    throw new RangeError(`right type must be one of ${RIGHT_TYPES.join(', ')}`);
  if (!Number.isInteger(batch.amount) || batch.amount < 1 || batch.amount > UNLIMITED)
    throw new RangeError(`amount must be an integer from 1 to ${UNLIMITED}`);
  if (!Number.isInteger(batch.count) || batch.count < 1 || batch.count > MAX_COUPONS_PER_BATCH)
    throw new RangeError(`count must be an integer from 1 to ${MAX_COUPONS_PER_BATCH}`);
  if (batch.validDays != null && (!Number.isInteger(batch.validDays) || batch.validDays < 1 || batch.validDays > 3650))
    throw new RangeError('valid days must be an integer from 1 to 3650');
  if (batch.expiresAt != null && !(Date.parse(batch.expiresAt) > Date.now()))
    throw new RangeError('the expiry must be a date in the future');
  const id = randomUUID();
  const now = nowIso();
  const codes = Array.from({ length: batch.count }, newCode);
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < codes.length; i += 500) {
      await insertCoupons(
        trx,
        codes.slice(i, i + 500).map((code) => ({
          code_hash: hashCode(code),
          hint: code.slice(-4),
          batch: id,
          user_right_type: batch.rightType,
          amount: batch.amount,
          valid_days: batch.validDays ?? null,
          expires_at: batch.expiresAt ? new Date(batch.expiresAt).toISOString() : null,
          created_at: now,
          used_by: null,
          used_at: null,
        })),
      );
    }
  });
  return { batch: id, codes };
}

export interface GrantedRight {
  user_right_type: number;
  title: string;
  num: number;
  num_desc: string;
}

/**
 * Redeems a code for the user: exactly one caller ever wins a code. Throws 404 / 409 AppErrors with the spec's words.
 */
export async function redeemCoupon(db: Db, uid: number, code: string, lang: Lang = 'cn'): Promise<GrantedRight[]> {
  await grantDefaultRights(db, uid);
  const codeHash = hashCode(code);
  return db.transaction().execute(async (trx) => {
    const row = await findCouponByHash(trx, codeHash);
    if (!row) throw notFound(COUPON_MESSAGES.unknown);
    if (row.used_at) throw conflict(Number(row.used_by) === uid ? COUPON_MESSAGES.usedByYou : COUPON_MESSAGES.used);
    const now = new Date();
    if (row.expires_at && row.expires_at <= now.toISOString()) throw conflict(COUPON_MESSAGES.expired);
    // The guard re-checked under the row lock (PostgreSQL) / the single writer (SQLite): the loser updates nothing.
    if (!(await claimCoupon(trx, row.id, uid, now.toISOString()))) throw conflict(COUPON_MESSAGES.used);
    const type = Number(row.user_right_type);
    const amount = Number(row.amount);
    const expiresAt = row.valid_days
      ? new Date(now.getTime() + Number(row.valid_days) * 86_400_000).toISOString()
      : null;
    await addGrant(trx, uid, type, amount, `coupon:${row.id}`, expiresAt, 'grant.coupon');
    return [
      {
        user_right_type: type,
        title: rightTitle(type, lang),
        num: amount,
        num_desc: amountText(type, amount, lang),
      },
    ];
  });
}

export type CouponListing = Omit<Selectable<CouponCodesTable>, 'code_hash'>;

/** Codes for the admin listing (never the codes themselves: only their last four characters). */
export async function listCoupons(db: Db, batch?: string): Promise<CouponListing[]> {
  const rows = await findCoupons(db, batch);
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    user_right_type: Number(r.user_right_type),
    amount: Number(r.amount),
    used_by: r.used_by === null ? null : Number(r.used_by),
    valid_days: r.valid_days === null ? null : Number(r.valid_days),
  }));
}

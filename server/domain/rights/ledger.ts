import type { Db } from '../../db';
import { nowIso } from '../../db';
import { findRightRecordPage, insertRightRecord } from '../../db/repos/right-records';
import {
  findConsumableGrants,
  findGrantId,
  findLiveGrants,
  giveBackToGrant,
  insertGrant,
  insertGrantIfMissing,
  setGrantAmount,
  takeFromGrant,
} from '../../db/repos/rights';
import { findUserRole } from '../../db/repos/users';
import { ALLOCATION_PREFIX } from '../../db/repos/team-packages';
import type { ServerConfig } from '../../config';
import type { Lang } from '../locale';
import { reasonColumns, reasonText, type RightReason } from './reasons';
import { productNamer, purchaseProduct } from '../commerce/product-names';
import { amountText, defaultGrants, LIMIT_TYPES, RIGHT_TYPES, rightTitle, UNLIMITED } from './catalogue';
import { drawFromTeamPool } from '../teams/packages';

// The catalogue is read through this module too, so a caller of the ledger imports one place.
export {
  amountText,
  countChars,
  defaultGrants,
  LIMIT_TYPES,
  Right,
  RIGHT_INFO,
  RIGHT_TYPES,
  rightTitle,
  UNLIMITED,
  type RightType,
} from './catalogue';

/**
 * Rights keyed by `user_right_type` (spec §3). A user's rights are the sum of their grants:
 *
 * - a grant is disposable (`expires_at` null) or time-limited (`expires_at` set; ignored once past);
 * - consumable rights (1 high-speed characters, 2 images, 8192 fine-proofreading, ...) are the sum of the
 *   `remaining` of live grants and go down when used;
 * - limit rights (32 web max characters per check, 64, 128, 262144, 524288) are the largest `total` of the
 *   live grants and are never consumed.
 *
 * Every change is written to `right_records` (negative `num` = consumption, positive = grant / refund).
 *
 * Default grants (given the first time a user's rights are read or used, so accounts created before this
 * code, by registration or by the admin CLI all get them; idempotent through the unique (uid, source) index):
 *
 * | role | 1 high-speed characters | 32 max per check | 64 doc max | 128 plugin max | 16 advanced | 8192 fine | 4096
 * compares | 256 doc uploads |
 * |---|---|---|---|---|---|---|---|---|
 * | free, user, user_admin, dic_admin | 20,000 (disposable) | 5,000 | 20,000 | 5,000 | 0 | 0 | 5 | 20 |
 * | admin, root | 1,000,000,000 | 200,000 | 1,000,000 | 200,000 | 1,000,000,000 | 1,000,000,000 | 1,000,000,000 |
 * 1,000,000,000 |
 *
 * Besides: 2 image checks (10), 4 PDF checks and 8 PPT checks (5 each), 1024 audio and 2048 video minutes (10
 * each) for the free roles; unlimited for admins (65536 publication proofreading too). A right with an unlimited
 * grant (total UNLIMITED) reads UNLIMITED however much of it was used.
 *
 * Without a grant of 262144 / 524288 the compare limits come from COMPARE_MAX_PAGES (200) and
 * COMPARE_MAX_SIZE_MB (20), and the rights read as those values.
 *
 * Characters are counted as Unicode code points that are not white space (`countChars`).
 */

/**
 * The app's compare ceilings and team-pool rule (its config objects themselves, so a change to them applies): set by
 * buildApp, as rights are read and taken on call paths that have only a database at hand. Until then the defaults.
 */
let settings: Pick<ServerConfig, 'compare' | 'team'> = {
  compare: { maxPages: 200, maxSizeMb: 20 },
  team: { inviteDays: 7, poolFallback: true, defaultSeats: 20 },
};

export function configureRights(config: Pick<ServerConfig, 'compare' | 'team'>): void {
  settings = { compare: config.compare, team: config.team };
}

/** Limits that apply without any grant: the server's compare ceilings (so the rights show what is enforced). */
const LIMIT_FALLBACKS: Record<number, () => number> = {
  262144: () => settings.compare.maxPages,
  524288: () => settings.compare.maxSizeMb,
};

// Per database (tests run several apps in one process): users whose defaults are known to exist.
const ensured = new WeakMap<object, Set<number>>();

/** Gives the user's role defaults once (idempotent; safe under concurrency). Exported for the register path. */
export async function grantDefaultRights(db: Db, uid: number): Promise<void> {
  let done = ensured.get(db);
  if (!done) ensured.set(db, (done = new Set()));
  if (done.has(uid)) return;
  const role = await findUserRole(db, uid);
  if (role === undefined) return;
  const now = nowIso();
  for (const [type, amount] of Object.entries(defaultGrants(role))) {
    const inserted = await insertGrantIfMissing(db, {
      uid,
      user_right_type: Number(type),
      total: amount,
      remaining: amount,
      expires_at: null,
      source: `default:${type}`,
      created_at: now,
    });
    if (inserted && !LIMIT_TYPES.has(Number(type))) {
      await insertRightRecord(db, {
        uid,
        user_right_type: Number(type),
        num: amount,
        ...reasonColumns('grant.default'),
        ref: null,
        created_at: now,
      });
    }
  }
  done.add(uid);
}

export interface RightView {
  user_right_type: number;
  title: string;
  disposable_num: number;
  num_desc: string;
  total_num: number;
  expire_time: string | null;
}

/** Remaining amount (consumable) or ceiling (limit types) of one right. */
export async function rightBalance(db: Db, uid: number, type: number): Promise<number> {
  return (await rightView(db, uid, type)).disposable_num;
}

export async function rightView(db: Db, uid: number, type: number, lang: Lang = 'cn'): Promise<RightView> {
  return (await rightViews(db, uid, [type], lang))[0];
}

/** The rights of `types`, their titles and amounts written in `lang`. */
export async function rightViews(
  db: Db,
  uid: number,
  types: readonly number[] = RIGHT_TYPES,
  lang: Lang = 'cn',
): Promise<RightView[]> {
  await grantDefaultRights(db, uid);
  const now = nowIso();
  const rows = await findLiveGrants(db, uid, now);
  return types.map((type) => {
    const live = rows.filter((g) => Number(g.user_right_type) === type);
    const limit = LIMIT_TYPES.has(type);
    const granted = limit
      ? Math.max(0, ...live.map((g) => Number(g.total)))
      : live.reduce((s, g) => s + Number(g.remaining), 0);
    // an unlimited grant stays unlimited once some of it is used (999,999,704 left is not a balance to show)
    const unlimited = !limit && live.some((g) => Number(g.total) >= UNLIMITED);
    const amount = unlimited
      ? Math.max(UNLIMITED, granted)
      : limit && granted === 0 && LIMIT_FALLBACKS[type]
        ? LIMIT_FALLBACKS[type]()
        : granted;
    const total = limit ? amount : live.reduce((s, g) => s + Number(g.total), 0);
    const expiries = live
      .map((g) => g.expires_at)
      .filter((e): e is string => !!e)
      .sort();
    return {
      user_right_type: type,
      title: rightTitle(type, lang),
      disposable_num: amount,
      num_desc: amountText(type, amount, lang),
      total_num: total,
      expire_time: expiries.length ? expiries[expiries.length - 1] : null,
    };
  });
}

export class InsufficientRight extends Error {
  constructor(
    readonly type: number,
    readonly available: number,
    readonly needed: number,
  ) {
    super(`right ${type}: ${available} < ${needed}`);
  }
}

/** What a consumption took from which grant, for refunds. */
export interface Consumption {
  uid: number;
  type: number;
  amount: number;
  parts: Array<{ grantId: number; amount: number }>;
  ref: string | null;
}

/**
 * Takes `amount` of a consumable right in one transaction: grants expiring first are used first, each
 * update is guarded (`remaining >= take`), and any shortfall rolls everything back, so concurrent calls
 * can never drive a balance below zero. Throws InsufficientRight.
 */
export async function consumeRight(
  db: Db,
  uid: number,
  type: number,
  amount: number,
  reason: RightReason,
  ref: string | null = null,
  /** runs in the same transaction once the amount is taken (a reservation row that must not be lost) */
  within?: (trx: Db, consumption: Consumption) => Promise<void>,
): Promise<Consumption> {
  await grantDefaultRights(db, uid);
  if (amount <= 0) return { uid, type, amount: 0, parts: [], ref };
  try {
    return await takeRight(db, uid, type, amount, reason, ref, within);
  } catch (error) {
    if (!(error instanceof InsufficientRight) || !settings.team.poolFallback) throw error;
    // a team member short of the right draws the rest from the team's packages
    if ((await drawFromTeamPool(db, uid, type, error.needed - error.available)) <= 0) throw error;
    return takeRight(db, uid, type, amount, reason, ref, within);
  }
}

async function takeRight(
  db: Db,
  uid: number,
  type: number,
  amount: number,
  reason: RightReason,
  ref: string | null,
  within?: (trx: Db, consumption: Consumption) => Promise<void>,
): Promise<Consumption> {
  return db.transaction().execute(async (trx) => {
    const now = nowIso();
    // No SELECT ... FOR UPDATE needed: each UPDATE below is guarded by `remaining >= take` (PostgreSQL re-checks
    // the guard after waiting on a concurrent writer's row lock; SQLite serialises writers), and a
    // guard that fails rolls the whole transaction back.
    // expiring first; among equals, what the team allocated before the member's own rights (the team's work
    // is paid by the team)
    const teamFirst = (g: { source: string }) => (g.source.startsWith(ALLOCATION_PREFIX) ? 0 : 1);
    const grants = (await findConsumableGrants(trx, uid, type, now)).sort(
      (a, b) =>
        (a.expires_at ?? '9999').localeCompare(b.expires_at ?? '9999') ||
        teamFirst(a) - teamFirst(b) ||
        Number(a.id) - Number(b.id),
    );
    const available = grants.reduce((s, g) => s + Number(g.remaining), 0);
    if (available < amount) throw new InsufficientRight(type, available, amount);
    const parts: Consumption['parts'] = [];
    let left = amount;
    for (const g of grants) {
      if (left <= 0) break;
      const take = Math.min(left, Number(g.remaining));
      if (!(await takeFromGrant(trx, g.id, take))) throw new InsufficientRight(type, available, amount);
      parts.push({ grantId: Number(g.id), amount: take });
      left -= take;
    }
    await insertRightRecord(trx, {
      uid,
      user_right_type: type,
      num: -amount,
      ...reasonColumns(reason),
      ref,
      created_at: now,
    });
    const consumption = { uid, type, amount, parts, ref };
    if (within) await within(trx, consumption);
    return consumption;
  });
}

/** Gives back up to `amount` of a consumption (latest parts first); returns what was refunded. */
export async function refundRight(
  db: Db,
  consumption: Consumption,
  amount: number,
  reason: RightReason,
  /** runs in the same transaction (the reservation's release) */
  within?: (trx: Db) => Promise<void>,
): Promise<number> {
  let left = Math.min(amount, consumption.amount);
  if (left <= 0) {
    if (within) await within(db);
    return 0;
  }
  const refunded = left;
  await db.transaction().execute(async (trx) => {
    for (const part of [...consumption.parts].reverse()) {
      if (left <= 0) break;
      const give = Math.min(left, part.amount);
      await giveBackToGrant(trx, part.grantId, give);
      part.amount -= give;
      left -= give;
    }
    await insertRightRecord(trx, {
      uid: consumption.uid,
      user_right_type: consumption.type,
      num: refunded,
      ...reasonColumns(reason),
      ref: consumption.ref,
      created_at: nowIso(),
    });
    consumption.amount -= refunded;
    if (within) await within(trx);
  });
  return refunded;
}

/**
 * Gives back a job's stored charge (the JSON of its consumption, whole) when `clear` is the call that removed it from
 * the job: a cancel in one process and a failure in another race, and only the one that cleared it refunds.
 */
export async function refundStoredCharge(
  db: Db,
  charge: string | null,
  clear: (charge: string) => Promise<boolean>,
  reason: RightReason,
): Promise<void> {
  if (!charge || !(await clear(charge))) return;
  const consumption = JSON.parse(charge) as Consumption;
  await refundRight(db, consumption, consumption.amount, reason);
}

/** Adds a grant (orders, coupons, the share bonus). `source` must be unique per user (e.g. `order:12`). */
export async function addGrant(
  db: Db,
  uid: number,
  type: number,
  amount: number,
  source: string,
  expiresAt: string | null = null,
  reason: RightReason = 'grant.other',
): Promise<boolean> {
  const now = nowIso();
  const added = await insertGrantIfMissing(db, {
    uid,
    user_right_type: type,
    total: amount,
    remaining: amount,
    expires_at: expiresAt,
    source,
    created_at: now,
  });
  if (added)
    await insertRightRecord(db, {
      uid,
      user_right_type: type,
      num: amount,
      ...reasonColumns(reason),
      ref: source,
      created_at: now,
    });
  return added;
}

/** Test / admin helper: sets the remaining amount of the user's default grant of a type. */
export async function setDefaultRemaining(db: Db, uid: number, type: number, remaining: number): Promise<void> {
  await grantDefaultRights(db, uid);
  const source = `default:${type}`;
  const existing = await findGrantId(db, uid, source);
  if (existing !== undefined) await setGrantAmount(db, existing, remaining);
  else
    await insertGrant(db, {
      uid,
      user_right_type: type,
      total: remaining,
      remaining,
      expires_at: null,
      source,
      created_at: nowIso(),
    });
}

/** A page of the rights history (/right's records), newest first, written in `lang`. */
export async function rightHistory(
  db: Db,
  uid: number,
  type: number | undefined,
  page: { num: number; size: number },
  lang: Lang,
) {
  const { total, rows } = await findRightRecordPage(db, uid, { userRightType: type }, page);
  const product = purchaseProduct(await productNamer(db, lang));
  return {
    total,
    list: rows.map((row) => ({
      id: Number(row.id),
      user_right_type: Number(row.user_right_type),
      title: rightTitle(Number(row.user_right_type), lang),
      num: Number(row.num),
      reason: reasonText(row, lang, product),
      created_at: row.created_at,
    })),
  };
}

import { sql } from 'kysely';
import type { Db } from '..';
import type { RateLimitsTable } from '../schema';

/** Request counters of the rate limiter (`rate_limits`), shared by every process (domain/accounts/rate-store.ts). */

export type RateCounter = Pick<RateLimitsTable, 'count' | 'reset_at'>;

/**
 * Counts one request under `key` in one upsert and returns the counter: a new counter, or one whose window ended
 * at or before `now`, starts again at 1 with its window ending at `resetAt`. Times are epoch milliseconds.
 */
export async function incrementRateCounter(db: Db, key: string, now: number, resetAt: number): Promise<RateCounter> {
  const result = await sql<RateCounter>`
    INSERT INTO rate_limits (key, count, reset_at) VALUES (${key}, 1, ${resetAt})
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limits.reset_at <= ${now} THEN 1 ELSE rate_limits.count + 1 END,
      reset_at = CASE WHEN rate_limits.reset_at <= ${now} THEN ${resetAt} ELSE rate_limits.reset_at END
    RETURNING count, reset_at`.execute(db);
  return result.rows[0];
}

/** Takes one request back from a counter whose window is still running (a call refunded); never below 0. */
export async function decrementRateCounter(db: Db, key: string, now: number): Promise<void> {
  await db
    .updateTable('rate_limits')
    .set((eb) => ({ count: eb('count', '-', 1) }))
    .where('key', '=', key)
    .where('count', '>', 0)
    .where('reset_at', '>', now)
    .execute();
}

export async function findRateCounter(db: Db, key: string): Promise<RateCounter | undefined> {
  return db.selectFrom('rate_limits').select(['count', 'reset_at']).where('key', '=', key).executeTakeFirst();
}

/** Deletes the counters whose window ended at or before `now` (epoch milliseconds). */
export async function deleteExpiredRateCounters(db: Db, now: number): Promise<void> {
  await db.deleteFrom('rate_limits').where('reset_at', '<=', now).execute();
}

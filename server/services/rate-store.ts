import { sql } from 'kysely';
import type { Db } from '../db';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * A store for @fastify/rate-limit in the shared database, so every process counts against the same limits
 * (with several processes the default in-memory store would multiply each limit by their number). One upsert
 * per call: a window that has run out starts again at 1. Expired rows are removed by `pruneRateLimits`.
 */
export function databaseRateStore(db: Db) {
  return class DatabaseRateStore {
    incr(key: string, cb: Callback, timeWindow: number): void {
      const now = Date.now();
      // the window is part of the key: two limits on the same subject never share a counter
      const id = `${timeWindow}|${key}`;
      sql<{ count: number; reset_at: number | string }>`
        INSERT INTO rate_limits (key, count, reset_at) VALUES (${id}, 1, ${now + timeWindow})
        ON CONFLICT (key) DO UPDATE SET
          count = CASE WHEN rate_limits.reset_at <= ${now} THEN 1 ELSE rate_limits.count + 1 END,
          reset_at = CASE WHEN rate_limits.reset_at <= ${now} THEN ${now + timeWindow} ELSE rate_limits.reset_at END
        RETURNING count, reset_at`
        .execute(db)
        .then(
          (result) => {
            const row = result.rows[0];
            cb(null, { current: Number(row.count), ttl: Math.max(0, Number(row.reset_at) - now) });
          },
          (error: Error) => cb(error),
        );
    }

    read(key: string, cb: Callback, timeWindow: number): void {
      const now = Date.now();
      db.selectFrom('rate_limits')
        .select(['count', 'reset_at'])
        .where('key', '=', `${timeWindow}|${key}`)
        .executeTakeFirst()
        .then(
          (row) => {
            if (!row || Number(row.reset_at) <= now) cb(null, { current: 0, ttl: 0 });
            else cb(null, { current: Number(row.count), ttl: Number(row.reset_at) - now });
          },
          (error: Error) => cb(error),
        );
    }

    child(): DatabaseRateStore {
      return this;
    }
  };
}

/** Deletes counters whose window has run out. */
export async function pruneRateLimits(db: Db): Promise<void> {
  await db.deleteFrom('rate_limits').where('reset_at', '<=', Date.now()).execute();
}

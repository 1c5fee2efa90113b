import type { Db } from '../db';
import { deleteExpiredRateCounters, findRateCounter, incrementRateCounter } from '../db/repos/rate-limits';

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
      incrementRateCounter(db, id, now, now + timeWindow).then(
        (row) => {
          cb(null, { current: Number(row.count), ttl: Math.max(0, Number(row.reset_at) - now) });
        },
        (error: Error) => cb(error),
      );
    }

    read(key: string, cb: Callback, timeWindow: number): void {
      const now = Date.now();
      findRateCounter(db, `${timeWindow}|${key}`).then(
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
  await deleteExpiredRateCounters(db, Date.now());
}

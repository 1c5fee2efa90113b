import type { Db } from '../../db';
import {
  decrementRateCounter,
  deleteExpiredRateCounters,
  findRateCounter,
  incrementRateCounter,
} from '../../db/repos/rate-limits';

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

    /** Gives one request back (a refunded call), within the window it was counted in. */
    async decr(key: string, timeWindow: number): Promise<void> {
      await decrementRateCounter(db, `${timeWindow}|${key}`, Date.now());
    }

    child(): DatabaseRateStore {
      return this;
    }
  };
}

/** Counters kept in memory before expired ones are swept out (and, past twice this, the oldest dropped). */
const MEMORY_KEYS = 20_000;

/**
 * One process's store, counting like @fastify/rate-limit's own in-memory store (a fixed window from the first
 * request) but able to give a request back: every limiter shares it, keyed by window and key like the database's.
 */
export function memoryRateStore() {
  const counters = new Map<string, { current: number; start: number }>();
  const sweep = (now: number, timeWindowOf: (id: string) => number) => {
    for (const [id, c] of counters) if (c.start + timeWindowOf(id) <= now) counters.delete(id);
    for (const id of counters.keys()) {
      if (counters.size <= MEMORY_KEYS) break;
      counters.delete(id);
    }
  };
  return class MemoryRateStore {
    incr(key: string, cb: Callback, timeWindow: number): void {
      const now = Date.now();
      const id = `${timeWindow}|${key}`;
      let counter = counters.get(id);
      if (!counter || counter.start + timeWindow <= now) {
        if (!counter && counters.size >= 2 * MEMORY_KEYS) sweep(now, (i) => Number(i.slice(0, i.indexOf('|'))));
        counter = { current: 0, start: now };
        counters.set(id, counter);
      }
      counter.current++;
      cb(null, { current: counter.current, ttl: counter.start + timeWindow - now });
    }

    read(key: string, cb: Callback, timeWindow: number): void {
      const now = Date.now();
      const counter = counters.get(`${timeWindow}|${key}`);
      if (!counter || counter.start + timeWindow <= now) cb(null, { current: 0, ttl: 0 });
      else cb(null, { current: counter.current, ttl: counter.start + timeWindow - now });
    }

    async decr(key: string, timeWindow: number): Promise<void> {
      const counter = counters.get(`${timeWindow}|${key}`);
      if (counter && counter.current > 0 && counter.start + timeWindow > Date.now()) counter.current--;
    }

    child(): MemoryRateStore {
      return this;
    }
  };
}

/** Deletes counters whose window has run out. */
export async function pruneRateLimits(db: Db): Promise<void> {
  await deleteExpiredRateCounters(db, Date.now());
}

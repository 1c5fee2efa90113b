import type { Db } from '../../db';
import {
  deleteFailures,
  deleteSpentFailures,
  findLockedUntil,
  incrementFailures,
  lockSubject,
} from '../../db/repos/lockouts';
import { tooManyRequests } from '../../errors';
import { verifyPassword } from './passwords';

/**
 * Wrong passwords counted per subject and a lock after too many. Kept in the database (table auth_failures),
 * not in the in-memory rate limiter, so every process of a deployment sees the same count and a restart does
 * not lift a lock. Subjects:
 * - `login:<phone>` for logging in. Unknown phones are counted and locked like registered ones, so neither
 *   the answer nor the lock tells whether a phone is registered.
 * - `account:<uid>` for the current-password checks of a logged-in account (password change, phone change,
 *   closing the account): a stolen token must not become a password oracle.
 * FAILURE_MAX failures within FAILURE_WINDOW_MS lock the subject for LOCK_MS; a right password clears the count.
 * Constants rather than settings: they are the product's rule, and the lock message states them.
 */
export const FAILURE_MAX = 5;
export const FAILURE_WINDOW_MS = 15 * 60_000;
export const LOCK_MS = 15 * 60_000;

export const loginSubject = (phone: string) => `login:${phone}`;
export const accountSubject = (uid: number) => `account:${uid}`;

/** Whole minutes left, at least 1 (the messages say "in N minutes"). */
const minutesOf = (ms: number) => Math.max(1, Math.ceil(ms / 60_000));

/** What a locked subject is told: too many failed logins (a phone), or wrong passwords (a signed-in account). */
export type LockedMessage = 'lockout.login' | 'lockout.password';

/** Milliseconds the subject stays locked (0 when it is not). */
export async function lockedFor(db: Db, subject: string, now = Date.now()): Promise<number> {
  const lockedUntil = await findLockedUntil(db, subject);
  return lockedUntil ? Math.max(0, Date.parse(lockedUntil) - now) : 0;
}

/** Counts an attempt (a failure until it proves right); returns the count in the window. One statement. */
async function countAttempt(db: Db, subject: string, now: number): Promise<number> {
  const at = new Date(now).toISOString();
  const windowStart = new Date(now - FAILURE_WINDOW_MS).toISOString();
  const failures = await incrementFailures(db, subject, at, windowStart);
  // Rows of subjects nobody tries again (typically unknown phones) would pile up: sweep now and then.
  if (Math.random() < 0.02) await sweep(db, now);
  return failures;
}

/** Locks the subject for LOCK_MS; the lock also starts a new window, so once it ends there are FAILURE_MAX tries. */
async function lock(db: Db, subject: string, now: number): Promise<void> {
  await lockSubject(db, subject, new Date(now).toISOString(), new Date(now + LOCK_MS).toISOString());
}

/** Counts a failure; returns the lock it started in ms, or 0. */
export async function recordFailure(db: Db, subject: string, now = Date.now()): Promise<number> {
  if ((await countAttempt(db, subject, now)) < FAILURE_MAX) return 0;
  await lock(db, subject, now);
  return LOCK_MS;
}

export async function clearFailures(db: Db, subject: string): Promise<void> {
  await deleteFailures(db, subject);
}

/** Deletes the rows whose window and lock are both over. */
export async function sweep(db: Db, now = Date.now()): Promise<void> {
  await deleteSpentFailures(db, new Date(now - FAILURE_WINDOW_MS).toISOString(), new Date(now).toISOString());
}

/**
 * Checks a password against `hash` under the subject's lockout: 429 with the minutes left while locked
 * (before any hashing), otherwise the failure is counted or the count cleared. `hash` may be a decoy: the
 * time spent is the same whether the account exists or not.
 */
export async function verifyWithLockout(
  db: Db,
  subject: string,
  password: string,
  hash: string,
  lockedMessage: LockedMessage,
): Promise<boolean> {
  const now = Date.now();
  const wait = await lockedFor(db, subject, now);
  if (wait > 0) throw tooManyRequests(wait / 1000, lockedMessage, { minutes: minutesOf(wait) });
  // Counted before the password is checked: guesses sent in parallel each take a place in the window, and those
  // past FAILURE_MAX are refused unchecked (counted after, forty parallel guesses were all checked).
  const attempt = await countAttempt(db, subject, now);
  if (attempt > FAILURE_MAX) throw tooManyRequests(LOCK_MS / 1000, lockedMessage, { minutes: minutesOf(LOCK_MS) });
  const ok = await verifyPassword(password, hash);
  if (ok) await clearFailures(db, subject);
  else if (attempt >= FAILURE_MAX) await lock(db, subject, now);
  return ok;
}

import { sql } from 'kysely';
import type { Db } from '../db';
import { tooManyRequests } from '../errors';
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
  const row = await db
    .selectFrom('auth_failures')
    .select('locked_until')
    .where('subject', '=', subject)
    .executeTakeFirst();
  return row?.locked_until ? Math.max(0, Date.parse(row.locked_until) - now) : 0;
}

/** Counts an attempt (a failure until it proves right); returns the count in the window. One statement. */
async function countAttempt(db: Db, subject: string, now: number): Promise<number> {
  const at = new Date(now).toISOString();
  const windowStart = new Date(now - FAILURE_WINDOW_MS).toISOString();
  const windowGone = sql<boolean>`auth_failures.window_started_at <= ${windowStart}`;
  const row = await db
    .insertInto('auth_failures')
    .values({ subject, failures: 1, window_started_at: at, locked_until: null })
    .onConflict((oc) =>
      oc.column('subject').doUpdateSet({
        failures: sql<number>`CASE WHEN ${windowGone} THEN 1 ELSE auth_failures.failures + 1 END`,
        window_started_at: sql<string>`CASE WHEN ${windowGone} THEN ${at} ELSE auth_failures.window_started_at END`,
      }),
    )
    .returning('failures')
    .executeTakeFirstOrThrow();
  // Rows of subjects nobody tries again (typically unknown phones) would pile up: sweep now and then.
  if (Math.random() < 0.02) await sweep(db, now);
  return Number(row.failures);
}

/** Locks the subject for LOCK_MS; the lock also starts a new window, so once it ends there are FAILURE_MAX tries. */
async function lock(db: Db, subject: string, now: number): Promise<void> {
  await db
    .updateTable('auth_failures')
    .set({
      failures: 0,
      window_started_at: new Date(now).toISOString(),
      locked_until: new Date(now + LOCK_MS).toISOString(),
    })
    .where('subject', '=', subject)
    .execute();
}

/** Counts a failure; returns the lock it started in ms, or 0. */
export async function recordFailure(db: Db, subject: string, now = Date.now()): Promise<number> {
  if ((await countAttempt(db, subject, now)) < FAILURE_MAX) return 0;
  await lock(db, subject, now);
  return LOCK_MS;
}

export async function clearFailures(db: Db, subject: string): Promise<void> {
  await db.deleteFrom('auth_failures').where('subject', '=', subject).execute();
}

/** Deletes the rows whose window and lock are both over. */
export async function sweep(db: Db, now = Date.now()): Promise<void> {
  const nowIso = new Date(now).toISOString();
  await db
    .deleteFrom('auth_failures')
    .where('window_started_at', '<=', new Date(now - FAILURE_WINDOW_MS).toISOString())
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', nowIso)]))
    .execute();
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
  if (wait > 0) throw tooManyRequests(lockedMessage, { minutes: minutesOf(wait) });
  // Counted before the password is checked: guesses sent in parallel each take a place in the window, and those
  // past FAILURE_MAX are refused unchecked (counted after, forty parallel guesses were all checked).
  const attempt = await countAttempt(db, subject, now);
  if (attempt > FAILURE_MAX) throw tooManyRequests(lockedMessage, { minutes: minutesOf(LOCK_MS) });
  const ok = await verifyPassword(password, hash);
  if (ok) await clearFailures(db, subject);
  else if (attempt >= FAILURE_MAX) await lock(db, subject, now);
  return ok;
}

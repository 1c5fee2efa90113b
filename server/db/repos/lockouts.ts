import { sql } from 'kysely';
import type { Db } from '..';

/** Wrong-password counts and locks per subject (`auth_failures`); the rules are domain/accounts/lockout.ts's. */

/** When the subject's lock ends; null or undefined when it has none. */
export async function findLockedUntil(db: Db, subject: string): Promise<string | null | undefined> {
  const row = await db
    .selectFrom('auth_failures')
    .select('locked_until')
    .where('subject', '=', subject)
    .executeTakeFirst();
  return row?.locked_until;
}

/**
 * Counts an attempt in one statement and returns the count of the window: a window that started at or before
 * `windowStart` (or none) is replaced by a new one starting `at` with a count of 1.
 */
export async function incrementFailures(db: Db, subject: string, at: string, windowStart: string): Promise<number> {
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
  return Number(row.failures);
}

/** Locks the subject until `lockedUntil`, with a new window starting `windowStart` and no failures counted. */
export async function lockSubject(db: Db, subject: string, windowStart: string, lockedUntil: string): Promise<void> {
  await db
    .updateTable('auth_failures')
    .set({ failures: 0, window_started_at: windowStart, locked_until: lockedUntil })
    .where('subject', '=', subject)
    .execute();
}

export async function deleteFailures(db: Db, subject: string): Promise<void> {
  await db.deleteFrom('auth_failures').where('subject', '=', subject).execute();
}

/** Deletes the rows whose window started at or before `windowStart` and whose lock (if any) ended by `now`. */
export async function deleteSpentFailures(db: Db, windowStart: string, now: string): Promise<void> {
  await db
    .deleteFrom('auth_failures')
    .where('window_started_at', '<=', windowStart)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .execute();
}

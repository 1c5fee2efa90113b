import type { Insertable, Selectable } from 'kysely';
import type { Db } from '..';
import type { SmsCodesTable } from '../schema';

/** SMS verification codes (`sms_codes`), stored hashed; issuing and checking them is domain/accounts/sms.ts. */

/** Marks every unused code of the phone and purpose used, so that none of them works any more. */
export async function useUpCodes(db: Db, phone: string, purpose: string, usedAt: string): Promise<void> {
  await db
    .updateTable('sms_codes')
    .set({ used_at: usedAt })
    .where('phone', '=', phone)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}

export async function insertSmsCode(db: Db, values: Insertable<SmsCodesTable>): Promise<void> {
  await db.insertInto('sms_codes').values(values).execute();
}

/** The newest unused code of the phone and purpose, expired or not. */
export async function findLatestUnusedCode(
  db: Db,
  phone: string,
  purpose: string,
): Promise<Selectable<SmsCodesTable> | undefined> {
  return db
    .selectFrom('sms_codes')
    .selectAll()
    .where('phone', '=', phone)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/**
 * Counts one attempt at the code, in one statement, while fewer than `max` were made; false when none is left.
 * Guesses sent in parallel each take their own place, so no more than `max` are ever compared.
 */
export async function countCodeAttempt(db: Db, id: number, max: number): Promise<boolean> {
  const result = await db
    .updateTable('sms_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('attempts', '<', max)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Uses the code up; false when another request used it first. */
export async function markCodeUsed(db: Db, id: number, usedAt: string): Promise<boolean> {
  const result = await db
    .updateTable('sms_codes')
    .set({ used_at: usedAt })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

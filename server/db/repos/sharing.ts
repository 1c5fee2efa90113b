import type { Insertable } from 'kysely';
import type { Db } from '..';
import type { ShareRecordsTable } from '../schema';

/** Every share of the product a user reported (`share_records`), rewarded or not (domain/commerce/sharing.ts). */

export async function insertShareRecord(db: Db, values: Insertable<ShareRecordsTable>): Promise<void> {
  await db.insertInto('share_records').values(values).execute();
}

/** How many shares the user has reported. */
export async function countShares(db: Db, uid: number): Promise<number> {
  const row = await db
    .selectFrom('share_records')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('uid', '=', uid)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

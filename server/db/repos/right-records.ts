import type { Insertable, Selectable } from 'kysely';
import type { Db } from '..';
import type { RightRecordsTable } from '../schema';
import type { Page } from './filters';

/** The rights history (`right_records`), written by domain/rights/ledger.ts. */

export type RightRecord = Pick<
  Selectable<RightRecordsTable>,
  'id' | 'user_right_type' | 'num' | 'reason' | 'reason_code' | 'reason_params' | 'created_at'
>;

/** One page of the user's records (of one right type if given), newest first, and how many there are in all. */
export async function findRightRecordPage(
  db: Db,
  uid: number,
  filter: { userRightType?: number },
  page: Page,
): Promise<{ total: number; rows: RightRecord[] }> {
  let base = db.selectFrom('right_records').where('uid', '=', uid);
  if (filter.userRightType !== undefined) base = base.where('user_right_type', '=', filter.userRightType);
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .select(['id', 'user_right_type', 'num', 'reason', 'reason_code', 'reason_params', 'created_at'])
    .orderBy('id', 'desc')
    .limit(page.size)
    .offset((page.num - 1) * page.size)
    .execute();
  return { total: Number(total.n), rows };
}

/** Writes one change of a right (negative `num` for a consumption, positive for a grant or a refund). */
export async function insertRightRecord(db: Db, values: Insertable<RightRecordsTable>): Promise<void> {
  await db.insertInto('right_records').values(values).execute();
}

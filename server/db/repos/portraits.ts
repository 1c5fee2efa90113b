import type { Selectable } from 'kysely';
import type { Db } from '..';
import type { PortraitsTable } from '../schema';

/** Uploaded avatars (`portraits`), one per account. */

export async function findPortrait(
  db: Db,
  uid: number,
): Promise<Pick<Selectable<PortraitsTable>, 'mime' | 'data'> | undefined> {
  return db.selectFrom('portraits').select(['mime', 'data']).where('uid', '=', uid).executeTakeFirst();
}

/** Stores the account's avatar, replacing the one it had. */
export async function savePortrait(
  db: Db,
  uid: number,
  portrait: { mime: string; data: Buffer; updated_at: string },
): Promise<void> {
  await db
    .insertInto('portraits')
    .values({ uid, ...portrait })
    .onConflict((oc) => oc.column('uid').doUpdateSet(portrait))
    .execute();
}

export async function deletePortrait(db: Db, uid: number): Promise<void> {
  await db.deleteFrom('portraits').where('uid', '=', uid).execute();
}

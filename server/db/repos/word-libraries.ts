import type { Insertable } from 'kysely';
import type { Db } from '..';
import type { UserWordLibrariesTable } from '../schema';

/** Which built-in word libraries each user selected (`user_word_libraries`); the libraries are files. */

/** The ids the user selected, in order, including any whose library file is gone. */
export async function findSelectedLibraryIds(db: Db, uid: number): Promise<number[]> {
  const rows = await db
    .selectFrom('user_word_libraries')
    .select('library_id')
    .where('uid', '=', uid)
    .orderBy('library_id')
    .execute();
  return rows.map((r) => r.library_id);
}

export async function deleteSelectedLibraries(db: Db, uid: number): Promise<void> {
  await db.deleteFrom('user_word_libraries').where('uid', '=', uid).execute();
}

export async function insertSelectedLibraries(
  db: Db,
  values: Array<Insertable<UserWordLibrariesTable>>,
): Promise<void> {
  await db.insertInto('user_word_libraries').values(values).execute();
}

import type { Insertable, Selectable } from 'kysely';
import type { Db } from '..';
import type { DictImportFailuresTable } from '../schema';

/** The rows rejected by a user's last dictionary import (`dict_import_failures`, one record per user). */

export async function findImportFailures(
  db: Db,
  uid: number,
): Promise<Pick<Selectable<DictImportFailuresTable>, 'filename' | 'rows'> | undefined> {
  return db.selectFrom('dict_import_failures').select(['filename', 'rows']).where('uid', '=', uid).executeTakeFirst();
}

export async function deleteImportFailures(db: Db, uid: number): Promise<void> {
  await db.deleteFrom('dict_import_failures').where('uid', '=', uid).execute();
}

/** Stores the failures of an import; the user's previous record must have been deleted first. */
export async function insertImportFailures(db: Db, values: Insertable<DictImportFailuresTable>): Promise<void> {
  await db.insertInto('dict_import_failures').values(values).execute();
}

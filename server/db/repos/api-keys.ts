import type { Selectable } from 'kysely';
import type { Db } from '..';
import type { ApiKeysTable } from '../schema';

/** API keys of the LanguageTool-compatible API (`api_keys`), one per account, stored as sha256. */

export async function findApiKey(db: Db, uid: number): Promise<Selectable<ApiKeysTable> | undefined> {
  return db.selectFrom('api_keys').selectAll().where('uid', '=', uid).executeTakeFirst();
}

/** Stores the account's key, replacing the one it had. */
export async function saveApiKey(db: Db, key: Selectable<ApiKeysTable>): Promise<void> {
  await db
    .insertInto('api_keys')
    .values(key)
    .onConflict((oc) =>
      oc.column('uid').doUpdateSet({ key_hash: key.key_hash, hint: key.hint, created_at: key.created_at }),
    )
    .execute();
}

/** The key hashes of the open accounts whose phone or login id is `username`. */
export async function findApiKeysOfUsername(
  db: Db,
  username: string,
): Promise<Array<{ uid: number; key_hash: string }>> {
  return db
    .selectFrom('users')
    .innerJoin('api_keys', 'api_keys.uid', 'users.uid')
    .select(['users.uid', 'api_keys.key_hash'])
    .where((eb) => eb.or([eb('users.phone', '=', username), eb('users.login_id', '=', username)]))
    .where('users.closed_at', 'is', null)
    .execute();
}

/** Deletes the account's key (it stops working at once). */
export async function deleteApiKey(db: Db, uid: number): Promise<void> {
  await db.deleteFrom('api_keys').where('uid', '=', uid).execute();
}

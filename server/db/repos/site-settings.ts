import type { Db } from '..';
import { nowIso } from '..';

/** What the site's operators set, by key (a JSON value); undefined while the built-in default applies. */
export async function findSetting(db: Db, key: string) {
  return db.selectFrom('site_settings').selectAll().where('key', '=', key).executeTakeFirst();
}

/** Sets a key's JSON value (inserted or replaced). */
export async function putSetting(db: Db, key: string, value: unknown): Promise<void> {
  const json = JSON.stringify(value);
  const now = nowIso();
  await db
    .insertInto('site_settings')
    .values({ key, value: json, updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: json, updated_at: now }))
    .execute();
}

/** Back to the built-in default. */
export async function deleteSetting(db: Db, key: string): Promise<void> {
  await db.deleteFrom('site_settings').where('key', '=', key).execute();
}

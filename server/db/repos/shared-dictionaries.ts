import type { Insertable, Selectable } from 'kysely';
import type { Db } from '..';
import type { EnterpriseDictsTable } from '../schema';

/**
 * A team's shared dictionaries (`enterprise_dicts`) and who uses them (`enterprise_dict_users`). Permission
 * checks stay with the callers (domain/teams/teams.ts): these functions only read and write the rows.
 */

export interface SharedDictionaryFilter {
  enterpriseId: number;
  /** the caller, whose own use of each dictionary is counted as `mine` */
  viewer: number;
  /** only members with this status count as users of a dictionary (domain/teams/teams.ts MEMBER_STATUS.active) */
  memberStatus: number;
  /** only these dictionaries (an empty list matches none) */
  ids?: number[];
}

/** The dictionary, whichever team it belongs to. */
export async function findSharedDictionary(db: Db, id: number): Promise<Selectable<EnterpriseDictsTable> | undefined> {
  return db.selectFrom('enterprise_dicts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The team's dictionaries in id order, with their word count, user count and the viewer's use of them. */
export async function findSharedDictionaries(db: Db, where: SharedDictionaryFilter) {
  let query = db
    .selectFrom('enterprise_dicts as d')
    .leftJoin('users as c', 'c.uid', 'd.created_by')
    .select((eb) => [
      'd.id',
      'd.name',
      'd.description',
      'd.created_at',
      'd.updated_at',
      'c.name as creator_name',
      eb
        .selectFrom('enterprise_dict_words as w')
        .select((w) => w.fn.countAll().as('n'))
        .whereRef('w.dict_id', '=', 'd.id')
        .as('word_count'),
      eb
        .selectFrom('enterprise_dict_users as u')
        .innerJoin('enterprise_members as m', (j) =>
          j.onRef('m.uid', '=', 'u.uid').onRef('m.enterprise_id', '=', 'd.enterprise_id'),
        )
        .select((u) => u.fn.countAll().as('n'))
        .whereRef('u.dict_id', '=', 'd.id')
        .where('m.status', '=', where.memberStatus)
        .as('user_count'),
      eb
        .selectFrom('enterprise_dict_users as me')
        .select((u) => u.fn.countAll().as('n'))
        .whereRef('me.dict_id', '=', 'd.id')
        .where('me.uid', '=', where.viewer)
        .as('mine'),
    ])
    .where('d.enterprise_id', '=', where.enterpriseId);
  // `in ()` is not valid SQL: an id that never exists stands in for the empty list
  if (where.ids) query = query.where('d.id', 'in', where.ids.length ? where.ids : [0]);
  return query.orderBy('d.id').execute();
}

/** Id and name of each of the team's dictionaries, in id order. */
export async function findDictionaryOptions(
  db: Db,
  enterpriseId: number,
): Promise<Array<{ id: number; name: string }>> {
  return db
    .selectFrom('enterprise_dicts')
    .select(['id', 'name'])
    .where('enterprise_id', '=', enterpriseId)
    .orderBy('id')
    .execute();
}

/** Creates a dictionary; returns its id. A name the team already has breaks a unique constraint. */
export async function insertSharedDictionary(db: Db, values: Insertable<EnterpriseDictsTable>): Promise<number> {
  const row = await db.insertInto('enterprise_dicts').values(values).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Renames or re-describes a dictionary. A name the team already has breaks a unique constraint. */
export async function updateSharedDictionary(
  db: Db,
  id: number,
  changes: { name?: string; description?: string; updated_at: string },
): Promise<void> {
  await db.updateTable('enterprise_dicts').set(changes).where('id', '=', id).execute();
}

/**
 * Deletes a dictionary with its words and its users; run it in a transaction. The dependent rows are deleted
 * explicitly so that this does not depend on foreign-key enforcement.
 */
export async function deleteSharedDictionary(trx: Db, id: number): Promise<void> {
  await trx.deleteFrom('enterprise_dict_words').where('dict_id', '=', id).execute();
  await trx.deleteFrom('enterprise_dict_users').where('dict_id', '=', id).execute();
  await trx.deleteFrom('enterprise_dicts').where('id', '=', id).execute();
}

/** Records that `uid` uses the dictionary; fails if they already do (for a dictionary just created). */
export async function addDictionaryUser(db: Db, dictId: number, uid: number, createdAt: string): Promise<void> {
  await db.insertInto('enterprise_dict_users').values({ dict_id: dictId, uid, created_at: createdAt }).execute();
}

/** Records that `uid` uses the dictionary; nothing changes if they already do. */
export async function useSharedDictionary(db: Db, dictId: number, uid: number, createdAt: string): Promise<void> {
  await db
    .insertInto('enterprise_dict_users')
    .values({ dict_id: dictId, uid, created_at: createdAt })
    .onConflict((oc) => oc.columns(['dict_id', 'uid']).doNothing())
    .execute();
}

/** `uid` no longer uses the dictionary. */
export async function stopUsingSharedDictionary(db: Db, dictId: number, uid: number): Promise<void> {
  await db.deleteFrom('enterprise_dict_users').where('dict_id', '=', dictId).where('uid', '=', uid).execute();
}

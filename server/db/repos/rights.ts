import type { Insertable, Selectable } from 'kysely';
import type { Db } from '..';
import type { RightGrantsTable } from '../schema';

/**
 * Grants of rights (`right_grants`): what domain/rights/ledger.ts adds up into a user's balances and takes from. A
 * grant is live while `expires_at` is null or later than the `now` the caller passes.
 */

export type RightGrant = Selectable<RightGrantsTable>;

/** Adds a grant unless the user has one from the same source already; whether it was added. */
export async function insertGrantIfMissing(db: Db, values: Insertable<RightGrantsTable>): Promise<boolean> {
  const res = await db
    .insertInto('right_grants')
    .values(values)
    .onConflict((oc) => oc.columns(['uid', 'source']).doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Adds a grant; a source the user has already breaks the unique (uid, source) index. */
export async function insertGrant(db: Db, values: Insertable<RightGrantsTable>): Promise<void> {
  await db.insertInto('right_grants').values(values).execute();
}

/** The user's live grants of every type, in no particular order. */
export async function findLiveGrants(
  db: Db,
  uid: number,
  now: string,
): Promise<Array<Pick<RightGrant, 'user_right_type' | 'total' | 'remaining' | 'expires_at'>>> {
  return db
    .selectFrom('right_grants')
    .select(['user_right_type', 'total', 'remaining', 'expires_at'])
    .where('uid', '=', uid)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .execute();
}

/** The user's live grants of one type that have something left, in no particular order. */
export async function findConsumableGrants(
  db: Db,
  uid: number,
  type: number,
  now: string,
): Promise<Array<Pick<RightGrant, 'id' | 'remaining' | 'expires_at' | 'source'>>> {
  return db
    .selectFrom('right_grants')
    .select(['id', 'remaining', 'expires_at', 'source'])
    .where('uid', '=', uid)
    .where('user_right_type', '=', type)
    .where('remaining', '>', 0)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .execute();
}

/**
 * Takes `amount` from a grant if it still has that much; whether it did. The guard is part of the update, so of
 * concurrent takers only those the grant can serve succeed (PostgreSQL re-checks it after waiting on the row lock;
 * SQLite serialises writers).
 */
export async function takeFromGrant(db: Db, id: number, amount: number): Promise<boolean> {
  const res = await db
    .updateTable('right_grants')
    .set((eb) => ({ remaining: eb('remaining', '-', amount) }))
    .where('id', '=', id)
    .where('remaining', '>=', amount)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Gives `amount` back to a grant. */
export async function giveBackToGrant(db: Db, id: number, amount: number): Promise<void> {
  await db
    .updateTable('right_grants')
    .set((eb) => ({ remaining: eb('remaining', '+', amount) }))
    .where('id', '=', id)
    .execute();
}

/** The id of the user's grant from `source`, if they have one. */
export async function findGrantId(db: Db, uid: number, source: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('right_grants')
    .select('id')
    .where('uid', '=', uid)
    .where('source', '=', source)
    .executeTakeFirst();
  return row?.id;
}

/** Sets both the total and the remaining amount of a grant. */
export async function setGrantAmount(db: Db, id: number, amount: number): Promise<void> {
  await db.updateTable('right_grants').set({ remaining: amount, total: amount }).where('id', '=', id).execute();
}

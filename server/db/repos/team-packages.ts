import type { Insertable, Selectable } from 'kysely';
import type { Db } from '..';
import type { RightGrantsTable, TeamPackagesTable } from '../schema';

/**
 * Right packages of teams (`team_packages`, `team_package_rights`) and the members' grants allocated from
 * them (right grants whose source is `team-package:<package>:<type>`). Rules stay in domain/teams/packages.ts.
 */

export const ALLOCATION_PREFIX = 'team-package:';
export const allocationSource = (packageId: number, type: number) => `${ALLOCATION_PREFIX}${packageId}:${type}`;

export async function insertPackage(db: Db, values: Insertable<TeamPackagesTable>): Promise<number> {
  const row = await db.insertInto('team_packages').values(values).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function insertPackageRight(
  db: Db,
  values: { package_id: number; user_right_type: number; total: number },
): Promise<void> {
  await db
    .insertInto('team_package_rights')
    .values({ ...values, allocated: 0 })
    .execute();
}

export async function findPackages(db: Db, enterpriseId: number): Promise<Array<Selectable<TeamPackagesTable>>> {
  return db.selectFrom('team_packages').selectAll().where('enterprise_id', '=', enterpriseId).orderBy('id').execute();
}

export async function findPackage(db: Db, id: number): Promise<Selectable<TeamPackagesTable> | undefined> {
  return db.selectFrom('team_packages').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findPackageRights(db: Db, packageIds: readonly number[]) {
  if (packageIds.length === 0) return [];
  return db
    .selectFrom('team_package_rights')
    .selectAll()
    .where('package_id', 'in', packageIds)
    .orderBy('package_id')
    .orderBy('user_right_type')
    .execute();
}

/** Marks `amount` of a package's right allocated if that much is left; whether it did (guarded like a grant). */
export async function takeFromPackage(db: Db, packageId: number, type: number, amount: number): Promise<boolean> {
  const res = await db
    .updateTable('team_package_rights')
    .set((eb) => ({ allocated: eb('allocated', '+', amount) }))
    .where('package_id', '=', packageId)
    .where('user_right_type', '=', type)
    .where((eb) => eb(eb('total', '-', eb.ref('allocated')), '>=', amount))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function returnToPackage(db: Db, packageId: number, type: number, amount: number): Promise<void> {
  await db
    .updateTable('team_package_rights')
    .set((eb) => ({ allocated: eb('allocated', '-', amount) }))
    .where('package_id', '=', packageId)
    .where('user_right_type', '=', type)
    .execute();
}

/** Adds `amount` to the member's grant from `source` (or sets it: a ceiling), creating it. */
export async function addToAllocation(
  db: Db,
  values: Pick<Insertable<RightGrantsTable>, 'uid' | 'user_right_type' | 'source' | 'expires_at' | 'created_at'>,
  amount: number,
  mode: 'add' | 'set' = 'add',
): Promise<void> {
  const updated = await db
    .updateTable('right_grants')
    .set((eb) =>
      mode === 'set'
        ? { total: amount, remaining: amount }
        : { total: eb('total', '+', amount), remaining: eb('remaining', '+', amount) },
    )
    .where('uid', '=', values.uid)
    .where('source', '=', values.source)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0)
    await db
      .insertInto('right_grants')
      .values({ ...values, total: amount, remaining: amount })
      .execute();
}

/** Grants allocated from team packages, optionally to one member / from one package. */
export async function findAllocations(db: Db, filter: { uids?: readonly number[]; packageId?: number }) {
  let q = db
    .selectFrom('right_grants')
    .select(['id', 'uid', 'user_right_type', 'total', 'remaining', 'source'])
    .where('source', 'like', `${ALLOCATION_PREFIX}%`);
  if (filter.uids) {
    if (filter.uids.length === 0) return [];
    q = q.where('uid', 'in', filter.uids);
  }
  if (filter.packageId !== undefined) q = q.where('source', 'like', `${ALLOCATION_PREFIX}${filter.packageId}:%`);
  return q.orderBy('uid').orderBy('user_right_type').execute();
}

/** Takes what is left of a grant away (its total shrinks to what was used). */
export async function emptyAllocation(db: Db, grantId: number, remaining: number): Promise<boolean> {
  const res = await db
    .updateTable('right_grants')
    .set((eb) => ({ total: eb('total', '-', remaining), remaining: 0 }))
    .where('id', '=', grantId)
    .where('remaining', '=', remaining)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

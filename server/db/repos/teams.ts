import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '..';
import type { EnterpriseMembersTable, EnterprisesTable } from '../schema';

/**
 * Teams (`enterprises`) and their members (`enterprise_members`). Member statuses are passed in as values
 * (services/teams.ts MEMBER_STATUS); who may do what stays with services/teams.ts.
 */

/** The team; throws when it does not exist (callers only ask for the team a member belongs to). */
export async function findTeam(db: Db, enterpriseId: number): Promise<Selectable<EnterprisesTable>> {
  return db.selectFrom('enterprises').selectAll().where('id', '=', enterpriseId).executeTakeFirstOrThrow();
}

export async function teamExists(db: Db, enterpriseId: number): Promise<boolean> {
  const row = await db.selectFrom('enterprises').select('id').where('id', '=', enterpriseId).executeTakeFirst();
  return row !== undefined;
}

/** Creates a team; returns its id. */
export async function insertTeam(db: Db, values: Insertable<EnterprisesTable>): Promise<number> {
  const row = await db.insertInto('enterprises').values(values).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * Every team in id order with how many members have `memberStatus` (services/teams.ts MEMBER_STATUS.active) and
 * how many shared dictionaries it has.
 */
export async function findTeamsWithCounts(db: Db, memberStatus: number) {
  return db
    .selectFrom('enterprises as e')
    .select((eb) => [
      'e.id',
      'e.name',
      'e.address',
      'e.created_at',
      eb
        .selectFrom('enterprise_members as m')
        .select((m) => m.fn.countAll().as('n'))
        .whereRef('m.enterprise_id', '=', 'e.id')
        .where('m.status', '=', memberStatus)
        .as('members'),
      eb
        .selectFrom('enterprise_dicts as d')
        .select((d) => d.fn.countAll().as('n'))
        .whereRef('d.enterprise_id', '=', 'e.id')
        .as('dictionaries'),
    ])
    .orderBy('e.id')
    .execute();
}

/** How many members of the team have `status` (services/teams.ts MEMBER_STATUS). */
export async function countMembers(db: Db, enterpriseId: number, status: number): Promise<number> {
  const row = await db
    .selectFrom('enterprise_members')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('enterprise_id', '=', enterpriseId)
    .where('status', '=', status)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The user's first (lowest id) membership with `status`, if any. */
export async function findMembership(
  db: Db,
  uid: number,
  status: number,
): Promise<Pick<Selectable<EnterpriseMembersTable>, 'enterprise_id' | 'role'> | undefined> {
  return db
    .selectFrom('enterprise_members')
    .select(['enterprise_id', 'role'])
    .where('uid', '=', uid)
    .where('status', '=', status)
    .orderBy('id')
    .executeTakeFirst();
}

/** A team other than `enterpriseId` where the user is a member with `status`, if any. */
export async function findOtherTeamOfMember(
  db: Db,
  uid: number,
  status: number,
  enterpriseId: number,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('enterprise_members')
    .select('enterprise_id')
    .where('uid', '=', uid)
    .where('status', '=', status)
    .where('enterprise_id', '!=', enterpriseId)
    .executeTakeFirst();
  return row?.enterprise_id;
}

/** The id of the user's member row in the team, whatever its status. */
export async function findMemberId(db: Db, enterpriseId: number, uid: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('enterprise_members')
    .select('id')
    .where('enterprise_id', '=', enterpriseId)
    .where('uid', '=', uid)
    .executeTakeFirst();
  return row?.id;
}

export async function insertMember(db: Db, values: Insertable<EnterpriseMembersTable>): Promise<void> {
  await db.insertInto('enterprise_members').values(values).execute();
}

export async function updateMember(db: Db, id: number, changes: Updateable<EnterpriseMembersTable>): Promise<void> {
  await db.updateTable('enterprise_members').set(changes).where('id', '=', id).execute();
}

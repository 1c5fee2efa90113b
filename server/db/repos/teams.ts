import type { Selectable } from 'kysely';
import type { Db } from '..';
import type { EnterprisesTable } from '../schema';

/** Teams (`enterprises`) and their members, as the team routes read them. */

/** The team; throws when it does not exist (callers only ask for the team a member belongs to). */
export async function findTeam(db: Db, enterpriseId: number): Promise<Selectable<EnterprisesTable>> {
  return db.selectFrom('enterprises').selectAll().where('id', '=', enterpriseId).executeTakeFirstOrThrow();
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

import { sql, type Insertable, type Selectable, type SqlBool, type Updateable } from 'kysely';
import type { Db } from '..';
import type { EnterpriseMembersTable, EnterprisesTable } from '../schema';

/**
 * Teams (`enterprises`) and their members (`enterprise_members`). Member statuses are passed in as values
 * (domain/teams/teams.ts MEMBER_STATUS); who may do what stays with domain/teams/teams.ts.
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
 * Every team in id order with how many members have `memberStatus` (domain/teams/teams.ts MEMBER_STATUS.active) and
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

/** How many members of the team have `status` (domain/teams/teams.ts MEMBER_STATUS). */
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
  statuses: readonly number[],
  enterpriseId: number,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('enterprise_members')
    .select('enterprise_id')
    .where('uid', '=', uid)
    .where('status', 'in', statuses)
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

/** Adds a member / invitation / application row; returns its id. */
export async function insertMember(db: Db, values: Insertable<EnterpriseMembersTable>): Promise<number> {
  const row = await db.insertInto('enterprise_members').values(values).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateMember(db: Db, id: number, changes: Updateable<EnterpriseMembersTable>): Promise<void> {
  await db.updateTable('enterprise_members').set(changes).where('id', '=', id).execute();
}

export type MemberRow = Selectable<EnterpriseMembersTable>;

/** A member / invitation / application row by id. */
export async function findMemberRow(db: Db, id: number): Promise<MemberRow | undefined> {
  return db.selectFrom('enterprise_members').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The user's row in the team, whatever its status. */
export async function findMemberRowOf(db: Db, enterpriseId: number, uid: number): Promise<MemberRow | undefined> {
  return db
    .selectFrom('enterprise_members')
    .selectAll()
    .where('enterprise_id', '=', enterpriseId)
    .where('uid', '=', uid)
    .executeTakeFirst();
}

/** Rows of the team for these uids (any status). */
export async function findMemberRowsOf(db: Db, enterpriseId: number, uids: readonly number[]): Promise<MemberRow[]> {
  if (uids.length === 0) return [];
  return db
    .selectFrom('enterprise_members')
    .selectAll()
    .where('enterprise_id', '=', enterpriseId)
    .where('uid', 'in', uids)
    .execute();
}

/** The user's membership with one of `statuses` (the first by id), in any team. */
export async function findMembershipIn(
  db: Db,
  uid: number,
  statuses: readonly number[],
): Promise<MemberRow | undefined> {
  return db
    .selectFrom('enterprise_members')
    .selectAll()
    .where('uid', '=', uid)
    .where('status', 'in', statuses)
    .orderBy('id')
    .executeTakeFirst();
}

/** An invitation of the team to a phone that has no account row (uid null). */
export async function findPhoneInvitation(db: Db, enterpriseId: number, phone: string): Promise<MemberRow | undefined> {
  return db
    .selectFrom('enterprise_members')
    .selectAll()
    .where('enterprise_id', '=', enterpriseId)
    .where('uid', 'is', null)
    .where('phone', '=', phone)
    .executeTakeFirst();
}

export async function findMemberByInviteCode(db: Db, code: string): Promise<MemberRow | undefined> {
  return db.selectFrom('enterprise_members').selectAll().where('invite_code', '=', code).executeTakeFirst();
}

/** Invitations (status `invited`) to this account or, before it existed, to its phone, with the team and inviter. */
export async function findInvitationsFor(db: Db, uid: number, phone: string, status: number) {
  return db
    .selectFrom('enterprise_members as m')
    .innerJoin('enterprises as e', 'e.id', 'm.enterprise_id')
    .leftJoin('users as u', 'u.uid', 'm.invited_by')
    .select([
      'm.id',
      'm.enterprise_id',
      'm.role',
      'm.created_at',
      'm.invite_expires_at',
      'e.name as enterprise_name',
      'u.name as inviter_name',
    ])
    .where('m.status', '=', status)
    .where((eb) => eb.or([eb('m.uid', '=', uid), eb.and([eb('m.uid', 'is', null), eb('m.phone', '=', phone)])]))
    .orderBy('m.id', 'desc')
    .execute();
}

/** A page of the team's rows with the account's name (members, invitations and applications). */
export async function findMemberPage(
  db: Db,
  enterpriseId: number,
  filter: {
    /** a LIKE pattern escaped with a backslash (domain/dictionaries/dictionary.ts containsPattern), for names */
    keyword?: string;
    /** the phone: the whole number, or its last digits */
    phone?: { exact?: string; suffix?: string };
    status?: number;
    offset: number;
    limit: number;
  },
) {
  let q = db
    .selectFrom('enterprise_members as m')
    .leftJoin('users as u', 'u.uid', 'm.uid')
    .where('m.enterprise_id', '=', enterpriseId);
  if (filter.status !== undefined) q = q.where('m.status', '=', filter.status);
  if (filter.keyword) {
    const like = filter.keyword;
    const phone = filter.phone?.exact
      ? sql<SqlBool>`m.phone = ${filter.phone.exact}`
      : filter.phone?.suffix
        ? sql<SqlBool>`m.phone like ${`%${filter.phone.suffix}`}`
        : sql<SqlBool>`1 = 0`;
    q = q.where(sql<SqlBool>`(m.name like ${like} escape '\\' or u.name like ${like} escape '\\' or ${phone})`);
  }
  const total = await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  const rows = await q
    .select((eb) => [
      'm.id',
      'm.uid',
      'm.name',
      'm.phone',
      'm.role',
      'm.status',
      'm.remark',
      'm.created_at',
      'm.joined_at',
      'u.name as account_name',
      eb
        .selectFrom('check_events as c')
        .select((c) => c.fn.max('c.created_at').as('t'))
        .whereRef('c.uid', '=', 'm.uid')
        .as('last_active_at'),
    ])
    // what waits for an answer first (applications, then invitations), then members by status
    .orderBy(sql`case m.status when 6 then 0 when 4 then 1 else 2 end`)
    .orderBy('m.status')
    .orderBy('m.id')
    .offset(filter.offset)
    .limit(filter.limit)
    .execute();
  return { total: Number(total?.n ?? 0), rows };
}

/** Active members of the team whose role is one of `roles`. */
export async function findActiveUidsWithRoles(
  db: Db,
  enterpriseId: number,
  roles: readonly string[],
  activeStatus: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('enterprise_members')
    .select('uid')
    .where('enterprise_id', '=', enterpriseId)
    .where('status', '=', activeStatus)
    .where('role', 'in', roles)
    .execute();
  return rows.flatMap((r) => (r.uid === null ? [] : [Number(r.uid)]));
}

export async function findTeamByInvitationCode(db: Db, code: string) {
  return db.selectFrom('enterprises').selectAll().where('invitation_code', '=', code).executeTakeFirst();
}

export async function updateTeam(db: Db, id: number, changes: Updateable<EnterprisesTable>): Promise<void> {
  await db.updateTable('enterprises').set(changes).where('id', '=', id).execute();
}

/** Sets the code unless the team has one; returns the team's code. */
export async function ensureInvitationCode(db: Db, id: number, fresh: string): Promise<string> {
  await db
    .updateTable('enterprises')
    .set({ invitation_code: fresh })
    .where('id', '=', id)
    .where('invitation_code', 'is', null)
    .execute();
  const row = await db.selectFrom('enterprises').select('invitation_code').where('id', '=', id).executeTakeFirst();
  return row?.invitation_code ?? fresh;
}

/** The team's root member's name (the account's name). */
export async function findRootName(db: Db, enterpriseId: number): Promise<string> {
  const row = await db
    .selectFrom('enterprise_members as m')
    .innerJoin('users as u', 'u.uid', 'm.uid')
    .select(['m.name', 'u.name as account_name'])
    .where('m.enterprise_id', '=', enterpriseId)
    .where('m.role', '=', 'root')
    .executeTakeFirst();
  return row ? row.name || row.account_name : '';
}

/**
 * Invitations that ran out become status `expired` (code cleared): those of one team, or those addressed to one
 * account (by its uid or, before it existed, its phone). Scoped so a read never rewrites other teams' rows.
 */
export async function expireInvitations(
  db: Db,
  scope: { enterpriseId: number } | { uid: number; phone: string },
  status: { invited: number; expired: number },
): Promise<void> {
  const now = new Date().toISOString();
  let q = db
    .updateTable('enterprise_members')
    .set({ status: status.expired, invite_code: null, updated_at: now })
    .where('status', '=', status.invited)
    .where('invite_expires_at', '<', now);
  q =
    'enterpriseId' in scope
      ? q.where('enterprise_id', '=', scope.enterpriseId)
      : q.where((eb) => eb.or([eb('uid', '=', scope.uid), eb('phone', '=', scope.phone)]));
  await q.execute();
}

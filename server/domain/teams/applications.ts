import type { Db } from '../../db';
import { nowIso } from '../../db';
import { findMembershipIn } from '../../db/repos/teams';
import { findOpenUser } from '../../db/repos/users';
import { conflict, notFound } from '../../errors';
import { createTeamIn, HOLDING_STATUSES } from './teams';

/**
 * Applications for a team account (/teamApply) and for API access (/apiApply), reviewed by the site's operators
 * (the admin CLI, and the operator's calls under /admin/v1/applications). Approving a team application creates
 * the team with the applicant as its root and `user_num` seats (TEAM_DEFAULT_SEATS when none was stated);
 * approving an API application lets the applicant create an API key.
 */

export type ApplicationKind = 'team' | 'api';
export const APPLICATION_STATUSES = ['pending', 'approved', 'refused'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

export interface TeamApplicationInput {
  name: string;
  contact_name: string;
  phone: string;
  email?: string;
  address?: string;
  user_num?: number;
  remark?: string;
}

async function pendingOf(db: Db, uid: number, kind: ApplicationKind) {
  return db
    .selectFrom('team_applications')
    .select('id')
    .where('uid', '=', uid)
    .where('kind', '=', kind)
    .where('status', '=', 'pending')
    .executeTakeFirst();
}

async function insertApplication(
  db: Db,
  uid: number,
  kind: ApplicationKind,
  values: {
    name: string;
    contact_name: string;
    phone: string;
    email?: string;
    address?: string;
    user_num?: number;
    remark?: string;
    source: string;
  },
): Promise<number> {
  if (await pendingOf(db, uid, kind)) throw conflict('team.application_pending');
  const row = await db
    .insertInto('team_applications')
    .values({
      kind,
      uid,
      name: values.name.trim(),
      contact_name: values.contact_name.trim(),
      phone: values.phone,
      email: values.email?.trim() ?? '',
      address: values.address?.trim() ?? '',
      user_num: values.user_num ?? 0,
      remark: values.remark?.trim() ?? '',
      source: values.source,
      status: 'pending',
      enterprise_id: null,
      reviewed_by: null,
      review_note: '',
      created_at: nowIso(),
      reviewed_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function applyForTeam(db: Db, uid: number, input: TeamApplicationInput): Promise<number> {
  if (await findMembershipIn(db, uid, HOLDING_STATUSES)) throw conflict('team.in_team_already');
  return insertApplication(db, uid, 'team', { ...input, source: 'teamApply' });
}

export async function applyForApi(
  db: Db,
  uid: number,
  input: { name: string; phone: string; company?: string; email?: string; usage?: string; source?: string },
): Promise<number> {
  return insertApplication(db, uid, 'api', {
    name: input.company ?? '',
    contact_name: input.name,
    phone: input.phone,
    email: input.email,
    remark: input.usage,
    source: input.source?.trim() || 'apiApply',
  });
}

export async function listApplications(db: Db, filter: { kind?: ApplicationKind; status?: ApplicationStatus }) {
  let q = db
    .selectFrom('team_applications as a')
    .leftJoin('users as u', 'u.uid', 'a.uid')
    .selectAll('a')
    .select('u.phone as account_phone');
  if (filter.kind) q = q.where('a.kind', '=', filter.kind);
  if (filter.status) q = q.where('a.status', '=', filter.status);
  return q.orderBy('a.id', 'desc').limit(500).execute();
}

/** The status of the user's latest API-access application, null when there is none. */
export async function latestApiApplication(db: Db, uid: number): Promise<ApplicationStatus | null> {
  const row = await db
    .selectFrom('team_applications')
    .select('status')
    .where('uid', '=', uid)
    .where('kind', '=', 'api')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return APPLICATION_STATUSES.find((s) => s === row?.status) ?? null;
}

/** Whether the user's API-access application was approved. */
export async function apiAccessApproved(db: Db, uid: number): Promise<boolean> {
  const row = await db
    .selectFrom('team_applications')
    .select('id')
    .where('uid', '=', uid)
    .where('kind', '=', 'api')
    .where('status', '=', 'approved')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Approves or refuses a pending application. A team application approved creates the team (its applicant the
 * root); 409 when it was reviewed already or the applicant has joined a team meanwhile.
 */
export async function reviewApplication(
  db: Db,
  input: {
    id: number;
    approve: boolean;
    reviewer: number | null;
    note?: string;
    seats?: number;
    /** seats of a team whose application and reviewer state none (config.team.defaultSeats) */
    defaultSeats: number;
  },
): Promise<{ enterpriseId: number | null }> {
  const app = await db.selectFrom('team_applications').selectAll().where('id', '=', input.id).executeTakeFirst();
  if (!app) throw notFound('team.unknown_application', { id: input.id });
  if (app.status !== 'pending') throw conflict('team.already_answered');
  const user = await findOpenUser(db, Number(app.uid));
  if (input.approve && app.kind === 'team' && !user?.phone)
    throw notFound('team.unknown_application', { id: input.id });
  // one transaction that first claims the pending application: of two reviews at once only one goes on, and a team
  // exists exactly when its application says approved
  return db.transaction().execute(async (trx) => {
    const res = await trx
      .updateTable('team_applications')
      .set({
        status: input.approve ? 'approved' : 'refused',
        reviewed_by: input.reviewer,
        review_note: input.note?.trim() ?? '',
        reviewed_at: nowIso(),
      })
      .where('id', '=', input.id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw conflict('team.already_answered');
    if (!input.approve || app.kind !== 'team' || !user?.phone) return { enterpriseId: null };
    const enterpriseId = await createTeamIn(trx, {
      name: app.name,
      address: app.address,
      adminUid: user.uid,
      adminPhone: user.phone,
      seats: input.seats ?? (Number(app.user_num) || input.defaultSeats),
    });
    await trx
      .updateTable('team_applications')
      .set({ enterprise_id: enterpriseId })
      .where('id', '=', input.id)
      .execute();
    return { enterpriseId };
  });
}

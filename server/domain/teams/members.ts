import { randomBytes } from 'node:crypto';
import type { Db } from '../../db';
import { nowIso } from '../../db';
import {
  countMembers,
  ensureInvitationCode,
  expireInvitations,
  findActiveUidsWithRoles,
  findInvitationsFor,
  findMemberByInviteCode,
  findMemberRow,
  findMemberRowOf,
  findMemberRowsOf,
  findMembershipIn,
  findPhoneInvitation,
  findTeam,
  findTeamByInvitationCode,
  insertMember,
  teamExists,
  updateMember,
  updateTeam,
  type MemberRow,
} from '../../db/repos/teams';
import { findOpenUser, findOpenUserByPhone, setEnterpriseId } from '../../db/repos/users';
import { conflict, forbidden, notFound, tooManyRequests } from '../../errors';
import { isUniqueViolation } from '../../db';
import { defaultName } from '../accounts/users';
import type { ServerMessageCode } from '../../../openapi/messages';
import type { OutgoingMessage } from '../../realtime/hub';
import { deliver, isSmsUnavailable, type SmsProvider } from '../accounts/sms';
import { reclaimAllocations } from './packages';
import {
  ACTS_ON,
  GRANTABLE,
  HOLDING_STATUSES,
  MEMBER_STATUS,
  TEAM_PERMISSIONS,
  may,
  memberRoleOf,
  requireTeam,
  teamRoleOf,
  type MemberRole,
  type TeamContext,
  type TeamRole,
} from './teams';
import { Socket } from '../../../openapi/socket-protocol';

/**
 * Joining and leaving teams: invitations (by phone, SMS link, in the app and over the socket), applications (by
 * the team's invitation code), answers, removal, quitting, roles, statuses and names. Every change is
 * one transaction; permissions come from domain/teams/teams.ts. A user holds one team at a time (statuses 1, 2, 3);
 * only status 1 grants access. Seats: a team whose `equity_num` is above 0 cannot have more active members.
 */

export interface TeamDeps {
  db: Db;
  sms: SmsProvider;
  /** delivers a socket message to every session of a user (RealtimeHub.sendToUser) */
  notify: (uid: number, message: OutgoingMessage) => void;
  /** days an SMS invitation stays valid (config.team.inviteDays) */
  inviteDays: number;
  /** where the invitation links point (config.origin) */
  origin: string;
}

const code = () => randomBytes(12).toString('base64url');
/** What an invitation that ran out becomes (repos/teams.ts expireInvitations). */
export const EXPIRY = { invited: MEMBER_STATUS.invited, expired: MEMBER_STATUS.expired };
const DAY_MS = 86_400_000;
/** Invitations (SMS) a team may send in 24 hours, and a phone may receive from all teams. */
export const TEAM_DAILY = 300;
export const PHONE_DAILY = 3;

/** The invitation link of an SMS (the SPA's /sms_invite route); sent outside any request, localhost by default. */
export const invitationLink = (origin: string, inviteCode: string) => {
  return `${origin}/workbench/sms_invite?sms_invitation_code=${encodeURIComponent(inviteCode)}`;
};

const roleOf = (row: MemberRow): MemberRole => memberRoleOf(row.role);

/** 403 unless the caller may give `role`. */
function checkGrant(ctx: TeamContext, role: TeamRole): void {
  if (!ctx.role || !GRANTABLE[ctx.role].includes(role)) throw forbidden('team.cannot_give_role', { role });
}

/** 403 unless the caller may act on the member of `row` (never on themselves). */
function checkOver(ctx: TeamContext, row: MemberRow, name: string): void {
  if (row.uid !== null && Number(row.uid) === ctx.uid) throw forbidden('team.not_self');
  if (!ctx.role || !ACTS_ON[ctx.role].includes(roleOf(row))) throw forbidden('team.cannot_act_on_member', { name });
}

async function seatsLeft(db: Db, enterpriseId: number): Promise<void> {
  const team = await findTeam(db, enterpriseId);
  const seats = Number(team.equity_num);
  if (seats > 0 && (await countMembers(db, enterpriseId, MEMBER_STATUS.active)) >= seats)
    throw conflict('team.full', { seats });
}

/** 409 when the user holds a membership in a team (this one: already a member; another: elsewhere). */
async function notHoldingElsewhere(db: Db, uid: number, enterpriseId: number): Promise<void> {
  const held = await findMembershipIn(db, uid, HOLDING_STATUSES);
  if (!held) return;
  if (Number(held.enterprise_id) === enterpriseId) throw conflict('team.already_member');
  throw conflict('team.member_elsewhere', { team: Number(held.enterprise_id) });
}

/**
 * Claims a row in its expected status for this transaction: a conditional update, so of two concurrent answers to
 * one invitation or application only the first goes on (PostgreSQL re-checks the condition after the row lock;
 * SQLite runs one writer at a time). 409 when it was answered meanwhile.
 */
async function claim(trx: Db, id: number, status: number): Promise<MemberRow> {
  const res = await trx
    .updateTable('enterprise_members')
    .set({ updated_at: nowIso() })
    .where('id', '=', id)
    .where('status', '=', status)
    .executeTakeFirst();
  const row = Number(res.numUpdatedRows) === 1 ? await findMemberRow(trx, id) : undefined;
  if (!row) throw conflict('team.already_answered');
  return row;
}

/**
 * The role an invitation gives when accepted: the one it names while its inviter is still an active member who may
 * give it; otherwise a plain member (an admin who lost the role cannot bring admins in afterwards).
 */
async function invitedRole(trx: Db, row: MemberRow): Promise<MemberRole> {
  const role = roleOf(row);
  if (role === 'user' || row.invited_by === null) return 'user';
  const inviter = await findMemberRowOf(trx, Number(row.enterprise_id), Number(row.invited_by));
  const grants = inviter?.status === MEMBER_STATUS.active ? GRANTABLE[roleOf(inviter)] : [];
  return grants.some((r) => r === role) ? role : 'user';
}

/**
 * Makes a row an active membership of `uid`; seats and other teams checked inside the transaction. The team's row
 * is touched first, which holds concurrent activations for the team in line on PostgreSQL (seats); the unique index
 * on holding rows per account refuses a second team whatever runs at the same time.
 */
async function activate(trx: Db, row: MemberRow, uid: number, phone: string, role?: MemberRole): Promise<void> {
  const enterpriseId = Number(row.enterprise_id);
  const now = nowIso();
  await updateTeam(trx, enterpriseId, { updated_at: now });
  await notHoldingElsewhere(trx, uid, enterpriseId);
  await seatsLeft(trx, enterpriseId);
  // an older row of this account in the team (a refused application, an earlier membership) gives way
  const older = await findMemberRowOf(trx, enterpriseId, uid);
  if (older && Number(older.id) !== Number(row.id))
    await trx.deleteFrom('enterprise_members').where('id', '=', older.id).execute();
  try {
    await updateMember(trx, Number(row.id), {
      uid,
      phone,
      status: MEMBER_STATUS.active,
      ...(role ? { role } : {}),
      invite_code: null,
      invite_expires_at: null,
      joined_at: now,
      updated_at: now,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('team.member_elsewhere', { team: '' });
    throw error;
  }
  await setEnterpriseId(trx, uid, enterpriseId);
}

/** What leaving a team undoes: the account's team, its use of the team's dictionaries, unused allocations. */
async function detach(trx: Db, enterpriseId: number, uid: number): Promise<void> {
  await setEnterpriseId(trx, uid, null);
  await trx
    .deleteFrom('enterprise_dict_users')
    .where('uid', '=', uid)
    .where('dict_id', 'in', (eb) =>
      eb.selectFrom('enterprise_dicts').select('id').where('enterprise_id', '=', enterpriseId),
    )
    .execute();
  await reclaimAllocations(trx, enterpriseId, uid);
}

// ───────────── invitations ─────────────

export interface InviteOutcome {
  id?: number;
  failed?: ServerMessageCode;
  /** seconds until a daily bound that refused the invitation lets one more through */
  retryAfter?: number;
}

/** One invitation; the reason it cannot be made is returned, not thrown, for batch invitations. */
async function inviteOne(
  deps: TeamDeps,
  ctx: TeamContext & { enterpriseId: number },
  phone: string,
  role: TeamRole,
  remark: string,
): Promise<InviteOutcome & { notify?: { uid: number | null; id: number; code: string } }> {
  const { db } = deps;
  const user = await findOpenUserByPhone(db, phone);
  const now = nowIso();
  const expires = new Date(Date.now() + deps.inviteDays * DAY_MS).toISOString();
  const inviteCode = code();
  return db.transaction().execute(async (trx) => {
    // SMS bounds: a phone gets at most PHONE_DAILY invitations a day from all teams, a team sends TEAM_DAILY
    const since = new Date(Date.now() - DAY_MS).toISOString();
    // how many were sent in the last 24 hours, and when the oldest of them leaves the window
    const sent = async (where: { phone?: string; enterpriseId?: number }) => {
      let q = trx
        .selectFrom('enterprise_members')
        .select((eb) => [eb.fn.countAll().as('n'), eb.fn.min('updated_at').as('oldest')])
        .where('invite_code', 'is not', null)
        .where('updated_at', '>', since);
      if (where.phone) q = q.where('phone', '=', where.phone);
      if (where.enterpriseId) q = q.where('enterprise_id', '=', where.enterpriseId);
      const row = await q.executeTakeFirst();
      const oldest = row?.oldest ? Date.parse(String(row.oldest)) : Date.now();
      return { n: Number(row?.n ?? 0), retryAfter: Math.max(1, (oldest + DAY_MS - Date.now()) / 1000) };
    };
    const byTeam = await sent({ enterpriseId: ctx.enterpriseId });
    if (byTeam.n >= TEAM_DAILY) return { failed: 'team.too_many_invitations', retryAfter: byTeam.retryAfter };
    const byPhone = await sent({ phone });
    if (byPhone.n >= PHONE_DAILY) return { failed: 'team.phone_invited_too_often', retryAfter: byPhone.retryAfter };
    if (user) {
      const held = await findMembershipIn(trx, user.uid, HOLDING_STATUSES);
      if (held)
        return {
          failed: Number(held.enterprise_id) === ctx.enterpriseId ? 'team.already_member' : 'team.phone_in_other_team',
        };
    }
    const existing = user
      ? ((await findMemberRowOf(trx, ctx.enterpriseId, user.uid)) ??
        (await findPhoneInvitation(trx, ctx.enterpriseId, phone)))
      : await findPhoneInvitation(trx, ctx.enterpriseId, phone);
    if (existing && existing.status === MEMBER_STATUS.invited && (existing.invite_expires_at ?? '') > now)
      return { failed: 'team.already_invited' };
    const values = {
      uid: user ? user.uid : null,
      phone,
      role,
      status: MEMBER_STATUS.invited,
      remark,
      invited_by: ctx.uid,
      invite_code: inviteCode,
      invite_expires_at: expires,
      updated_at: now,
    };
    let id: number;
    if (existing) {
      id = Number(existing.id);
      await updateMember(trx, id, values);
    } else {
      id = await insertMember(trx, {
        ...values,
        enterprise_id: ctx.enterpriseId,
        name: '',
        created_at: now,
        joined_at: null,
      });
    }
    return { id, notify: { uid: user ? user.uid : null, id, code: inviteCode } };
  });
}

/** Who sends an invitation, read once per call: the team's name and the inviter's. */
async function senderOf(db: Db, enterpriseId: number, inviter: number) {
  const team = await findTeam(db, enterpriseId);
  return { enterpriseId, team: team.name, inviter: (await findOpenUser(db, inviter))?.name ?? '' };
}

async function announceInvitation(
  deps: TeamDeps,
  from: Awaited<ReturnType<typeof senderOf>>,
  phone: string,
  sent: { uid: number | null; id: number; code: string },
): Promise<void> {
  // The SMS first: an invitation the gateway could not send ends at once (503 `sms.unavailable`), so it can be
  // sent again rather than standing as "already invited" with nobody told.
  const sms = deps.sms.sendInvitation?.bind(deps.sms);
  if (sms) {
    try {
      await deliver(() => sms({ phone, team: from.team, link: invitationLink(deps.origin, sent.code) }));
    } catch (err) {
      await updateMember(deps.db, sent.id, { invite_expires_at: nowIso() });
      throw err;
    }
  }
  if (sent.uid !== null)
    deps.notify(sent.uid, {
      ...Socket.TeamInvite,
      data: { id: sent.id, enterprise_id: from.enterpriseId, enterprise_name: from.team, inviter_name: from.inviter },
    });
}

/** Invites phones (members.invite); each failure is reported with its reason code, the rest are invited. */
export async function invitePhones(
  deps: TeamDeps,
  ctx: TeamContext,
  phones: readonly string[],
  role: TeamRole = 'user',
): Promise<{ invited: number; failed: Array<{ phone: string; reason: string }> }> {
  const enterpriseId = requireTeam(ctx, 'members.invite');
  checkGrant(ctx, role);
  await seatsLeft(deps.db, enterpriseId);
  const from = await senderOf(deps.db, enterpriseId, ctx.uid);
  const failed: Array<{ phone: string; reason: string }> = [];
  let invited = 0;
  for (const phone of phones) {
    const outcome = await inviteOne(deps, { ...ctx, enterpriseId }, phone, role, '');
    if (outcome.failed) failed.push({ phone, reason: outcome.failed });
    else {
      try {
        await announceInvitation(deps, from, phone, outcome.notify!);
        invited++;
      } catch (err) {
        if (!isSmsUnavailable(err)) throw err;
        failed.push({ phone, reason: 'sms.unavailable' });
      }
    }
  }
  return { invited, failed };
}

/** Invites one phone; 409 with the reason when it cannot be invited. */
export async function invitePhone(
  deps: TeamDeps,
  ctx: TeamContext,
  phone: string,
  remark = '',
  role: TeamRole = 'user',
): Promise<number> {
  const enterpriseId = requireTeam(ctx, 'members.invite');
  checkGrant(ctx, role);
  await seatsLeft(deps.db, enterpriseId);
  const outcome = await inviteOne(deps, { ...ctx, enterpriseId }, phone, role, remark);
  if (outcome.failed === 'team.too_many_invitations')
    throw tooManyRequests(outcome.retryAfter!, outcome.failed, { max: TEAM_DAILY });
  if (outcome.failed === 'team.phone_invited_too_often') throw tooManyRequests(outcome.retryAfter!, outcome.failed);
  if (outcome.failed) throw conflict(outcome.failed);
  await announceInvitation(deps, await senderOf(deps.db, enterpriseId, ctx.uid), phone, outcome.notify!);
  return outcome.id!;
}

/** Pending invitations to the caller (expired ones are marked so first). */
export async function invitationsFor(db: Db, uid: number) {
  const user = await findOpenUser(db, uid);
  if (!user?.phone) return [];
  await expireInvitations(db, { uid, phone: user.phone }, EXPIRY);
  const rows = await findInvitationsFor(db, uid, user.phone, MEMBER_STATUS.invited);
  return rows.map((r) => ({
    id: Number(r.id),
    enterprise_id: Number(r.enterprise_id),
    enterprise_name: r.enterprise_name,
    inviter_name: r.inviter_name ?? '',
    role: teamRoleOf(r.role),
    created_at: r.created_at,
  }));
}

/** An invitation row addressed to the caller (by account, or by phone before the account existed). */
function addressedTo(row: MemberRow, uid: number, phone: string | null): boolean {
  return row.uid !== null ? Number(row.uid) === uid : row.phone === phone;
}

function checkLive(row: MemberRow): void {
  if (row.status !== MEMBER_STATUS.invited) throw conflict('team.already_answered');
  if ((row.invite_expires_at ?? '') <= nowIso()) throw notFound('team.invitation_expired');
}

// ───────────── applications ─────────────

async function notifyAdmins(deps: TeamDeps, enterpriseId: number, data: { id: number; name: string; phone: string }) {
  const roles = (Object.keys(TEAM_PERMISSIONS) as MemberRole[]).filter((r) =>
    TEAM_PERMISSIONS[r].includes('applications.answer'),
  );
  for (const uid of await findActiveUidsWithRoles(deps.db, enterpriseId, roles, MEMBER_STATUS.active))
    deps.notify(uid, {
      ...Socket.TeamApplication,
      data: { id: data.id, enterprise_id: enterpriseId, applicant_name: data.name, phone: defaultName(data.phone) },
    });
}

/** Applies to join a team (status 6 申请加入); its admins are told over the socket. */
export async function applyToTeam(
  deps: TeamDeps,
  uid: number,
  enterpriseId: number,
  input: { name?: string; remark?: string },
): Promise<number> {
  const { db } = deps;
  const user = await findOpenUser(db, uid);
  if (!user?.phone) throw notFound('team.unknown', { id: enterpriseId });
  if (!(await teamExists(db, enterpriseId))) throw notFound('team.unknown', { id: enterpriseId });
  const name = input.name?.trim() || user.name;
  const id = await db.transaction().execute(async (trx) => {
    await notHoldingElsewhere(trx, uid, enterpriseId);
    const existing = await findMemberRowOf(trx, enterpriseId, uid);
    if (existing?.status === MEMBER_STATUS.applied) throw conflict('team.already_applied');
    if (existing?.status === MEMBER_STATUS.invited && (existing.invite_expires_at ?? '') > nowIso())
      throw conflict('team.already_invited');
    const now = nowIso();
    const values = {
      phone: user.phone!,
      role: 'user',
      status: MEMBER_STATUS.applied,
      name,
      remark: input.remark?.trim() ?? '',
      invited_by: null,
      invite_code: null,
      invite_expires_at: null,
      updated_at: now,
    };
    if (existing) {
      await updateMember(trx, Number(existing.id), values);
      return Number(existing.id);
    }
    return insertMember(trx, { ...values, enterprise_id: enterpriseId, uid, created_at: now, joined_at: null });
  });
  await notifyAdmins(deps, enterpriseId, { id, name, phone: user.phone });
  return id;
}

export async function teamByInvitationCode(db: Db, invitationCode: string) {
  const team = await findTeamByInvitationCode(db, invitationCode);
  if (!team) throw notFound('team.unknown_code');
  return team;
}

/** Pending applications to the caller's team (0 for callers who cannot answer them). */
export async function pendingApplications(db: Db, ctx: TeamContext): Promise<number> {
  if (ctx.enterpriseId === null || !may(ctx, 'applications.answer')) return 0;
  return countMembers(db, ctx.enterpriseId, MEMBER_STATUS.applied);
}

// ───────────── answers ─────────────

/**
 * Answers an invitation (the invitee) or an application (the team's member admins). Rows the caller may not
 * see are 404 (ids of other teams and other people's invitations are not revealed).
 */
export async function answer(deps: TeamDeps, ctx: TeamContext, id: number, pass: boolean): Promise<void> {
  const { db } = deps;
  const row = await findMemberRow(db, id);
  const user = await findOpenUser(db, ctx.uid);
  if (!row || !user) throw notFound('team.unknown_invitation');
  const ownTeam = ctx.enterpriseId === Number(row.enterprise_id);
  if (row.status === MEMBER_STATUS.invited) {
    if (!addressedTo(row, ctx.uid, user.phone)) throw notFound('team.unknown_invitation');
    checkLive(row);
    await db.transaction().execute(async (trx) => {
      const fresh = await claim(trx, id, MEMBER_STATUS.invited);
      if (pass) await activate(trx, fresh, ctx.uid, user.phone!, await invitedRole(trx, fresh));
      else
        await updateMember(trx, id, {
          uid: ctx.uid,
          status: MEMBER_STATUS.inviteRefused,
          invite_code: null,
          updated_at: nowIso(),
        });
    });
    return;
  }
  if (row.status === MEMBER_STATUS.applied) {
    if (!ownTeam) throw notFound('team.unknown_invitation');
    requireTeam(ctx, 'applications.answer');
    await db.transaction().execute(async (trx) => {
      const fresh = await claim(trx, id, MEMBER_STATUS.applied);
      if (pass) await activate(trx, fresh, Number(fresh.uid), fresh.phone);
      else await updateMember(trx, id, { status: MEMBER_STATUS.applicationRefused, updated_at: nowIso() });
    });
    return;
  }
  // answered before: say so to whoever could have answered it, reveal nothing to others
  if (addressedTo(row, ctx.uid, user.phone) || (ownTeam && may(ctx, 'applications.answer')))
    throw conflict('team.already_answered');
  throw notFound('team.unknown_invitation');
}

/** Accepts an SMS invitation link: the invited phone must be the caller's. */
/** The team an SMS invitation link asks to join, shown before it is accepted: the same checks as joinByLink. */
export async function smsInvitationTeam(db: Db, uid: number, inviteCode: string): Promise<number> {
  const row = await findMemberByInviteCode(db, inviteCode);
  if (!row) throw notFound('team.unknown_invitation');
  const user = await findOpenUser(db, uid);
  if (!user || !addressedTo(row, uid, user.phone)) throw forbidden('team.invitation_not_yours');
  if ((row.invite_expires_at ?? '') <= nowIso()) throw notFound('team.invitation_expired');
  return Number(row.enterprise_id);
}

export async function joinByLink(
  db: Db,
  uid: number,
  inviteCode: string,
): Promise<{ enterprise_id: number; name: string }> {
  const row = await findMemberByInviteCode(db, inviteCode);
  if (!row) throw notFound('team.unknown_invitation');
  const user = await findOpenUser(db, uid);
  if (!user || !addressedTo(row, uid, user.phone)) throw forbidden('team.invitation_not_yours');
  if ((row.invite_expires_at ?? '') <= nowIso()) {
    await updateMember(db, Number(row.id), { status: MEMBER_STATUS.expired, invite_code: null, updated_at: nowIso() });
    throw notFound('team.invitation_expired');
  }
  await db.transaction().execute(async (trx) => {
    const fresh = await claim(trx, Number(row.id), MEMBER_STATUS.invited);
    await activate(trx, fresh, uid, user.phone!, await invitedRole(trx, fresh));
  });
  const team = await findTeam(db, Number(row.enterprise_id));
  return { enterprise_id: Number(team.id), name: team.name };
}

// ───────────── members ─────────────

/** The rows of `uids` in the caller's team, each one the caller may act on; all or nothing. */
async function targets(db: Db, ctx: TeamContext & { enterpriseId: number }, uids: readonly number[]) {
  const rows = await findMemberRowsOf(db, ctx.enterpriseId, uids);
  const names = new Map<number, string>();
  for (const r of rows) names.set(Number(r.uid), r.name || (await findOpenUser(db, Number(r.uid)))?.name || r.phone);
  return uids.map((uid) => {
    const row = rows.find((r) => Number(r.uid) === uid && HOLDING_STATUSES.includes(r.status));
    if (!row) throw notFound('team.unknown_member', { uid });
    checkOver(ctx, row, names.get(uid) ?? '');
    return row;
  });
}

export async function removeMembers(db: Db, ctx: TeamContext, uids: readonly number[]): Promise<number> {
  const enterpriseId = requireTeam(ctx, 'members.remove');
  const rows = await targets(db, { ...ctx, enterpriseId }, uids);
  await db.transaction().execute(async (trx) => {
    for (const row of rows) {
      await trx.deleteFrom('enterprise_members').where('id', '=', row.id).execute();
      await detach(trx, enterpriseId, Number(row.uid));
    }
  });
  return rows.length;
}

export async function setRoles(db: Db, ctx: TeamContext, uids: readonly number[], role: TeamRole): Promise<number> {
  const enterpriseId = requireTeam(ctx, 'roles.change');
  checkGrant(ctx, role);
  const rows = await targets(db, { ...ctx, enterpriseId }, uids);
  await db.transaction().execute(async (trx) => {
    for (const row of rows) await updateMember(trx, Number(row.id), { role, updated_at: nowIso() });
  });
  return rows.length;
}

/** The team's root hands the team to an active member and becomes an admin. */
export async function transferRoot(db: Db, ctx: TeamContext, uid: number): Promise<void> {
  const enterpriseId = requireTeam(ctx, 'team.view');
  if (ctx.role !== 'root') throw forbidden('team.root_only');
  if (uid === ctx.uid) throw forbidden('team.not_self');
  const target = await findMemberRowOf(db, enterpriseId, uid);
  if (!target || target.status !== MEMBER_STATUS.active) throw notFound('team.unknown_member', { uid });
  const mine = await findMemberRowOf(db, enterpriseId, ctx.uid);
  // both changes are conditional, so a second transfer or a quit at the same time cannot leave two roots or none
  await db.transaction().execute(async (trx) => {
    const demoted = await trx
      .updateTable('enterprise_members')
      .set({ role: 'admin', updated_at: nowIso() })
      .where('id', '=', Number(mine!.id))
      .where('role', '=', 'root')
      .executeTakeFirst();
    if (Number(demoted.numUpdatedRows) !== 1) throw forbidden('team.root_only');
    const promoted = await trx
      .updateTable('enterprise_members')
      .set({ role: 'root', updated_at: nowIso() })
      .where('id', '=', Number(target.id))
      .where('status', '=', MEMBER_STATUS.active)
      .executeTakeFirst();
    if (Number(promoted.numUpdatedRows) !== 1) throw notFound('team.unknown_member', { uid });
  });
}

/** The statuses modify_enterprise_user_status may set: 1 生效中, 2 待续费, 3 异常, 11 已失效. */
export type SettableStatus = 1 | 2 | 3 | 11;

/** Suspends (2, 3), restores (1) or ends (11) memberships; all or nothing. */
export async function setStatuses(db: Db, ctx: TeamContext, uids: readonly number[], status: SettableStatus) {
  const enterpriseId = requireTeam(ctx, 'members.status');
  const rows = await targets(db, { ...ctx, enterpriseId }, uids);
  await db.transaction().execute(async (trx) => {
    for (const row of rows) {
      const uid = Number(row.uid);
      if (row.status === status) continue;
      if (status === MEMBER_STATUS.active) {
        await seatsLeft(trx, enterpriseId);
        await setEnterpriseId(trx, uid, enterpriseId);
      } else if (status === MEMBER_STATUS.expired) await detach(trx, enterpriseId, uid);
      else await setEnterpriseId(trx, uid, null);
      await updateMember(trx, Number(row.id), { status, updated_at: nowIso() });
    }
  });
  return rows.length;
}

/** Renames oneself, or (members.status) a member the caller may act on. */
export async function rename(db: Db, ctx: TeamContext, name: string, uid?: number): Promise<void> {
  const enterpriseId = requireTeam(ctx, 'team.view');
  const clean = name.trim();
  if (uid === undefined || uid === ctx.uid) {
    const mine = await findMemberRowOf(db, enterpriseId, ctx.uid);
    await updateMember(db, Number(mine!.id), { name: clean, updated_at: nowIso() });
    return;
  }
  requireTeam(ctx, 'members.status');
  const [row] = await targets(db, { ...ctx, enterpriseId }, [uid]);
  await updateMember(db, Number(row.id), { name: clean, updated_at: nowIso() });
}

/** Leaves the team (suspended members too); the root hands the team over first. */
export async function quit(db: Db, uid: number): Promise<void> {
  const row = await findMembershipIn(db, uid, HOLDING_STATUSES);
  if (!row) throw notFound('team.not_member');
  if (row.role === 'root') throw forbidden('team.root_cannot_quit');
  await db.transaction().execute(async (trx) => {
    // not while a transfer made this member the root
    const gone = await trx
      .deleteFrom('enterprise_members')
      .where('id', '=', row.id)
      .where('role', '!=', 'root')
      .executeTakeFirst();
    if (Number(gone.numDeletedRows) !== 1) throw forbidden('team.root_cannot_quit');
    await detach(trx, Number(row.enterprise_id), uid);
  });
}

/** Withdraws an invitation of the caller's team (members.invite): status 11 已失效, its link stops working. */
export async function cancelInvitation(db: Db, ctx: TeamContext, id: number): Promise<void> {
  const enterpriseId = requireTeam(ctx, 'members.invite');
  const row = await findMemberRow(db, id);
  // rows of other teams, and members' rows, are no invitation of this team
  if (!row || Number(row.enterprise_id) !== enterpriseId || row.invited_by === null)
    throw notFound('team.unknown_invitation');
  // only who may give the invitation's role may take it back (a member admin cannot withdraw an admin's invitation)
  const role = roleOf(row);
  if (!ctx.role || !(GRANTABLE[ctx.role] as readonly MemberRole[]).includes(role))
    throw forbidden('team.cannot_give_role', { role });
  const res = await db
    .updateTable('enterprise_members')
    .set({ status: MEMBER_STATUS.expired, invite_code: null, invite_expires_at: null, updated_at: nowIso() })
    .where('id', '=', id)
    .where('status', '=', MEMBER_STATUS.invited)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw conflict('team.already_answered');
}

/**
 * A new code for applications (members.invite): the old one stops working at once, for a code that went further
 * than meant. Applications already made with it stay to be answered.
 */
export async function rotateInvitationCode(db: Db, ctx: TeamContext): Promise<string> {
  const enterpriseId = requireTeam(ctx, 'members.invite');
  const fresh = code();
  await updateTeam(db, enterpriseId, { invitation_code: fresh });
  return fresh;
}

/** The team's code for applications, made the first time an admin asks. */
export async function invitationCodeOf(db: Db, enterpriseId: number): Promise<string> {
  return ensureInvitationCode(db, enterpriseId, code());
}

import type { Selectable } from 'kysely';
import type { EnterpriseDictsTable } from '../db/schema';
import type { Db } from '../db';
import { nowIso } from '../db';
import { findSharedDictionary } from '../db/repos/shared-dictionaries';
import {
  findMemberId,
  findMembership,
  findOtherTeamOfMember,
  findTeamsWithCounts,
  insertMember,
  insertTeam,
  teamExists,
  updateMember,
} from '../db/repos/teams';
import { findUserRole, setEnterpriseId } from '../db/repos/users';
import { conflict, notFound, badRequest, forbidden } from '../errors';
import type { ServerMessageCode } from '../../openapi/messages';

/** Spec §3 team roles a member can have (root is the operator's account role, not a team role). */
export const TEAM_ROLES = ['admin', 'dic_admin', 'user_admin', 'user'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/** Spec §3 member statuses (index). Only ACTIVE grants access to the team. */
export const MEMBER_STATUS = {
  active: 1, // 生效中
  renewalDue: 2, // 待续费
  abnormal: 3, // 异常
  invited: 4, // 已发邀请
  inviteRefused: 5, // 对方拒绝
  applied: 6, // 申请加入
  applicationRefused: 7, // 拒绝加入
  expired: 11, // 已失效
} as const;

/**
 * What each role may do in its team: the one permission table, checked on every team call.
 * `dict.read` list/see shared dictionaries and their words; `dict.use` choose the ones used in one's own
 * checks; `dict.manage` create / rename / delete dictionaries and edit their words; `dict.usage` see who uses
 * which dictionary.
 */
export type TeamAction = 'dict.read' | 'dict.use' | 'dict.manage' | 'dict.usage';
const ALL: readonly TeamAction[] = ['dict.read', 'dict.use', 'dict.manage', 'dict.usage'];
export const TEAM_PERMISSIONS: Record<TeamRole | 'root', readonly TeamAction[]> = {
  root: ALL,
  admin: ALL,
  dic_admin: ALL,
  user_admin: ['dict.read', 'dict.use'],
  user: ['dict.read', 'dict.use'],
};

/** What a role that may not do an action is told. */
const REFUSALS = {
  'dict.read': 'team.cannot_read_dictionaries',
  'dict.use': 'team.cannot_use_dictionaries',
  'dict.manage': 'team.cannot_manage_dictionaries',
  'dict.usage': 'team.cannot_view_usage',
} as const satisfies Record<TeamAction, ServerMessageCode>;

export const NOT_IN_TEAM = 'team.not_member';

/** The caller as seen by team calls: their active team (if any) and role there; root may act on any team. */
export interface TeamContext {
  uid: number;
  root: boolean;
  enterpriseId: number | null;
  /** role in the active team; null outside a team */
  role: TeamRole | null;
}

export async function teamContext(db: Db, uid: number): Promise<TeamContext> {
  const role = await findUserRole(db, uid);
  const member = await findMembership(db, uid, MEMBER_STATUS.active);
  return {
    uid,
    root: role === 'root',
    enterpriseId: member ? Number(member.enterprise_id) : null,
    role: member ? (member.role as TeamRole) : null,
  };
}

export function may(ctx: TeamContext, action: TeamAction): boolean {
  if (ctx.root) return true;
  return ctx.role !== null && TEAM_PERMISSIONS[ctx.role].includes(action);
}

/** 403 outside a team or when the role lacks the action; returns the caller's team id. */
export function requireTeam(ctx: TeamContext, action: TeamAction): number {
  if (ctx.enterpriseId === null) throw forbidden(NOT_IN_TEAM);
  if (!may(ctx, action)) throw forbidden(REFUSALS[action]);
  return ctx.enterpriseId;
}

export type SharedDictRow = Selectable<EnterpriseDictsTable>;

/**
 * A shared dictionary the caller may `action` on: 404 when it does not exist or belongs to another team
 * (the id of another team is not revealed), 403 when the caller's role lacks the action. Root may act on
 * every team's dictionaries.
 */
export async function dictionaryFor(db: Db, ctx: TeamContext, id: number, action: TeamAction): Promise<SharedDictRow> {
  const row = await findSharedDictionary(db, id);
  const own = row && (ctx.root || Number(row.enterprise_id) === ctx.enterpriseId);
  if (!row || !own) {
    if (!ctx.root && ctx.enterpriseId === null) throw forbidden(NOT_IN_TEAM);
    throw notFound('team.unknown_dictionary');
  }
  if (!may(ctx, action)) throw forbidden(REFUSALS[action]);
  return { ...row, id: Number(row.id), enterprise_id: Number(row.enterprise_id) } as SharedDictRow;
}

// ───────────── setting teams up (admin CLI; the team screens will reuse these) ─────────────

export async function createTeam(
  db: Db,
  input: { name: string; address?: string; adminUid: number; adminPhone: string },
): Promise<number> {
  const name = input.name.trim();
  if (!name) throw badRequest('team.name_blank');
  return db.transaction().execute(async (trx) => {
    const now = nowIso();
    const id = await insertTeam(trx, {
      name,
      address: input.address?.trim() ?? '',
      equity_num: 0,
      equity_time: null,
      created_by: input.adminUid,
      created_at: now,
      updated_at: now,
    });
    await activateMember(trx, { enterpriseId: id, uid: input.adminUid, phone: input.adminPhone, role: 'admin' });
    return id;
  });
}

/** Makes `uid` an active member of the team with `role` (409 when they are active in another team). */
export async function addMember(
  db: Db,
  input: { enterpriseId: number; uid: number; phone: string; role: TeamRole },
): Promise<void> {
  if (!(await teamExists(db, input.enterpriseId))) throw notFound('team.unknown', { id: input.enterpriseId });
  await db.transaction().execute((trx) => activateMember(trx, input));
}

async function activateMember(
  trx: Db,
  input: { enterpriseId: number; uid: number; phone: string; role: TeamRole },
): Promise<void> {
  const other = await findOtherTeamOfMember(trx, input.uid, MEMBER_STATUS.active, input.enterpriseId);
  if (other !== undefined) throw conflict('team.member_elsewhere', { team: Number(other) });
  const now = nowIso();
  const existing = await findMemberId(trx, input.enterpriseId, input.uid);
  if (existing !== undefined) {
    await updateMember(trx, existing, {
      role: input.role,
      status: MEMBER_STATUS.active,
      phone: input.phone,
      updated_at: now,
      joined_at: now,
    });
  } else {
    await insertMember(trx, {
      enterprise_id: input.enterpriseId,
      uid: input.uid,
      phone: input.phone,
      role: input.role,
      status: MEMBER_STATUS.active,
      remark: '',
      invited_by: null,
      created_at: now,
      updated_at: now,
      joined_at: now,
    });
  }
  await setEnterpriseId(trx, input.uid, input.enterpriseId);
}

export interface TeamSummary {
  id: number;
  name: string;
  address: string;
  members: number;
  dictionaries: number;
  created_at: string;
}

export async function listTeams(db: Db): Promise<TeamSummary[]> {
  const rows = await findTeamsWithCounts(db, MEMBER_STATUS.active);
  return rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    address: r.address,
    members: Number(r.members ?? 0),
    dictionaries: Number(r.dictionaries ?? 0),
    created_at: r.created_at,
  }));
}

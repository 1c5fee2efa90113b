import type { Selectable } from 'kysely';
import type { EnterpriseDictsTable } from '../../db/schema';
import type { Db } from '../../db';
import { nowIso } from '../../db';
import { findSharedDictionary } from '../../db/repos/shared-dictionaries';
import {
  findMemberId,
  findMembership,
  findOtherTeamOfMember,
  findTeamsWithCounts,
  insertMember,
  insertTeam,
  teamExists,
  updateMember,
} from '../../db/repos/teams';
import { findUserRole, setEnterpriseId } from '../../db/repos/users';
import { conflict, notFound, badRequest, forbidden } from '../../errors';
import type { ServerMessageCode } from '../../../openapi/messages';

/**
 * Spec §3 team roles. `root` (超级管理员) is the team's owner: the applicant of an approved team application or
 * the account the admin CLI creates the team for; there is one per team and the role only moves by transfer.
 * The others can be given (the contract's TeamRole).
 */
export const MEMBER_ROLES = ['root', 'admin', 'dic_admin', 'user_admin', 'user'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];
export const TEAM_ROLES = ['admin', 'dic_admin', 'user_admin', 'user'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
export const isMemberRole = (value: string): value is MemberRole => (MEMBER_ROLES as readonly string[]).includes(value);
/** A stored role as a member role (anything unknown reads as a plain member). */
export const memberRoleOf = (value: string): MemberRole => (isMemberRole(value) ? value : 'user');
/** A stored role as one an invitation can name (root never is). */
export const teamRoleOf = (value: string): TeamRole => TEAM_ROLES.find((r) => r === value) ?? 'user';

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

/** Statuses that hold a seat and tie the account to the team (one team at a time). */
export const HOLDING_STATUSES: readonly number[] = [
  MEMBER_STATUS.active,
  MEMBER_STATUS.renewalDue,
  MEMBER_STATUS.abnormal,
];

/**
 * What each role may do in its team: the one permission table, checked on every team call (the README's matrix
 * is written from it, and tests/server/team-permissions.test.ts runs every team call against it).
 */
export const TEAM_ACTIONS = [
  'team.view', // the team's details (get_user_info, get_enterprise_info without the code, get_user_auth)
  'members.view',
  'members.invite',
  'members.remove',
  'members.status', // suspend / restore, rename another member
  'applications.answer',
  'roles.change',
  'dictionaries.read',
  'dictionaries.use',
  'dictionaries.manage',
  'dictionaries.usage',
  'leader.read',
  'leader.manage',
  'rights.view',
  'rights.allocate',
  'metrics.view',
] as const;
export type TeamAction = (typeof TEAM_ACTIONS)[number];

const EVERY_MEMBER: readonly TeamAction[] = ['team.view', 'dictionaries.read', 'dictionaries.use', 'leader.read'];
const MEMBER_ADMIN: readonly TeamAction[] = [
  'members.view',
  'members.invite',
  'members.remove',
  'members.status',
  'applications.answer',
];
const DICT_ADMIN: readonly TeamAction[] = ['dictionaries.manage', 'dictionaries.usage', 'leader.manage'];

export const TEAM_PERMISSIONS: Record<MemberRole, readonly TeamAction[]> = {
  root: TEAM_ACTIONS,
  admin: TEAM_ACTIONS,
  user_admin: [...EVERY_MEMBER, ...MEMBER_ADMIN],
  dic_admin: [...EVERY_MEMBER, ...DICT_ADMIN],
  user: EVERY_MEMBER,
};

/** The calls each action covers (the README's matrix). */
const ACTION_CALLS: Record<TeamAction, string> = {
  'team.view': 'get_enterprise_info, update_enterprise_username (own name)',
  'members.view': 'get_enterprise_members',
  'members.invite':
    'inviteAndApply, invite_or_apply (type 1), cancel_invitation, ' +
    'the team code in get_enterprise_info, reset_invitation_code',
  'members.remove': 'remove_enterprise_user',
  'members.status': 'modify_enterprise_user_status, update_enterprise_username (another member)',
  'applications.answer': 'pass_apply_or_invite (applications), get_user_apply',
  'roles.change': 'modify_user_auth, updateAuth',
  'dictionaries.read': 'get_share_dictionary_list, get_dict_options, get_enterprise_dic, /enterprise-dic/get_list',
  'dictionaries.use': 'modify_share_dic_status',
  'dictionaries.manage': 'add_share_dic_info, modify_enterprise_dict, delete_share_dic, /enterprise-dic/* changes',
  'dictionaries.usage': 'get_enterprise_dict_in_use',
  'leader.read': '/enterprise-dic/leader/list, history',
  'leader.manage': '/enterprise-dic/leader/add, batch, update, sort',
  'rights.view': 'right_product_package/v1/get, get_allocated_info',
  'rights.allocate': 'right_product_package/v1/allocate_user',
  'metrics.view': 'v2/get_metric',
};

/** The permission table as the README's markdown table. */
export function permissionMatrix(): string {
  const roles = MEMBER_ROLES;
  const lines = [
    `| action | calls | ${roles.join(' | ')} |`,
    `|---|---|${roles.map(() => ':-:').join('|')}|`,
    ...TEAM_ACTIONS.map(
      (a) =>
        `| \`${a}\` | ${ACTION_CALLS[a]} | ` +
        `${roles.map((r) => (TEAM_PERMISSIONS[r].includes(a) ? '✓' : '·')).join(' | ')} |`,
    ),
  ];
  return lines.join('\n');
}

/** The roles each role may give (nobody raises anyone above their own role; root only moves by transfer). */
export const GRANTABLE: Record<MemberRole, readonly TeamRole[]> = {
  root: TEAM_ROLES,
  admin: TEAM_ROLES,
  user_admin: ['user'],
  dic_admin: [],
  user: [],
};

/** Whose membership each role may change (remove, suspend, rename, give a role): strictly lower roles. */
export const ACTS_ON: Record<MemberRole, readonly MemberRole[]> = {
  root: ['admin', 'dic_admin', 'user_admin', 'user'],
  admin: ['dic_admin', 'user_admin', 'user'],
  user_admin: ['user'],
  dic_admin: [],
  user: [],
};

/** What a role that may not do an action is told. */
const REFUSALS = {
  'team.view': 'team.not_member',
  'members.view': 'team.cannot_manage_members',
  'members.invite': 'team.cannot_manage_members',
  'members.remove': 'team.cannot_manage_members',
  'members.status': 'team.cannot_manage_members',
  'applications.answer': 'team.cannot_manage_members',
  'roles.change': 'team.cannot_change_roles',
  'dictionaries.read': 'team.cannot_read_dictionaries',
  'dictionaries.use': 'team.cannot_use_dictionaries',
  'dictionaries.manage': 'team.cannot_manage_dictionaries',
  'dictionaries.usage': 'team.cannot_view_usage',
  'leader.read': 'team.not_member',
  'leader.manage': 'team.cannot_manage_leaders',
  'rights.view': 'team.cannot_manage_rights',
  'rights.allocate': 'team.cannot_manage_rights',
  'metrics.view': 'team.cannot_view_metrics',
} as const satisfies Record<TeamAction, ServerMessageCode>;

export const NOT_IN_TEAM = 'team.not_member';

/**
 * The caller as seen by team calls: their active team (if any) and role there. `operator` is the site's
 * operator account (users.role root), who may act on every team's shared dictionaries.
 */
export interface TeamContext {
  uid: number;
  operator: boolean;
  enterpriseId: number | null;
  /** role in the active team; null outside a team */
  role: MemberRole | null;
}

export async function teamContext(db: Db, uid: number): Promise<TeamContext> {
  const role = await findUserRole(db, uid);
  const member = await findMembership(db, uid, MEMBER_STATUS.active);
  return {
    uid,
    operator: role === 'root',
    enterpriseId: member ? Number(member.enterprise_id) : null,
    role: member && isMemberRole(member.role) ? member.role : null,
  };
}

export function may(ctx: TeamContext, action: TeamAction): boolean {
  if (ctx.operator && action.startsWith('dictionaries.')) return true;
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
  const own = row && (ctx.operator || Number(row.enterprise_id) === ctx.enterpriseId);
  if (!row || !own) {
    if (!ctx.operator && ctx.enterpriseId === null) throw forbidden(NOT_IN_TEAM);
    throw notFound('team.unknown_dictionary');
  }
  if (!may(ctx, action)) throw forbidden(REFUSALS[action]);
  return { ...row, id: Number(row.id), enterprise_id: Number(row.enterprise_id) } as SharedDictRow;
}

// ───────────── setting teams up (admin CLI; the team screens will reuse these) ─────────────

export async function createTeam(
  db: Db,
  input: { name: string; address?: string; adminUid: number; adminPhone: string; seats: number },
): Promise<number> {
  return db.transaction().execute((trx) => createTeamIn(trx, input));
}

/** createTeam inside the caller's transaction (an approved application creates its team with the approval). */
export async function createTeamIn(
  trx: Db,
  input: { name: string; address?: string; adminUid: number; adminPhone: string; seats: number },
): Promise<number> {
  const name = input.name.trim();
  if (!name) throw badRequest('team.name_blank');
  const now = nowIso();
  const id = await insertTeam(trx, {
    name,
    address: input.address?.trim() ?? '',
    equity_num: input.seats,
    equity_time: null,
    invitation_code: null,
    created_by: input.adminUid,
    created_at: now,
    updated_at: now,
  });
  await activateMember(trx, { enterpriseId: id, uid: input.adminUid, phone: input.adminPhone, role: 'root' });
  return id;
}

/** Makes `uid` an active member of the team with `role` (409 when they are active in another team). */
export async function addMember(
  db: Db,
  input: { enterpriseId: number; uid: number; phone: string; role: MemberRole },
): Promise<void> {
  if (!(await teamExists(db, input.enterpriseId))) throw notFound('team.unknown', { id: input.enterpriseId });
  await db.transaction().execute((trx) => activateMember(trx, input));
}

async function activateMember(
  trx: Db,
  input: { enterpriseId: number; uid: number; phone: string; role: MemberRole },
): Promise<void> {
  // a suspended membership elsewhere holds the account too (restoring it would make two teams)
  const other = await findOtherTeamOfMember(trx, input.uid, HOLDING_STATUSES, input.enterpriseId);
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
      name: '',
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

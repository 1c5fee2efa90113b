// Calls of the team screens (/enterprise/*, /enterprise-dic/leader/*), typed by the contract.
import type { components, operations } from '../../openapi/schema';
import { api, unwrap } from '../api/client';

export type TeamInfo = components['schemas']['TeamInfo'];
export type Invitation = components['schemas']['Invitation'];
export type Member = components['schemas']['Member'];
export type Leader = components['schemas']['Leader'];
export type LeaderInput = components['schemas']['LeaderInput'];
export type TeamRole = components['schemas']['TeamRole'];
type Ok<K extends keyof operations> = operations[K]['responses'] extends {
  200: { content: { 'application/json': infer B } };
}
  ? B
  : never;
export type ApplyInfo = NonNullable<Ok<'getEnterpriseUserV1GetApplyEnterpriseInfo'>['result']>;
export type MemberPage = Ok<'getEnterpriseV1GetEnterpriseMembers'>['result'];
export type TeamDetails = Ok<'getEnterpriseV2GetEnterpriseInfo'>['result'];
export type TeamAuth = Ok<'getEnterpriseV1GetUserAuth'>['result'];
export type TeamPackage = Ok<'getEnterpriseRightProductPackageV1Get'>['result'][number];
export type Allocation = Ok<'getEnterpriseRightProductPackageV1GetAllocatedInfo'>['result'][number];
export type Metrics = Ok<'getEnterpriseV2GetMetric'>['result'];
export type LeaderHistory = components['schemas']['LeaderHistory'];
export type SettableStatus = 1 | 2 | 3 | 11;

/** What the signed-in user has to do with teams: their team (or null), invitations, their latest application. */
export interface MembershipState {
  team: TeamInfo | null;
  invitations: Invitation[];
  application: ApplyInfo | null;
}

export async function membershipState(): Promise<MembershipState> {
  const team = await unwrap(api.GET('/enterprise/v1/get_user_info'));
  if (team) return { team, invitations: [], application: null };
  const [invitations, application] = await Promise.all([
    unwrap(api.GET('/enterprise/user/v1/get_enterprise_invitation')),
    unwrap(api.GET('/enterprise/user/v1/get_apply_enterprise_info', { params: { query: {} } })),
  ]);
  return { team: null, invitations, application };
}

export async function answerInvitation(id: number, pass: boolean): Promise<void> {
  await unwrap(api.POST('/enterprise/v1/pass_apply_or_invite', { body: { id, pass } }));
}

export async function teamByCode(code: string): Promise<ApplyInfo> {
  const info = await unwrap(
    api.GET('/enterprise/user/v1/get_apply_enterprise_info', { params: { query: { invitation_code: code } } }),
  );
  if (!info) throw new Error('team.unknown_code');
  return info;
}

/** The team an SMS invitation link asks to join (shown before accepting); silent: the page says what went wrong. */
export async function teamOfSmsInvitation(code: string): Promise<ApplyInfo | null> {
  return unwrap(
    api.GET('/enterprise/user/v1/get_apply_enterprise_info', { params: { query: { sms_invitation_code: code } } }),
    { silent: true },
  );
}

export async function applyByCode(code: string, name?: string): Promise<void> {
  await unwrap(
    api.POST('/enterprise/user/v1/apply_join_enterprise', {
      body: { invitation_code: code, ...(name ? { name } : {}) },
    }),
  );
}

export async function quitTeam(): Promise<void> {
  await unwrap(api.POST('/enterprise/v1/quit_enterprise'));
}

export const teamAuth = () => unwrap(api.GET('/enterprise/v1/get_user_auth'));
export const teamDetails = () => unwrap(api.GET('/enterprise/v2/get_enterprise_info'));

export function memberPage(query: { num: number; size: number; keyword?: string; status?: Member['status'] }) {
  return unwrap(api.GET('/enterprise/v1/get_enterprise_members', { params: { query } }));
}

export async function invitePhones(phones: string[], role: TeamRole) {
  return unwrap(api.POST('/enterprise/v1/inviteAndApply', { body: { phones, role } }));
}

export async function removeMembers(uids: number[]): Promise<void> {
  await unwrap(api.POST('/enterprise/v1/remove_enterprise_user', { body: { uids } }));
}

export async function setRole(uid: number, role: TeamRole): Promise<void> {
  await unwrap(api.POST('/enterprise/v1/modify_user_auth', { body: { uid, role } }));
}

export async function setStatus(uids: number[], status: SettableStatus): Promise<void> {
  await unwrap(api.POST('/enterprise/v1/modify_enterprise_user_status', { body: { uids, status } }));
}

export async function renameMember(name: string, uid?: number): Promise<void> {
  await unwrap(api.POST('/enterprise/user/v1/update_enterprise_username', { body: { name, ...(uid ? { uid } : {}) } }));
}

export async function cancelInvitation(id: number): Promise<void> {
  await unwrap(api.POST('/enterprise/v1/cancel_invitation', { body: { id } }));
}

export async function renewInvitationCode(): Promise<string> {
  return (await unwrap(api.POST('/enterprise/v1/reset_invitation_code'))).invitation_code;
}

export async function transferRoot(uid: number): Promise<void> {
  await unwrap(api.POST('/enterprise/v1/transfer_root', { body: { uid } }));
}

export const leaderList = () =>
  unwrap(api.GET('/enterprise-dic/leader/list', { params: { query: { num: 1, size: 2000 } } }));
export const leaderHistory = () =>
  unwrap(api.GET('/enterprise-dic/leader/history', { params: { query: { num: 1, size: 50 } } }));
export const addLeader = (input: LeaderInput) => unwrap(api.POST('/enterprise-dic/leader/add', { body: input }));
export const updateLeader = (id: number, input: LeaderInput) =>
  unwrap(api.PUT('/enterprise-dic/leader/update/{id}', { params: { path: { id } }, body: input }));
export async function deleteLeaders(ids: number[]): Promise<void> {
  await unwrap(api.POST('/enterprise-dic/leader/batch', { body: { action: 'delete', ids } }));
}
export async function batchAddLeaders(items: LeaderInput[]): Promise<void> {
  await unwrap(api.POST('/enterprise-dic/leader/batch', { body: { action: 'add', items } }));
}
export async function sortLeaders(ids: number[]): Promise<void> {
  await unwrap(api.POST('/enterprise-dic/leader/sort', { body: { ids } }));
}

export const teamPackages = () => unwrap(api.GET('/enterprise/right_product_package/v1/get'));
export const allocations = () => unwrap(api.GET('/enterprise/right_product_package/v1/get_allocated_info'));
export async function allocate(body: { package_id: number; uids: number[]; user_right_type: number; num: number }) {
  await unwrap(
    api.POST('/enterprise/right_product_package/v1/allocate_user', {
      body: { ...body, user_right_type: body.user_right_type as components['schemas']['UserRightType'] },
    }),
  );
}

export const metrics = (start?: string, end?: string) =>
  unwrap(
    api.GET('/enterprise/v2/get_metric', {
      params: { query: { ...(start ? { start } : {}), ...(end ? { end } : {}) } },
    }),
  );

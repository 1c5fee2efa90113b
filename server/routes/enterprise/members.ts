import type { FastifyRequest } from 'fastify';
import {
  countMembers,
  expireInvitations,
  findMemberPage,
  findMemberRowOf,
  findRootName,
  findTeam,
} from '../../db/repos/teams';
import { badRequest, envelope, forbidden } from '../../errors';
import { containsPattern } from '../../domain/dictionaries/dictionary';
import {
  answer,
  applyToTeam,
  cancelInvitation,
  rotateInvitationCode,
  invitationCodeOf,
  invitationsFor,
  invitePhone,
  invitePhones,
  joinByLink,
  smsInvitationTeam,
  pendingApplications,
  quit,
  removeMembers,
  rename,
  setRoles,
  setStatuses,
  teamByInvitationCode,
  transferRoot,
  EXPIRY,
  type TeamDeps,
} from '../../domain/teams/members';
import { applyForApi, applyForTeam, listApplications, reviewApplication } from '../../domain/teams/applications';
import { metricRange, teamMetrics } from '../../domain/teams/metrics';
import { allocate, allocatedInfo, teamPackages } from '../../domain/teams/packages';
import { requestLang } from '../../domain/locale';
import {
  ACTS_ON,
  GRANTABLE,
  MEMBER_STATUS,
  TEAM_PERMISSIONS,
  may,
  memberRoleOf,
  requireTeam,
  teamContext,
} from '../../domain/teams/teams';
import { defaultName } from '../../domain/accounts/users';
import { caller, requireOperator, type Operations } from '../types';

/**
 * Team membership, applications, team details, metrics and right packages (spec §7 Team). Every call resolves the
 * caller's team and role on the server and checks domain/teams/teams.ts's permission table; ids of other teams
 * answer 404 like unknown ones.
 */

const context = async (request: FastifyRequest) => teamContext(request.server.db, (await caller(request)).uid);

const deps = (request: FastifyRequest): TeamDeps => ({
  db: request.server.db,
  sms: request.server.sms,
  notify: (uid, message) => request.server.realtime.sendToUser(uid, message),
  inviteDays: request.server.config.team.inviteDays,
  origin: request.server.config.origin,
});

/**
 * A search by phone matches the last four digits or the whole number only: the list shows phones masked, and a
 * search on any part would let the hidden digits be found one by one.
 */
function phoneFilter(keyword: string): { exact?: string; suffix?: string } | undefined {
  if (/^\d{11}$/.test(keyword)) return { exact: keyword };
  if (/^\d{1,4}$/.test(keyword)) return { suffix: keyword };
  return undefined;
}

/** 138****0000: members' phones are shown masked. */
const masked = (phone: string) => (/^\d{11}$/.test(phone) ? defaultName(phone) : phone);

export const teamMemberOperations: Operations = {
  // ───── applications for a team / API access ─────
  postEnterpriseV1TeamApplication: async (request) => {
    const { uid } = await caller(request);
    await request.server.limiters.teamApply(request);
    const id = await applyForTeam(request.server.db, uid, request.body);
    return envelope({ id }, '申请已提交，我们会尽快审核');
  },

  postCrmComponentAppAddOneCheckno: async (request) => {
    const { uid } = await caller(request);
    await request.server.limiters.teamApply(request);
    const id = await applyForApi(request.server.db, uid, request.body);
    return envelope({ id }, '申请已提交，我们会尽快联系您');
  },

  getAdminV1Applications: async (request) => {
    await requireOperator(request, 'team.cannot_review');
    const rows = await listApplications(request.server.db, request.query);
    return envelope(
      rows.map((r) => ({
        id: Number(r.id),
        kind: r.kind === 'api' ? ('api' as const) : ('team' as const),
        uid: Number(r.uid),
        name: r.name,
        contact_name: r.contact_name,
        phone: r.phone,
        email: r.email,
        address: r.address,
        user_num: Number(r.user_num),
        remark: r.remark,
        status: r.status as 'pending' | 'approved' | 'refused',
        enterprise_id: r.enterprise_id === null ? null : Number(r.enterprise_id),
        review_note: r.review_note,
        created_at: r.created_at,
        reviewed_at: r.reviewed_at,
      })),
    );
  },

  postAdminV1ApplicationsReview: async (request) => {
    const reviewer = await requireOperator(request, 'team.cannot_review');
    const b = request.body;
    const { enterpriseId } = await reviewApplication(request.server.db, {
      id: b.id,
      approve: b.approve,
      reviewer,
      note: b.note,
      seats: b.seats,
      defaultSeats: request.server.config.team.defaultSeats,
    });
    return envelope({ enterprise_id: enterpriseId }, b.approve ? '已通过' : '已拒绝');
  },

  // ───── invitations and applications to join ─────
  postEnterpriseV1InviteAndApply: async (request) => {
    const ctx = await context(request);
    await request.server.limiters.teamInvite(request);
    return envelope(await invitePhones(deps(request), ctx, request.body.phones, request.body.role), '邀请已发送');
  },

  postEnterpriseV1InviteOrApply: async (request) => {
    const ctx = await context(request);
    const b = request.body;
    if (b.type === 1) {
      if (!b.phone) throw badRequest('request.invalid', { field: 'phone', problem: 'is required' });
      await request.server.limiters.teamInvite(request);
      return envelope({ id: await invitePhone(deps(request), ctx, b.phone, b.remark ?? '') }, '邀请已发送');
    }
    // applying by a team's id would let anyone find every team (ids are sequential): the code is the way in
    throw forbidden('team.apply_with_code');
  },

  getEnterpriseUserV1GetEnterpriseInvitation: async (request) => {
    const { uid } = await caller(request);
    return envelope(await invitationsFor(request.server.db, uid));
  },

  postEnterpriseV1PassApplyOrInvite: async (request) => {
    const ctx = await context(request);
    await answer(deps(request), ctx, request.body.id, request.body.pass);
    return envelope(null, request.body.pass ? '已同意' : '已拒绝');
  },

  postEnterpriseUserV1ApplyJoinEnterprise: async (request) => {
    const { uid } = await caller(request);
    await request.server.limiters.teamCode(request);
    const team = await teamByInvitationCode(request.server.db, request.body.invitation_code);
    await request.server.limiters.teamApply(request);
    const id = await applyToTeam(deps(request), uid, Number(team.id), {
      name: request.body.name,
      remark: request.body.remark,
    });
    return envelope({ id }, '申请已提交，等待团队管理员审核');
  },

  getEnterpriseV1GetUserApply: async (request) => {
    const ctx = await context(request);
    return envelope({ result: await pendingApplications(request.server.db, ctx) });
  },

  getEnterpriseUserV1GetApplyEnterpriseInfo: async (request) => {
    const { uid } = await caller(request);
    const db = request.server.db;
    let enterpriseId: number;
    if (request.query.sms_invitation_code) {
      // the team an SMS invitation link names, shown on /sms_invite before it is accepted
      await request.server.limiters.teamCode(request);
      enterpriseId = await smsInvitationTeam(db, uid, request.query.sms_invitation_code);
    } else if (request.query.invitation_code) {
      await request.server.limiters.teamCode(request);
      enterpriseId = Number((await teamByInvitationCode(db, request.query.invitation_code)).id);
    } else {
      const latest = await db
        .selectFrom('enterprise_members')
        .select('enterprise_id')
        .where('uid', '=', uid)
        .where('status', 'in', [MEMBER_STATUS.applied, MEMBER_STATUS.applicationRefused])
        .orderBy('updated_at', 'desc')
        .executeTakeFirst();
      if (!latest) return envelope(null);
      enterpriseId = Number(latest.enterprise_id);
    }
    const team = await findTeam(db, enterpriseId);
    const mine = await findMemberRowOf(db, enterpriseId, uid);
    const status = mine?.status ?? null;
    return envelope({
      enterprise_id: enterpriseId,
      name: team.name,
      admin_name: await findRootName(db, enterpriseId),
      user_num: await countMembers(db, enterpriseId, MEMBER_STATUS.active),
      status: status as 1 | 2 | 3 | 4 | 5 | 6 | 7 | 11 | null,
    });
  },

  getEnterpriseUserV1JoinEnterpriseByLink: async (request) => {
    const { uid } = await caller(request);
    await request.server.limiters.teamCode(request);
    return envelope(await joinByLink(request.server.db, uid, request.query.sms_invitation_code), '已加入团队');
  },

  // ───── the team ─────
  getEnterpriseV2GetEnterpriseInfo: async (request) => {
    const ctx = await context(request);
    const enterpriseId = requireTeam(ctx, 'team.view');
    const db = request.server.db;
    const team = await findTeam(db, enterpriseId);
    const showCode = may(ctx, 'members.invite');
    return envelope({
      enterprise_id: enterpriseId,
      name: team.name,
      address: team.address,
      user_num: await countMembers(db, enterpriseId, MEMBER_STATUS.active),
      equity_num: Number(team.equity_num),
      equity_time: team.equity_time,
      role: ctx.role!,
      admin_name: await findRootName(db, enterpriseId),
      created_at: team.created_at,
      ...(showCode ? { invitation_code: await invitationCodeOf(db, enterpriseId) } : {}),
    });
  },

  getEnterpriseV2GetMetric: async (request) => {
    const ctx = await context(request);
    const enterpriseId = requireTeam(ctx, 'metrics.view');
    const range = metricRange(request.query.start, request.query.end);
    return envelope(await teamMetrics(request.server.db, enterpriseId, range));
  },

  getEnterpriseV1GetUserAuth: async (request) => {
    const ctx = await context(request);
    const role = ctx.role;
    return envelope({
      role,
      permissions: role ? [...TEAM_PERMISSIONS[role]] : [],
      acts_on: role ? [...ACTS_ON[role]] : [],
      grantable: role ? [...GRANTABLE[role]] : [],
    });
  },

  // ───── members ─────
  getEnterpriseV1GetEnterpriseMembers: async (request) => {
    const ctx = await context(request);
    const enterpriseId = requireTeam(ctx, 'members.view');
    // invitations that ran out show as 已失效
    await expireInvitations(request.server.db, { enterpriseId }, EXPIRY);
    const { num = 1, size = 20, keyword, status } = request.query;
    const { total, rows } = await findMemberPage(request.server.db, enterpriseId, {
      keyword: keyword?.trim() ? containsPattern(keyword.trim()) : undefined,
      phone: phoneFilter(keyword?.trim() ?? ''),
      status,
      offset: (num - 1) * size,
      limit: size,
    });
    return envelope({
      total,
      num,
      size,
      list: rows.map((r) => ({
        id: Number(r.id),
        uid: r.uid === null ? null : Number(r.uid),
        name: r.name || r.account_name || masked(r.phone),
        phone: masked(r.phone),
        role: memberRoleOf(r.role),
        status: r.status as 1 | 2 | 3 | 4 | 5 | 6 | 7 | 11,
        remark: r.remark,
        created_at: r.created_at,
        joined_at: r.joined_at,
        last_active_at: r.last_active_at ?? null,
      })),
    });
  },

  postEnterpriseV1RemoveEnterpriseUser: async (request) => {
    const ctx = await context(request);
    return envelope({ count: await removeMembers(request.server.db, ctx, request.body.uids) }, '已移除');
  },

  postEnterpriseV1ModifyUserAuth: async (request) => {
    const ctx = await context(request);
    await setRoles(request.server.db, ctx, [request.body.uid], request.body.role);
    return envelope(null, '角色已修改');
  },

  postEnterpriseV1UpdateAuth: async (request) => {
    const ctx = await context(request);
    return envelope(
      { count: await setRoles(request.server.db, ctx, request.body.uids, request.body.role) },
      '角色已修改',
    );
  },

  postEnterpriseV1CancelInvitation: async (request) => {
    const ctx = await context(request);
    await cancelInvitation(request.server.db, ctx, request.body.id);
    return envelope(null, '已撤回邀请');
  },

  postEnterpriseV1ResetInvitationCode: async (request) => {
    const ctx = await context(request);
    return envelope({ invitation_code: await rotateInvitationCode(request.server.db, ctx) }, '邀请码已更换');
  },

  postEnterpriseV1TransferRoot: async (request) => {
    const ctx = await context(request);
    await transferRoot(request.server.db, ctx, request.body.uid);
    return envelope(null, '团队已转让');
  },

  postEnterpriseUserV1UpdateEnterpriseUsername: async (request) => {
    const ctx = await context(request);
    await rename(request.server.db, ctx, request.body.name, request.body.uid);
    return envelope(null, '已修改');
  },

  postEnterpriseV1QuitEnterprise: async (request) => {
    const { uid } = await caller(request);
    await quit(request.server.db, uid);
    return envelope(null, '已退出团队');
  },

  postEnterpriseV1ModifyEnterpriseUserStatus: async (request) => {
    const ctx = await context(request);
    const { uids, status } = request.body;
    return envelope({ count: await setStatuses(request.server.db, ctx, uids, status) }, '状态已修改');
  },

  // ───── right packages ─────
  getEnterpriseRightProductPackageV1Get: async (request) => {
    const ctx = await context(request);
    const enterpriseId = requireTeam(ctx, 'rights.view');
    return envelope(await teamPackages(request.server.db, enterpriseId, requestLang(request)));
  },

  getEnterpriseRightProductPackageV1GetAllocatedInfo: async (request) => {
    const ctx = await context(request);
    const enterpriseId = requireTeam(ctx, 'rights.view');
    return envelope(
      await allocatedInfo(
        request.server.db,
        enterpriseId,
        {
          packageId: request.query.package_id,
          uid: request.query.uid,
        },
        requestLang(request),
      ),
    );
  },

  postEnterpriseRightProductPackageV1AllocateUser: async (request) => {
    const ctx = await context(request);
    const enterpriseId = requireTeam(ctx, 'rights.allocate');
    const b = request.body;
    const count = await allocate(request.server.db, {
      enterpriseId,
      packageId: b.package_id,
      uids: b.uids,
      type: b.user_right_type,
      num: b.num,
      by: ctx.uid,
    });
    return envelope({ count }, '已分配');
  },
};

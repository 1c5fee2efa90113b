import type { FastifyRequest } from 'fastify';
import { envelope } from '../../errors';
import {
  addLeader,
  batchLeaders,
  leaderHistory,
  leaderPage,
  sortLeaders,
  updateLeader,
  type LeaderOwner,
} from '../../domain/dictionaries/leaders';
import { requireTeam, teamContext, type TeamAction } from '../../domain/teams/teams';
import { requestLang } from '../../domain/locale';
import { caller, type Operations } from '../types';

/**
 * The leader dictionaries (spec §7: /enterprise-dic/leader/* for the team's, /dict/v1/leader/* for one's own). The
 * team's list is read by every member (`leader.read`) and changed by admin and dic_admin (`leader.manage`).
 */

const personal = async (request: FastifyRequest): Promise<{ owner: LeaderOwner; uid: number }> => {
  const { uid } = await caller(request);
  return { owner: { kind: 'user', id: uid }, uid };
};

const team = async (request: FastifyRequest, action: TeamAction): Promise<{ owner: LeaderOwner; uid: number }> => {
  const { uid } = await caller(request);
  const ctx = await teamContext(request.server.db, uid);
  return { owner: { kind: 'team', id: requireTeam(ctx, action) }, uid };
};

export const leaderOperations: Operations = {
  getEnterpriseDicLeaderList: async (request) => {
    const { owner } = await team(request, 'leader.read');
    const { num = 1, size = 100, keyword } = request.query;
    return envelope(await leaderPage(request.server.db, owner, { num, size, keyword }));
  },
  getEnterpriseDicLeaderHistory: async (request) => {
    const { owner } = await team(request, 'leader.read');
    const { num = 1, size = 20 } = request.query;
    return envelope(await leaderHistory(request.server.db, owner, { num, size }, requestLang(request)));
  },
  postEnterpriseDicLeaderBatch: async (request) => {
    const { owner, uid } = await team(request, 'leader.manage');
    return envelope({ count: await batchLeaders(request.server.db, owner, uid, request.body) });
  },
  putEnterpriseDicLeaderUpdateById: async (request) => {
    const { owner, uid } = await team(request, 'leader.manage');
    return envelope(await updateLeader(request.server.db, owner, uid, request.params.id, request.body), '已修改');
  },
  postEnterpriseDicLeaderAdd: async (request) => {
    const { owner, uid } = await team(request, 'leader.manage');
    return envelope(await addLeader(request.server.db, owner, uid, request.body), '已添加');
  },
  postEnterpriseDicLeaderSort: async (request) => {
    const { owner, uid } = await team(request, 'leader.manage');
    await sortLeaders(request.server.db, owner, uid, request.body.ids);
    return envelope(null, '排序已保存');
  },

  getDictV1LeaderList: async (request) => {
    const { owner } = await personal(request);
    const { num = 1, size = 100, keyword } = request.query;
    return envelope(await leaderPage(request.server.db, owner, { num, size, keyword }));
  },
  getDictV1LeaderHistory: async (request) => {
    const { owner } = await personal(request);
    const { num = 1, size = 20 } = request.query;
    return envelope(await leaderHistory(request.server.db, owner, { num, size }, requestLang(request)));
  },
  postDictV1LeaderBatch: async (request) => {
    const { owner, uid } = await personal(request);
    return envelope({ count: await batchLeaders(request.server.db, owner, uid, request.body) });
  },
  putDictV1LeaderUpdateById: async (request) => {
    const { owner, uid } = await personal(request);
    return envelope(await updateLeader(request.server.db, owner, uid, request.params.id, request.body), '已修改');
  },
  postDictV1LeaderAdd: async (request) => {
    const { owner, uid } = await personal(request);
    return envelope(await addLeader(request.server.db, owner, uid, request.body), '已添加');
  },
  postDictV1LeaderSort: async (request) => {
    const { owner, uid } = await personal(request);
    await sortLeaders(request.server.db, owner, uid, request.body.ids);
    return envelope(null, '排序已保存');
  },
};

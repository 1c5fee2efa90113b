import type { components } from '../../../openapi/schema';
import { nowIso, type Db } from '../../db';
import {
  addDictionaryUser,
  deleteSharedDictionary,
  findDictionaryOptions,
  findSharedDictionaries,
  insertSharedDictionary,
  stopUsingSharedDictionary,
  updateSharedDictionary,
  useSharedDictionary,
} from '../../db/repos/shared-dictionaries';
import { countSharedWordsByType } from '../../db/repos/shared-words';
import { countMembers, findTeam } from '../../db/repos/teams';
import { conflict, envelope, notFound, badRequest } from '../../errors';
import { isUniqueViolation } from '../../domain/dictionaries/dictionary';
import { dictionaryFor, MEMBER_STATUS, requireTeam, teamContext, type TeamContext } from '../../domain/teams/teams';
import { caller, type Operations } from '../types';

/**
 * The team's shared dictionaries (spec §7 Team: /enterprise/v1/*share_dic*, *enterprise_dic*). Every call
 * resolves the caller's team and role and checks the permission table in domain/teams/teams.ts. "In use" is per
 * member: each member chooses which of the team's dictionaries apply to their own checks.
 */

/** A shared dictionary as the contract describes it. */
export type SharedDictionaryView = components['schemas']['SharedDictionary'];

/** The team's dictionaries as the caller sees them (word and user counts, whether the caller uses them). */
export async function sharedDictionaries(
  db: Db,
  ctx: TeamContext,
  where: { enterpriseId: number; ids?: number[]; usedBy?: 'caller' | 'anyone' },
): Promise<SharedDictionaryView[]> {
  const rows = await findSharedDictionaries(db, {
    enterpriseId: where.enterpriseId,
    viewer: ctx.uid,
    memberStatus: MEMBER_STATUS.active,
    ids: where.ids,
  });
  const views = rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    description: r.description,
    word_count: Number(r.word_count ?? 0),
    in_use: Number(r.mine ?? 0) > 0,
    user_count: Number(r.user_count ?? 0),
    creator_name: r.creator_name ?? '',
    created_at: r.created_at,
    updated_at: r.updated_at,
  }));
  if (where.usedBy === 'caller') return views.filter((v) => v.in_use);
  if (where.usedBy === 'anyone') return views.filter((v) => v.user_count > 0);
  return views;
}

async function viewOf(
  db: Db,
  ctx: TeamContext,
  dict: { id: number; enterprise_id: number },
): Promise<SharedDictionaryView> {
  const [view] = await sharedDictionaries(db, ctx, { enterpriseId: dict.enterprise_id, ids: [dict.id] });
  if (!view) throw notFound('team.unknown_dictionary');
  return view;
}

const DUPLICATE_NAME = 'team.duplicate_dictionary';

function cleanName(name: string): string {
  const clean = name.trim();
  if (!clean || /[\u0000-\u001f]/.test(clean)) throw badRequest('team.dictionary_name_blank');
  return clean;
}

const context = async (request: Parameters<typeof caller>[0]) =>
  teamContext(request.server.db, (await caller(request)).uid);

export const sharedDictionaryOperations: Operations = {
  getEnterpriseV1GetUserInfo: async (request) => {
    const ctx = await context(request);
    if (ctx.enterpriseId === null) return envelope(null, '未加入团队');
    const db = request.server.db;
    const team = await findTeam(db, ctx.enterpriseId);
    const members = await countMembers(db, ctx.enterpriseId, MEMBER_STATUS.active);
    return envelope({
      enterprise_id: Number(team.id),
      name: team.name,
      address: team.address,
      user_num: members,
      equity_num: Number(team.equity_num),
      equity_time: team.equity_time,
      role: ctx.role!,
    });
  },

  getEnterpriseV1GetShareDictionaryList: async (request) => {
    const ctx = await context(request);
    const enterpriseId = requireTeam(ctx, 'dictionaries.read');
    return envelope(await sharedDictionaries(request.server.db, ctx, { enterpriseId }));
  },

  getEnterpriseV1GetDictOptions: async (request) => {
    const ctx = await context(request);
    const enterpriseId = requireTeam(ctx, 'dictionaries.read');
    const rows = await findDictionaryOptions(request.server.db, enterpriseId);
    return envelope(rows.map((r) => ({ id: Number(r.id), name: r.name })));
  },

  getEnterpriseV1ShareDicInUse: async (request) => {
    const ctx = await context(request);
    // silent call (spec §8): outside a team the answer is simply an empty list
    if (ctx.enterpriseId === null) return envelope([]);
    return envelope(
      await sharedDictionaries(request.server.db, ctx, { enterpriseId: ctx.enterpriseId, usedBy: 'caller' }),
    );
  },

  getEnterpriseV1GetEnterpriseDictInUse: async (request) => {
    const ctx = await context(request);
    const enterpriseId = requireTeam(ctx, 'dictionaries.usage');
    return envelope(await sharedDictionaries(request.server.db, ctx, { enterpriseId, usedBy: 'anyone' }));
  },

  getEnterpriseV1GetEnterpriseDic: async (request) => {
    const ctx = await context(request);
    const { id } = request.query;
    const dict = await dictionaryFor(request.server.db, ctx, id, 'dictionaries.read');
    const rows = await countSharedWordsByType(request.server.db, dict.id);
    const counts: Record<string, number> = { '1': 0, '4': 0, '5': 0, '9': 0 };
    for (const r of rows) counts[String(r.type)] = Number(r.n);
    return envelope({ ...(await viewOf(request.server.db, ctx, dict)), counts });
  },

  postEnterpriseV1AddShareDicInfo: async (request) => {
    const ctx = await context(request);
    const enterpriseId = requireTeam(ctx, 'dictionaries.manage');
    const body = request.body;
    const name = cleanName(body.name);
    const now = nowIso();
    try {
      const id = await request.server.db.transaction().execute(async (trx) => {
        const dictId = await insertSharedDictionary(trx, {
          enterprise_id: enterpriseId,
          name,
          description: body.description?.trim() ?? '',
          created_by: ctx.uid,
          created_at: now,
          updated_at: now,
        });
        // the creator starts using it; other members turn it on for themselves
        await addDictionaryUser(trx, dictId, ctx.uid, now);
        return dictId;
      });
      return envelope(await viewOf(request.server.db, ctx, { id, enterprise_id: enterpriseId }), '创建成功');
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(DUPLICATE_NAME);
      throw error;
    }
  },

  postEnterpriseV1ModifyEnterpriseDict: async (request) => {
    const ctx = await context(request);
    const body = request.body;
    const dict = await dictionaryFor(request.server.db, ctx, body.id, 'dictionaries.manage');
    const changes: { name?: string; description?: string; updated_at: string } = { updated_at: nowIso() };
    if (body.name !== undefined) changes.name = cleanName(body.name);
    if (body.description !== undefined) changes.description = body.description.trim();
    try {
      await updateSharedDictionary(request.server.db, dict.id, changes);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(DUPLICATE_NAME);
      throw error;
    }
    return envelope(await viewOf(request.server.db, ctx, dict), '修改成功');
  },

  postEnterpriseV1DeleteShareDic: async (request) => {
    const ctx = await context(request);
    const { id } = request.body;
    const dict = await dictionaryFor(request.server.db, ctx, id, 'dictionaries.manage');
    const db = request.server.db;
    // words and usage go with it (also explicit, so it does not depend on foreign-key enforcement)
    await db.transaction().execute((trx) => deleteSharedDictionary(trx, dict.id));
    return envelope(null, '删除成功');
  },

  postEnterpriseV1ModifyShareDicStatus: async (request) => {
    const ctx = await context(request);
    const { id, status } = request.body;
    const dict = await dictionaryFor(request.server.db, ctx, id, 'dictionaries.use');
    // only a member's own team's dictionaries can be used in their checks (root included)
    if (dict.enterprise_id !== ctx.enterpriseId) throw notFound('team.unknown_dictionary');
    const db = request.server.db;
    if (status === 1) await useSharedDictionary(db, dict.id, ctx.uid, nowIso());
    else await stopUsingSharedDictionary(db, dict.id, ctx.uid);
    return envelope(null, status === 1 ? '已启用' : '已停用');
  },
};

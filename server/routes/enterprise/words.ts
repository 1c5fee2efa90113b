import { sql } from 'kysely';
import { nowIso } from '../../db';
import { AppError, conflict, envelope, notFound } from '../../errors';
import { cleanEntry, containsPattern, DUPLICATE_WORD, isUniqueViolation } from '../../services/dictionary';
import { dictionaryFor, requireTeam, teamContext, type TeamContext } from '../../services/teams';
import { caller, type Operations } from '../types';
import type { Db } from '../../db';

/** Words of a shared dictionary (spec §7 Team: /enterprise-dic/*). Reading needs `dict.read`, changes `dict.manage`. */

interface WordRow {
  id: number;
  word: string;
  type: number;
  correct: string | null;
  created_at: string;
  updated_at: string;
}

const toWord = (r: WordRow) => ({
  id: Number(r.id),
  word: r.word,
  type: Number(r.type),
  correct: r.correct,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

const context = async (request: Parameters<typeof caller>[0]) =>
  teamContext(request.server.db, (await caller(request)).uid);

const UNKNOWN_WORD = 'dict.unknown_word';

/** The dictionary a word belongs to, checked for `dict.manage` (404 for words of other teams). */
async function dictionaryOfWord(db: Db, ctx: TeamContext, wordId: number) {
  const word = await db
    .selectFrom('enterprise_dict_words')
    .select('dict_id')
    .where('id', '=', wordId)
    .executeTakeFirst();
  if (!word) {
    requireTeam(ctx, 'dict.read');
    throw notFound(UNKNOWN_WORD);
  }
  try {
    return await dictionaryFor(db, ctx, Number(word.dict_id), 'dict.manage');
  } catch (error) {
    // a word of another team's dictionary is answered like a word that does not exist
    if (error instanceof AppError && error.statusCode === 404) throw notFound(UNKNOWN_WORD);
    throw error;
  }
}

export const sharedWordOperations: Operations = {
  postEnterpriseDicGetList: async (request) => {
    const ctx = await context(request);
    const q = request.body;
    const dict = await dictionaryFor(request.server.db, ctx, q.dic_id, 'dict.read');
    const num = q.num ?? 1;
    const size = q.size ?? 20;
    let base = request.server.db.selectFrom('enterprise_dict_words').where('dict_id', '=', dict.id);
    if (q.type !== undefined) base = base.where('type', '=', q.type);
    const keyword = q.keyword?.trim();
    if (keyword) {
      const like = containsPattern(keyword);
      base = base.where((eb) =>
        eb.or([
          eb('word', 'like', sql<string>`${like} escape '\\'`),
          eb('correct', 'like', sql<string>`${like} escape '\\'`),
        ]),
      );
    }
    const total = Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
    const rows = await base
      .select(['id', 'word', 'type', 'correct', 'created_at', 'updated_at'])
      .orderBy('id', 'desc')
      .limit(size)
      .offset((num - 1) * size)
      .execute();
    return envelope({ total, num, size, list: rows.map((r) => toWord(r as WordRow)) });
  },

  postEnterpriseDicAddOne: async (request) => {
    const ctx = await context(request);
    const body = request.body;
    const dict = await dictionaryFor(request.server.db, ctx, body.dic_id, 'dict.manage');
    const entry = cleanEntry(body);
    const now = nowIso();
    try {
      const row = await request.server.db
        .insertInto('enterprise_dict_words')
        .values({ dict_id: dict.id, ...entry, created_by: ctx.uid, created_at: now, updated_at: now })
        .returning(['id', 'word', 'type', 'correct', 'created_at', 'updated_at'])
        .executeTakeFirstOrThrow();
      return envelope(toWord(row as WordRow), '添加成功');
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(DUPLICATE_WORD);
      throw error;
    }
  },

  postEnterpriseDicUpdateOne: async (request) => {
    const ctx = await context(request);
    const body = request.body;
    await dictionaryOfWord(request.server.db, ctx, body.id);
    const entry = cleanEntry(body);
    try {
      const row = await request.server.db
        .updateTable('enterprise_dict_words')
        .set({ ...entry, updated_at: nowIso() })
        .where('id', '=', body.id)
        .returning(['id', 'word', 'type', 'correct', 'created_at', 'updated_at'])
        .executeTakeFirst();
      if (!row) throw notFound(UNKNOWN_WORD);
      return envelope(toWord(row as WordRow), '修改成功');
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(DUPLICATE_WORD);
      throw error;
    }
  },

  postEnterpriseDicDeleteOne: async (request) => {
    const ctx = await context(request);
    const { id } = request.body;
    await dictionaryOfWord(request.server.db, ctx, id);
    await request.server.db.deleteFrom('enterprise_dict_words').where('id', '=', id).execute();
    return envelope(null, '删除成功');
  },

  postEnterpriseDicDeleteMany: async (request) => {
    const ctx = await context(request);
    const enterpriseId = requireTeam(ctx, 'dict.manage');
    const { ids } = request.body;
    const db = request.server.db;
    // only words of the caller's team's dictionaries (root: of any team); other ids are not counted
    let query = db.deleteFrom('enterprise_dict_words').where('id', 'in', ids);
    if (!ctx.root)
      query = query.where(
        'dict_id',
        'in',
        db.selectFrom('enterprise_dicts').select('id').where('enterprise_id', '=', enterpriseId),
      );
    const res = await query.executeTakeFirst();
    return envelope({ count: Number(res.numDeletedRows) }, '删除成功');
  },

  postEnterpriseDicDeleteAllWord: async (request) => {
    const ctx = await context(request);
    const { dic_id, type } = request.body;
    const dict = await dictionaryFor(request.server.db, ctx, dic_id, 'dict.manage');
    let query = request.server.db.deleteFrom('enterprise_dict_words').where('dict_id', '=', dict.id);
    if (type !== undefined) query = query.where('type', '=', type);
    const res = await query.executeTakeFirst();
    return envelope({ count: Number(res.numDeletedRows) }, '已清空');
  },

  postEnterpriseDicPersonToEnterpriseDic: async (request) => {
    const ctx = await context(request);
    const { dic_id, ids } = request.body;
    const dict = await dictionaryFor(request.server.db, ctx, dic_id, 'dict.manage');
    let personal = request.server.db
      .selectFrom('dict_words')
      .select(['word', 'type', 'correct'])
      .where('uid', '=', ctx.uid);
    if (ids) personal = personal.where('id', 'in', ids);
    const words = await personal.orderBy('id').execute();
    if (ids && words.length === 0) throw notFound('dict.not_personal');
    if (words.length === 0) return envelope({ count: 0 }, '个人词库为空');
    const now = nowIso();
    const db = request.server.db;
    let count = 0;
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < words.length; i += 200) {
        const res = await trx
          .insertInto('enterprise_dict_words')
          .values(
            words.slice(i, i + 200).map((w) => ({
              dict_id: dict.id,
              word: w.word,
              type: Number(w.type),
              correct: w.correct,
              created_by: ctx.uid,
              created_at: now,
              updated_at: now,
            })),
          )
          .onConflict((oc) => oc.columns(['dict_id', 'word', 'type']).doNothing())
          .executeTakeFirst();
        count += Number(res.numInsertedOrUpdatedRows ?? 0);
      }
    });
    return envelope({ count }, `已复制${count}个词`);
  },
};

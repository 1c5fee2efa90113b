import { nowIso } from '../../db';
import { findWords } from '../../db/repos/dictionary-words';
import {
  addMissingSharedWords,
  clearSharedWords,
  deleteSharedWord,
  deleteSharedWords,
  findSharedWordDictId,
  findSharedWordPage,
  insertSharedWord,
  updateSharedWord,
} from '../../db/repos/shared-words';
import { AppError, conflict, envelope, notFound } from '../../errors';
import { cleanEntry, containsPattern, DUPLICATE_WORD, isUniqueViolation } from '../../domain/dictionaries/dictionary';
import { dictionaryFor, requireTeam, teamContext, type TeamContext } from '../../domain/teams/teams';
import { caller, type Operations } from '../types';
import type { Db } from '../../db';

/**
 * Words of a shared dictionary (spec §7 Team: /enterprise-dic/*). Reading needs `dictionaries.read`, changes
 * `dictionaries.manage`.
 */

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

/** The dictionary a word belongs to, checked for `dictionaries.manage` (404 for words of other teams). */
async function dictionaryOfWord(db: Db, ctx: TeamContext, wordId: number) {
  const dictId = await findSharedWordDictId(db, wordId);
  if (dictId === undefined) {
    requireTeam(ctx, 'dictionaries.read');
    throw notFound(UNKNOWN_WORD);
  }
  try {
    return await dictionaryFor(db, ctx, dictId, 'dictionaries.manage');
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
    const dict = await dictionaryFor(request.server.db, ctx, q.dic_id, 'dictionaries.read');
    const num = q.num ?? 1;
    const size = q.size ?? 20;
    const keyword = q.keyword?.trim();
    const { total, rows } = await findSharedWordPage(
      request.server.db,
      dict.id,
      { type: q.type, like: keyword ? containsPattern(keyword) : undefined },
      { num, size },
    );
    return envelope({ total, num, size, list: rows.map(toWord) });
  },

  postEnterpriseDicAddOne: async (request) => {
    const ctx = await context(request);
    const body = request.body;
    const dict = await dictionaryFor(request.server.db, ctx, body.dic_id, 'dictionaries.manage');
    const entry = cleanEntry(body);
    const now = nowIso();
    try {
      const row = await insertSharedWord(request.server.db, {
        dict_id: dict.id,
        ...entry,
        created_by: ctx.uid,
        created_at: now,
        updated_at: now,
      });
      return envelope(toWord(row), '添加成功');
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
      const row = await updateSharedWord(request.server.db, body.id, { ...entry, updated_at: nowIso() });
      if (!row) throw notFound(UNKNOWN_WORD);
      return envelope(toWord(row), '修改成功');
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(DUPLICATE_WORD);
      throw error;
    }
  },

  postEnterpriseDicDeleteOne: async (request) => {
    const ctx = await context(request);
    const { id } = request.body;
    await dictionaryOfWord(request.server.db, ctx, id);
    await deleteSharedWord(request.server.db, id);
    return envelope(null, '删除成功');
  },

  postEnterpriseDicDeleteMany: async (request) => {
    const ctx = await context(request);
    const enterpriseId = requireTeam(ctx, 'dictionaries.manage');
    const { ids } = request.body;
    // only words of the caller's team's dictionaries (root: of any team); other ids are not counted
    const count = await deleteSharedWords(request.server.db, ids, ctx.operator ? undefined : enterpriseId);
    return envelope({ count }, '删除成功');
  },

  postEnterpriseDicDeleteAllWord: async (request) => {
    const ctx = await context(request);
    const { dic_id, type } = request.body;
    const dict = await dictionaryFor(request.server.db, ctx, dic_id, 'dictionaries.manage');
    const count = await clearSharedWords(request.server.db, dict.id, type);
    return envelope({ count }, '已清空');
  },

  postEnterpriseDicPersonToEnterpriseDic: async (request) => {
    const ctx = await context(request);
    const { dic_id, ids } = request.body;
    const dict = await dictionaryFor(request.server.db, ctx, dic_id, 'dictionaries.manage');
    const words = await findWords(request.server.db, ctx.uid, ids);
    if (ids && words.length === 0) throw notFound('dict.not_personal');
    if (words.length === 0) return envelope({ count: 0 }, '个人词库为空');
    const now = nowIso();
    const db = request.server.db;
    const copies = words.map((w) => ({
      dict_id: dict.id,
      word: w.word,
      type: Number(w.type),
      correct: w.correct,
      created_by: ctx.uid,
      created_at: now,
      updated_at: now,
    }));
    const count = await db.transaction().execute((trx) => addMissingSharedWords(trx, copies));
    return envelope({ count }, `已复制${count}个词`);
  },
};

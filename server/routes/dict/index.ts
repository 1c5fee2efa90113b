import { sql } from 'kysely';
import { nowIso } from '../../db';
import { conflict, envelope, notFound } from '../../errors';
import { cleanEntry, containsPattern, dictDb, DUPLICATE_WORD, isUniqueViolation } from '../../services/dictionary';
import { bodyOf, caller, type Operation } from '../types';

/** Personal dictionary basics (spec /dict/v1/*); every change applies to the very next check. */
interface WordRow {
  id: number;
  word: string;
  type: number;
  correct: string | null;
  created_at: string;
  updated_at: string;
}

const toWord = (r: WordRow) => ({ id: Number(r.id), word: r.word, type: Number(r.type), correct: r.correct, created_at: r.created_at, updated_at: r.updated_at });

export const dictOperations: Record<string, Operation> = {
  getDictV1GetList: async (request) => {
    const { uid } = await caller(request);
    const q = request.query as { num?: number; size?: number; keyword?: string; type?: number };
    const num = q.num ?? 1;
    const size = q.size ?? 20;
    const db = dictDb(request.server.db);
    let base = db.selectFrom('dict_words').where('uid', '=', uid);
    if (q.type !== undefined) base = base.where('type', '=', q.type);
    const keyword = q.keyword?.trim();
    if (keyword) {
      const like = containsPattern(keyword);
      base = base.where((eb) => eb.or([eb('word', 'like', sql<string>`${like} escape '\\'`), eb('correct', 'like', sql<string>`${like} escape '\\'`)]));
    }
    const total = Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
    const rows = await base.selectAll().orderBy('id', 'desc').limit(size).offset((num - 1) * size).execute();
    return envelope({ total, num, size, list: rows.map((r) => toWord(r as WordRow)) });
  },

  postDictV1AddOne: async (request) => {
    const { uid } = await caller(request);
    const entry = cleanEntry(bodyOf<{ word: string; type: number; correct?: string }>(request));
    const db = dictDb(request.server.db);
    const now = nowIso();
    try {
      const row = await db.insertInto('dict_words').values({ uid, ...entry, created_at: now, updated_at: now }).returningAll().executeTakeFirstOrThrow();
      return envelope(toWord(row as WordRow), '添加成功');
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(DUPLICATE_WORD);
      throw error;
    }
  },

  putDictV1UpdateOne: async (request) => {
    const { uid } = await caller(request);
    const body = bodyOf<{ id: number; word: string; type: number; correct?: string }>(request);
    const entry = cleanEntry(body);
    const db = dictDb(request.server.db);
    try {
      const row = await db
        .updateTable('dict_words')
        .set({ ...entry, updated_at: nowIso() })
        .where('id', '=', body.id)
        .where('uid', '=', uid)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw notFound('词语不存在 (unknown id)');
      return envelope(toWord(row as WordRow), '修改成功');
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(DUPLICATE_WORD);
      throw error;
    }
  },

  deleteDictV1DeleteOne: async (request) => {
    const { uid } = await caller(request);
    const { id } = request.query as { id: number };
    const res = await dictDb(request.server.db).deleteFrom('dict_words').where('id', '=', id).where('uid', '=', uid).executeTakeFirst();
    if (Number(res.numDeletedRows) === 0) throw notFound('词语不存在 (unknown id)');
    return envelope(null, '删除成功');
  },

  postDictV1DeleteMany: async (request) => {
    const { uid } = await caller(request);
    const { ids } = bodyOf<{ ids: number[] }>(request);
    const res = await dictDb(request.server.db).deleteFrom('dict_words').where('uid', '=', uid).where('id', 'in', ids).executeTakeFirst();
    return envelope({ count: Number(res.numDeletedRows) }, '删除成功');
  },

  postDictV1DeleteAllWord: async (request) => {
    const { uid } = await caller(request);
    const type = (request.body as { type?: number } | undefined)?.type;
    let query = dictDb(request.server.db).deleteFrom('dict_words').where('uid', '=', uid);
    if (type !== undefined) query = query.where('type', '=', type);
    const res = await query.executeTakeFirst();
    return envelope({ count: Number(res.numDeletedRows) }, '已清空');
  },
};

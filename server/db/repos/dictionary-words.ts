import type { Insertable, Selectable } from 'kysely';
import type { Db } from '..';
import type { DictWordsTable } from '../schema';
import { offsetOf, wordOrCorrectionLike, type Page, type WordFilter } from './filters';

/** The personal dictionary (`dict_words`): every function works on the words of one user. */

export type PersonalWord = Selectable<DictWordsTable>;

/** One page of the user's words, newest first, and how many match the filter in all. */
export async function findWordPage(
  db: Db,
  uid: number,
  filter: WordFilter,
  page: Page,
): Promise<{ total: number; rows: PersonalWord[] }> {
  let base = db.selectFrom('dict_words').where('uid', '=', uid);
  if (filter.type !== undefined) base = base.where('type', '=', filter.type);
  if (filter.like) base = base.where(wordOrCorrectionLike(filter.like));
  const total = Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
  const rows = await base.selectAll().orderBy('id', 'desc').limit(page.size).offset(offsetOf(page)).execute();
  return { total, rows };
}

/** Word, type and correction of the user's words (or of those among `ids`), oldest first. */
export async function findWords(
  db: Db,
  uid: number,
  ids?: number[],
): Promise<Array<Pick<PersonalWord, 'word' | 'type' | 'correct'>>> {
  let query = db.selectFrom('dict_words').select(['word', 'type', 'correct']).where('uid', '=', uid);
  if (ids) query = query.where('id', 'in', ids);
  return query.orderBy('id').execute();
}

/** Word and type of every word of the user, in no particular order. */
export async function findWordKeys(db: Db, uid: number): Promise<Array<Pick<PersonalWord, 'word' | 'type'>>> {
  return db.selectFrom('dict_words').select(['word', 'type']).where('uid', '=', uid).execute();
}

/** The user's words of one type, oldest first, `limit` of them from `offset`. */
export async function findWordsOfType(
  db: Db,
  uid: number,
  type: number,
  range: { limit: number; offset: number },
): Promise<string[]> {
  const rows = await db
    .selectFrom('dict_words')
    .select('word')
    .where('uid', '=', uid)
    .where('type', '=', type)
    .orderBy('id')
    .limit(range.limit)
    .offset(range.offset)
    .execute();
  return rows.map((r) => r.word);
}

/** Adds a word; the same word and type twice breaks a unique constraint. */
export async function insertWord(db: Db, values: Insertable<DictWordsTable>): Promise<PersonalWord> {
  return db.insertInto('dict_words').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Adds a word unless the user has it with that type already; whether it was added. */
export async function addWordIfMissing(db: Db, values: Insertable<DictWordsTable>): Promise<boolean> {
  const res = await db
    .insertInto('dict_words')
    .values(values)
    .onConflict((oc) => oc.columns(['uid', 'word', 'type']).doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * Adds words in one statement, skipping those the user has with that type already; returns word and type of those
 * added.
 */
export async function addWordsIfMissing(
  db: Db,
  values: Array<Insertable<DictWordsTable>>,
): Promise<Array<Pick<PersonalWord, 'word' | 'type'>>> {
  return db
    .insertInto('dict_words')
    .values(values)
    .onConflict((oc) => oc.columns(['uid', 'word', 'type']).doNothing())
    .returning(['word', 'type'])
    .execute();
}

/** Changes one of the user's words; undefined when they have no such word. A duplicate breaks a unique constraint. */
export async function updateWord(
  db: Db,
  uid: number,
  id: number,
  changes: { word: string; type: number; correct: string | null; updated_at: string },
): Promise<PersonalWord | undefined> {
  return db
    .updateTable('dict_words')
    .set(changes)
    .where('id', '=', id)
    .where('uid', '=', uid)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes one of the user's words; returns how many were deleted (0 or 1). */
export async function deleteWord(db: Db, uid: number, id: number): Promise<number> {
  const res = await db.deleteFrom('dict_words').where('id', '=', id).where('uid', '=', uid).executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Deletes those of `ids` that are the user's words; returns how many. */
export async function deleteWords(db: Db, uid: number, ids: number[]): Promise<number> {
  const res = await db.deleteFrom('dict_words').where('uid', '=', uid).where('id', 'in', ids).executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Deletes the user's word of one type; whether there was one. */
export async function deleteWordOfType(db: Db, uid: number, type: number, word: string): Promise<boolean> {
  const res = await db
    .deleteFrom('dict_words')
    .where('uid', '=', uid)
    .where('type', '=', type)
    .where('word', '=', word)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** Deletes all the user's words, or all of one type; returns how many. */
export async function clearWords(db: Db, uid: number, type?: number): Promise<number> {
  let query = db.deleteFrom('dict_words').where('uid', '=', uid);
  if (type !== undefined) query = query.where('type', '=', type);
  const res = await query.executeTakeFirst();
  return Number(res.numDeletedRows);
}

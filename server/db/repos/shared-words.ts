import type { Insertable, Selectable } from 'kysely';
import type { Db } from '..';
import type { EnterpriseDictWordsTable } from '../schema';
import { offsetOf, wordOrCorrectionLike, type Page, type WordFilter } from './filters';

/** Words of the teams' shared dictionaries (`enterprise_dict_words`). */

/** The columns a shared word is shown with. */
export type SharedWord = Pick<
  Selectable<EnterpriseDictWordsTable>,
  'id' | 'word' | 'type' | 'correct' | 'created_at' | 'updated_at'
>;

const WORD_COLUMNS = ['id', 'word', 'type', 'correct', 'created_at', 'updated_at'] as const;

/** The dictionary a word belongs to, or undefined for an unknown word. */
export async function findSharedWordDictId(db: Db, wordId: number): Promise<number | undefined> {
  const word = await db
    .selectFrom('enterprise_dict_words')
    .select('dict_id')
    .where('id', '=', wordId)
    .executeTakeFirst();
  return word ? Number(word.dict_id) : undefined;
}

/** One page of a dictionary's words, newest first, and how many match the filter in all. */
export async function findSharedWordPage(
  db: Db,
  dictId: number,
  filter: WordFilter,
  page: Page,
): Promise<{ total: number; rows: SharedWord[] }> {
  let base = db.selectFrom('enterprise_dict_words').where('dict_id', '=', dictId);
  if (filter.type !== undefined) base = base.where('type', '=', filter.type);
  if (filter.like) base = base.where(wordOrCorrectionLike(filter.like));
  const total = Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
  const rows = await base.select(WORD_COLUMNS).orderBy('id', 'desc').limit(page.size).offset(offsetOf(page)).execute();
  return { total, rows };
}

/**
 * Word, type and correction of the words of every shared dictionary the user uses in a team where they are a
 * member with `memberStatus` (domain/teams/teams.ts MEMBER_STATUS.active), in word id order.
 */
export async function findSharedWordsInUse(
  db: Db,
  uid: number,
  memberStatus: number,
): Promise<Array<Pick<Selectable<EnterpriseDictWordsTable>, 'word' | 'type' | 'correct'>>> {
  return db
    .selectFrom('enterprise_dict_words as w')
    .innerJoin('enterprise_dict_users as u', 'u.dict_id', 'w.dict_id')
    .innerJoin('enterprise_dicts as d', 'd.id', 'w.dict_id')
    .innerJoin('enterprise_members as m', (join) =>
      join.onRef('m.enterprise_id', '=', 'd.enterprise_id').onRef('m.uid', '=', 'u.uid'),
    )
    .select(['w.word', 'w.type', 'w.correct'])
    .where('u.uid', '=', uid)
    .where('m.status', '=', memberStatus)
    .orderBy('w.id')
    .execute();
}

/** How many words of each type the dictionary holds (types without words are missing). */
export async function countSharedWordsByType(db: Db, dictId: number) {
  return db
    .selectFrom('enterprise_dict_words')
    .select((eb) => ['type', eb.fn.countAll().as('n')])
    .where('dict_id', '=', dictId)
    .groupBy('type')
    .execute();
}

/** Adds a word; the same word and type twice in a dictionary breaks a unique constraint. */
export async function insertSharedWord(db: Db, values: Insertable<EnterpriseDictWordsTable>): Promise<SharedWord> {
  return db.insertInto('enterprise_dict_words').values(values).returning(WORD_COLUMNS).executeTakeFirstOrThrow();
}

/** Changes a word; undefined when it no longer exists. A duplicate breaks a unique constraint. */
export async function updateSharedWord(
  db: Db,
  id: number,
  changes: { word: string; type: number; correct: string | null; updated_at: string },
): Promise<SharedWord | undefined> {
  return db
    .updateTable('enterprise_dict_words')
    .set(changes)
    .where('id', '=', id)
    .returning(WORD_COLUMNS)
    .executeTakeFirst();
}

export async function deleteSharedWord(db: Db, id: number): Promise<void> {
  await db.deleteFrom('enterprise_dict_words').where('id', '=', id).execute();
}

/**
 * Deletes the words with these ids; with `enterpriseId`, only those in that team's dictionaries (other ids are
 * left alone). Returns how many were deleted.
 */
export async function deleteSharedWords(db: Db, ids: number[], enterpriseId?: number): Promise<number> {
  let query = db.deleteFrom('enterprise_dict_words').where('id', 'in', ids);
  if (enterpriseId !== undefined)
    query = query.where(
      'dict_id',
      'in',
      db.selectFrom('enterprise_dicts').select('id').where('enterprise_id', '=', enterpriseId),
    );
  const res = await query.executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Deletes every word of the dictionary, or every word of one type; returns how many. */
export async function clearSharedWords(db: Db, dictId: number, type?: number): Promise<number> {
  let query = db.deleteFrom('enterprise_dict_words').where('dict_id', '=', dictId);
  if (type !== undefined) query = query.where('type', '=', type);
  const res = await query.executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Rows per insert statement, so that a long list never becomes one huge statement. */
const COPY_CHUNK = 200;

/**
 * Adds words, skipping those the dictionary already has (same word and type); returns how many were added.
 * Several statements for a long list: run it in a transaction.
 */
export async function addMissingSharedWords(
  trx: Db,
  words: Array<Insertable<EnterpriseDictWordsTable>>,
): Promise<number> {
  let count = 0;
  for (let i = 0; i < words.length; i += COPY_CHUNK) {
    const res = await trx
      .insertInto('enterprise_dict_words')
      .values(words.slice(i, i + COPY_CHUNK))
      .onConflict((oc) => oc.columns(['dict_id', 'word', 'type']).doNothing())
      .executeTakeFirst();
    count += Number(res.numInsertedOrUpdatedRows ?? 0);
  }
  return count;
}

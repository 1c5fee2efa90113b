import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db } from '../db';
import type { CustomDictionaries } from '../../engine';

/**
 * The personal dictionary (spec: /dict/v1/*). `type` is the result-type label of spec §3 where there is
 * one: 4 sensitive word, 5 wrong word (with `correct`), 9 key word; and 1 for an allowed word (never
 * flagged: every finding overlapping it is dropped). Issue 5 adds imports, exports and word libraries.
 */
export const WORD_TYPES = [1, 4, 5, 9] as const;
export type WordType = (typeof WORD_TYPES)[number];
export const ALLOWED = 1;

export interface DictWordsTable {
  id: import('kysely').Generated<number>;
  uid: number;
  word: string;
  type: number;
  correct: string | null;
  created_at: string;
  updated_at: string;
}

export const dictDb = (db: Db) => db as unknown as Kysely<{ dict_words: DictWordsTable }>;

export interface UserDictionary extends CustomDictionaries {
  /** Changes whenever an entry changes (part of the result cache key). */
  fingerprint: string;
}

/** Loads the user's dictionary as engine options (one query per check, so changes apply to the next check). */
export async function loadUserDictionary(db: Db, uid: number): Promise<UserDictionary> {
  const rows = await dictDb(db).selectFrom('dict_words').select(['word', 'type', 'correct']).where('uid', '=', uid).orderBy('id').execute();
  const dict: UserDictionary = { fingerprint: '', wrongWords: [], sensitiveWords: [], keyWords: [], allowedWords: [] };
  const hash = createHash('sha1');
  for (const r of rows) {
    hash.update(`${r.type}\u0001${r.word}\u0001${r.correct ?? ''}\u0002`);
    const type = Number(r.type);
    if (type === 5 && r.correct) dict.wrongWords!.push({ word: r.word, correct: r.correct, source: 'personal' });
    else if (type === 4) dict.sensitiveWords!.push({ word: r.word, source: 'personal' });
    else if (type === 9) dict.keyWords!.push({ word: r.word, source: 'personal' });
    else if (type === ALLOWED) dict.allowedWords!.push(r.word);
  }
  dict.fingerprint = rows.length ? hash.digest('hex').slice(0, 16) : 'empty';
  return dict;
}

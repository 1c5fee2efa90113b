import { createHash } from 'node:crypto';
import { isUniqueViolation, nowIso, type Db } from '../../db';
import {
  clearWords,
  deleteWord,
  deleteWords,
  findWordPage,
  findWords,
  insertWord,
  updateWord,
} from '../../db/repos/dictionary-words';
import { findSharedWordsInUse } from '../../db/repos/shared-words';
import type { CustomDictionaries, Source } from '../../../engine';
import { badRequest, conflict, notFound } from '../../errors';
import { MEMBER_STATUS } from '../teams/teams';
import { selectedLibraries } from './word-libraries';
import { allLeaders } from './leaders';
import { findMembership } from '../../db/repos/teams';

/**
 * The personal dictionary (spec: /dict/v1/*). `type` is the result-type label of spec §3 where there is
 * one: 4 sensitive word, 5 wrong word (with `correct`), 9 key word; and 1 for an allowed word (never
 * flagged: every finding overlapping it is dropped). Imports, exports and built-in word libraries build on it.
 * A team's shared dictionaries (domain/teams/teams.ts) hold the same four types; in checks their hits are
 * labelled 6 / 7 / 10 (共享词库敏感词 / 错词 / 重点词) instead of 4 / 5 / 9.
 */
export const WORD_TYPES = [1, 4, 5, 9] as const;
export type WordType = (typeof WORD_TYPES)[number];
export const ALLOWED = 1;

/** A word entry as stored: trimmed, no control characters, `correct` only (and required) for type 5. */
export function cleanEntry(input: { word: string; type: number; correct?: string }): {
  word: string;
  type: number;
  correct: string | null;
} {
  const word = input.word.trim();
  if (!word || /[\u0000-\u001f]/.test(word)) throw badRequest('dict.word_blank');
  let correct: string | null = null;
  if (input.type === 5) {
    correct = (input.correct ?? '').trim();
    if (!correct || /[\u0000-\u001f]/.test(correct)) throw badRequest('dict.correct_required');
    if (correct === word) throw badRequest('dict.correct_same');
  }
  return { word, type: input.type, correct };
}

/** A LIKE pattern matching `keyword` anywhere, with its own %, _ and \\ escaped (use with escape '\\'). */
export const containsPattern = (keyword: string) => `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export const DUPLICATE_WORD = 'dict.duplicate';

export { isUniqueViolation } from '../../db';

export interface UserDictionary extends CustomDictionaries {
  /** Changes whenever an entry changes (part of the result cache key). */
  fingerprint: string;
}

/**
 * The dictionaries applied to the user's checks, as engine options: the personal dictionary, the words of
 * the shared dictionaries the user has in use in their active team, and the built-in word libraries the user
 * selected (domain/dictionaries/word-libraries.ts; applied like personal entries). For a word in both, the team's
 * entries win.
 * Read on every check, so a change applies
 * to the very next one; the fingerprint covers all three (a library by its content hash), so cached paragraph
 * results and worker copies change too.
 */
export async function loadUserDictionary(
  db: Db,
  uid: number,
  /** config.paths.wordLibraries */
  librariesDir: string | undefined,
): Promise<UserDictionary> {
  const personal = await findWords(db, uid);
  const team = await findSharedWordsInUse(db, uid, MEMBER_STATUS.active);
  const libraries = await selectedLibraries(db, uid, librariesDir);
  const dict: UserDictionary = { fingerprint: '', wrongWords: [], sensitiveWords: [], keyWords: [], allowedWords: [] };
  const hash = createHash('sha1');
  const add = (r: { word: string; type: number; correct: string | null }, source: Source) => {
    hash.update(`${source}\u0001${r.type}\u0001${r.word}\u0001${r.correct ?? ''}\u0002`);
    const type = Number(r.type);
    if (type === 5 && r.correct) dict.wrongWords!.push({ word: r.word, correct: r.correct, source });
    else if (type === 4) dict.sensitiveWords!.push({ word: r.word, source });
    else if (type === 9) dict.keyWords!.push({ word: r.word, source });
    else if (type === ALLOWED) dict.allowedWords!.push(r.word);
  };
  // leader dictionaries: the team's list (its order is the protocol order), then the user's own additions
  const teamId = (await findMembership(db, uid, MEMBER_STATUS.active))?.enterprise_id;
  const leaders = [
    ...(teamId !== undefined ? await allLeaders(db, { kind: 'team', id: Number(teamId) }) : []),
    ...(await allLeaders(db, { kind: 'user', id: uid })),
  ];
  const seen = new Set<string>();
  for (const l of leaders) {
    if (seen.has(l.name)) continue;
    seen.add(l.name);
    (dict.leaders ??= []).push({ name: l.name, titles: l.titles });
    hash.update(`leader\u0001${l.name}\u0001${l.titles.join('\u0001')}\u0002`);
  }
  // for one word, the team's entries win over the member's own (a word the team marks wrong stays flagged even when
  // the member allowed it; a word the team allows is not flagged by a personal entry)
  const teamWords = new Set(team.map((r) => r.word));
  for (const r of personal) if (!teamWords.has(r.word)) add(r, 'personal');
  for (const r of team) add(r, 'team');
  for (const library of libraries) {
    hash.update(`\u0003library:${library.id}:${library.version}`);
    for (const e of library.entries) {
      const type = e.type;
      // the library's id goes with its hits, so a result names the library it comes from
      const from = { source: 'personal' as const, library: library.id };
      if (type === 5 && e.correct) dict.wrongWords!.push({ word: e.word, correct: e.correct, ...from });
      else if (type === 4) dict.sensitiveWords!.push({ word: e.word, ...from });
      else if (type === 9) dict.keyWords!.push({ word: e.word, ...from });
      else if (type === ALLOWED) dict.allowedWords!.push(e.word);
    }
  }
  dict.fingerprint =
    personal.length + team.length + libraries.length + leaders.length ? hash.digest('hex').slice(0, 16) : 'empty';
  return dict;
}

/** A word of the personal dictionary as the calls answer it. */
export interface Word {
  id: number;
  word: string;
  type: number;
  correct: string | null;
  created_at: string;
  updated_at: string;
}

const toWord = (r: Word): Word => ({
  id: Number(r.id),
  word: r.word,
  type: Number(r.type),
  correct: r.correct,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

/** A page of the user's words, of one type and containing a keyword if given. */
export async function wordPage(
  db: Db,
  uid: number,
  filter: { type?: number; keyword?: string },
  page: { num: number; size: number },
): Promise<{ total: number; list: Word[] }> {
  const keyword = filter.keyword?.trim();
  const like = keyword ? containsPattern(keyword) : undefined;
  const { total, rows } = await findWordPage(db, uid, { type: filter.type, like }, page);
  return { total, list: rows.map(toWord) };
}

/** Runs a change of a word, a word the user already has answering 409 `dict.duplicate`. */
async function unique<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(DUPLICATE_WORD);
    throw error;
  }
}

export async function addWord(db: Db, uid: number, input: Parameters<typeof cleanEntry>[0]): Promise<Word> {
  const entry = cleanEntry(input);
  const now = nowIso();
  return toWord(await unique(() => insertWord(db, { uid, ...entry, created_at: now, updated_at: now })));
}

export async function editWord(db: Db, uid: number, id: number, input: Parameters<typeof cleanEntry>[0]) {
  const entry = cleanEntry(input);
  const row = await unique(() => updateWord(db, uid, id, { ...entry, updated_at: nowIso() }));
  if (!row) throw notFound('dict.unknown_word');
  return toWord(row);
}

export async function removeWord(db: Db, uid: number, id: number): Promise<void> {
  if ((await deleteWord(db, uid, id)) === 0) throw notFound('dict.unknown_word');
}

export const removeWords = (db: Db, uid: number, ids: number[]) => deleteWords(db, uid, ids);

/** Empties the user's dictionary, or only the words of `type`; returns how many went. */
export const clearDictionary = (db: Db, uid: number, type?: number) => clearWords(db, uid, type);

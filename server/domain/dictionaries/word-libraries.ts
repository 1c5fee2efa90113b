import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from '../../db';
import { nowIso } from '../../db';
import {
  deleteSelectedLibraries,
  findSelectedLibraryIds,
  insertSelectedLibraries,
} from '../../db/repos/word-libraries';
import { notFound } from '../../errors';
import { localizeText, siteTextToHk, type Lang } from '../locale';

/**
 * Built-in word libraries (spec: /user/get_word_library, /user/select_word_library): lexicons of a domain
 * written by the team as `server/word-libraries/<id>-<key>.tsv`. Each file starts with `# key: value`
 * header lines (id, name, name_en, name_hk, description, description_en, description_hk, source), then a
 * `word<TAB>type<TAB>correct` header and
 * one entry a line, with the personal dictionary's type codes (5 wrong word + correct, 1 allowed, 4 sensitive,
 * 9 key word). A selected library applies to the user's checks exactly like their own dictionary entries.
 */

export interface LibraryEntry {
  word: string;
  type: number;
  correct: string | null;
}

export interface WordLibrary {
  id: number;
  name: string;
  name_en: string;
  name_hk: string;
  description: string;
  description_en: string;
  description_hk: string;
  source: string;
  entries: LibraryEntry[];
  /** Changes with the file's content (part of the dictionary fingerprint). */
  version: string;
}

export const WORD_LIBRARIES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'word-libraries');

/** Parses one library file; throws on a malformed line so a bad commit fails its test, not a user's check. */
export function parseLibrary(text: string, file = 'library'): WordLibrary {
  const meta: Record<string, string> = {};
  const entries: LibraryEntry[] = [];
  const seen = new Set<string>();
  let header = false;
  text.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return;
    const m = /^#\s*(\w+):\s*(.*)$/.exec(line);
    if (m) {
      meta[m[1]] = m[2].trim();
      return;
    }
    if (line.startsWith('#')) return;
    if (!header) {
      if (line.trim() !== 'word\ttype\tcorrect')
        throw new Error(`${file}:${i + 1}: expected the header word<TAB>type<TAB>correct`);
      header = true;
      return;
    }
    const [word = '', typeText = '', correct = ''] = line.split('\t').map((c) => c.trim());
    const type = Number(typeText);
    if (!word || ![1, 4, 5, 9].includes(type)) throw new Error(`${file}:${i + 1}: bad entry ${JSON.stringify(line)}`);
    if (type === 5 && (!correct || correct === word))
      throw new Error(`${file}:${i + 1}: a wrong word needs a different correct form`);
    const key = `${type}\u0001${word}`;
    if (seen.has(key)) throw new Error(`${file}:${i + 1}: duplicate ${word}`);
    seen.add(key);
    entries.push({ word, type, correct: type === 5 ? correct : null });
  });
  const id = Number(meta.id);
  if (!Number.isInteger(id) || id < 1 || !meta.name || !meta.source)
    throw new Error(`${file}: needs # id, # name and # source headers`);
  return {
    id,
    name: meta.name,
    name_en: meta.name_en || meta.name,
    // a file without its hk forms reads in traditional characters all the same
    name_hk: meta.name_hk || siteTextToHk(meta.name),
    description: meta.description ?? '',
    description_en: meta.description_en || meta.description || '',
    description_hk: meta.description_hk || siteTextToHk(meta.description ?? ''),
    source: meta.source,
    entries,
    version: createHash('sha1').update(text).digest('hex').slice(0, 12),
  };
}

let cache: { dir: string; libraries: WordLibrary[] } | undefined;

/** Every library of the folder (config.paths.wordLibraries, else the shipped one; read once per process), by id. */
export function wordLibraries(configured: string | undefined): WordLibrary[] {
  const dir = configured ?? WORD_LIBRARIES_DIR;
  if (cache?.dir === dir) return cache.libraries;
  const libraries = readdirSync(dir)
    .filter((f) => f.endsWith('.tsv'))
    .map((f) => parseLibrary(readFileSync(join(dir, f), 'utf8'), f))
    .sort((a, b) => a.id - b.id);
  const ids = new Set<number>();
  for (const l of libraries) {
    if (ids.has(l.id)) throw new Error(`two word libraries have the id ${l.id}`);
    ids.add(l.id);
  }
  cache = { dir, libraries };
  return libraries;
}

export async function selectedLibraryIds(db: Db, uid: number, dir: string | undefined): Promise<number[]> {
  const selected = await findSelectedLibraryIds(db, uid);
  const known = new Set(wordLibraries(dir).map((l) => l.id));
  return selected.map((id) => Number(id)).filter((id) => known.has(id));
}

/** The libraries the user selected (unknown ids left by a removed file are ignored). */
export async function selectedLibraries(db: Db, uid: number, dir: string | undefined): Promise<WordLibrary[]> {
  const ids = new Set(await selectedLibraryIds(db, uid, dir));
  return wordLibraries(dir).filter((l) => ids.has(l.id));
}

/** Replaces the user's selection; 404 for an unknown id (nothing changes then). */
export async function selectLibraries(db: Db, uid: number, ids: number[], dir: string | undefined): Promise<void> {
  const known = new Set(wordLibraries(dir).map((l) => l.id));
  const unknown = ids.find((id) => !known.has(id));
  if (unknown !== undefined) throw notFound('dict.unknown_library', { id: unknown });
  await db.transaction().execute(async (trx) => {
    await deleteSelectedLibraries(trx, uid);
    if (ids.length) {
      const now = nowIso();
      const rows = ids.map((library_id) => ({ uid, library_id, created_at: now }));
      await insertSelectedLibraries(trx, rows);
    }
  });
}

/** A library's name and description in `lang` (its own forms; en falls back to cn). */
export function libraryTexts(library: WordLibrary, lang: Lang): { name: string; description: string } {
  return {
    name: localizeText(lang, library.name, { en: library.name_en, hk: library.name_hk }),
    description: localizeText(lang, library.description, { en: library.description_en, hk: library.description_hk }),
  };
}

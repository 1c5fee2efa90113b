import type { Note } from './messages';

export type { Note, NoteArg } from './messages';

export interface Issue {
  /** UTF-16 offset into the checked text (inclusive) */
  start: number;
  /** UTF-16 offset (exclusive) */
  end: number;
  /** text.slice(start, end) */
  original: string;
  /** replacements for [start, end), best first; may be empty (hint only) */
  suggestions: string[];
  /** spec §3 category code: "1", "5", "8-2", "9-1", "10-3", "12-1" ... */
  category: string;
  /** spec §3 result-type label where a list produced it (3 敏感词, 4 自定义敏感词, 5 自定义错词, ...) */
  type?: number;
  /** 1 错误 (error), 2 建议 (suggestion), 3 提示 (hint) */
  level: number;
  /** one-sentence reason with the evidence, in Chinese (cn; converted to traditional for hk text) */
  message: string;
  /**
   * the message as a catalogue id and its arguments (engine/messages.ts), to show it in the reader's language;
   * rendered in cn it is `message` (hk text: its string arguments in traditional characters)
   */
  note?: Note;
  /**
   * how sure the engine is, 0-1; set on every finding check() returns. Mode 3 returns the confident ones (0.5 and
   * more); mode 4 adds the rest. List and rule findings are near 1; the spelling and non-word passes map their
   * evidence (the reranker's log-odds, the models' gain over the need) through a logistic curve.
   */
  confidence?: number;
  /** the built-in word library (its id) whose entry produced a dictionary hit; absent for the user's own words */
  library?: number;
}

export type Source = 'personal' | 'team';

export interface CustomDictionaries {
  /** `library`: the id of the built-in word library the entry comes from */
  wrongWords?: Array<{ word: string; correct: string; source?: Source; library?: number }>;
  sensitiveWords?: Array<{ word: string; category?: string; source?: Source; library?: number }>;
  keyWords?: Array<{ word: string; source?: Source; library?: number }>;
  allowedWords?: string[];
  leaders?: Array<{ name: string; titles: string[] }>;
}

export interface CheckOptions extends CustomDictionaries {
  /** 3 = standard (fast), 4 = fine proofreading (wider search) */
  mode?: 3 | 4;
  /** bitmask of check families, default 127 (see engine/README.md) */
  checkOptions?: number;
  /** cn (simplified) or hk (traditional input, traditional suggestions) */
  lang?: 'cn' | 'hk';
  /** run the advanced checks (12-x) even when bit 128 is not set */
  advancedProofreading?: boolean;
}

import type { components } from '../openapi/schema';
import type { Note } from './messages';

export type { Note, NoteArg } from './messages';

/**
 * One finding: the contract's `Issue` (openapi/workbench.yaml, where each field is described), declared there once;
 * the engine narrows its note to the catalogue's exact type.
 */
export interface Issue extends Omit<components['schemas']['Issue'], 'note'> {
  note?: Note;
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

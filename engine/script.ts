/**
 * Which script a text is written in, for the checks whose text does not come with a language (the text of a picture
 * read by OCR, a PDF's text layer): traditional when a fair share of its Han characters have another simplified
 * form. Such text is checked as `hk` (the engine checks its simplified form and answers in traditional characters);
 * checked as simplified, every traditional character would look like a typo.
 */
import { createRequire } from 'node:module';
import type * as OpenCC from 'opencc-js';

const require = createRequire(import.meta.url);

/** Han characters looked at: a page's worth tells the script as well as a book. */
const SAMPLE = 2000;
/** Characters read at most to find them. */
const LOOK_AT_MOST = 50_000;
/** Share of the Han characters that must change: a simplified text keeps nearly all of its own (乾坤, 著作). */
const TRADITIONAL_SHARE = 0.08;

let toSimplified: ((s: string) => string) | null = null;

/**
 * Traditional (Hong Kong) to simplified characters: the traditional-to-simplified tables alone, loaded by the first
 * text that needs them (not at the server's start). The engine's hk checks use the same converter.
 */
export function hkToCn(): (s: string) => string {
  if (!toSimplified) {
    const { Converter }: typeof OpenCC = require('opencc-js/t2cn');
    toSimplified = Converter({ from: 'hk', to: 'cn' });
  }
  return toSimplified;
}

export function isTraditional(text: string): boolean {
  const han: string[] = [];
  let seen = 0;
  for (const c of text) {
    if (/\p{Script=Han}/u.test(c)) han.push(c);
    // a long text with little Chinese in it is not read to its end (this runs on the server's event loop)
    if (han.length >= SAMPLE || ++seen >= LOOK_AT_MOST) break;
  }
  if (!han.length) return false;
  const convert = hkToCn();
  let simplified = [...convert(han.join(''))];
  // (phrase conversions may change the length: then character by character)
  if (simplified.length !== han.length) simplified = han.map((c) => convert(c));
  let changed = 0;
  for (let i = 0; i < han.length; i++) if (simplified[i] !== han[i]) changed++;
  return changed >= Math.max(2, han.length * TRADITIONAL_SHARE);
}

/** The language a text without one is checked in: `hk` for traditional characters, else `cn`. */
export const checkLanguage = (text: string): 'cn' | 'hk' => (isTraditional(text) ? 'hk' : 'cn');

// A text longer than one check of the user's plan allows is checked in parts: each part at most the plan's
// limit, counted like the server counts a right's characters (server/domain/rights/ledger.ts countChars).

/** Non-white-space code points: what a "character" of a right is. */
export function countChars(text: string): number {
  let n = 0;
  for (const ch of text) if (!/\s/.test(ch)) n++;
  return n;
}

const SENTENCE_END = /[。！？；!?;…\n]/;
const WORD_CHAR = /[\p{L}\p{N}]/u;
const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
/** Latin-like letters and digits run together into words; a CJK character is a word of its own. */
const inWord = (a: string | undefined, b: string | undefined) =>
  !!a && !!b && WORD_CHAR.test(a) && WORD_CHAR.test(b) && a.charCodeAt(0) < 0x2e80 && b.charCodeAt(0) < 0x2e80;

/**
 * Where to end the first part of `text` so it has at most `budget` characters: after the last sentence end that
 * keeps at least half of what fits, else between words, never inside a surrogate pair. A UTF-16 offset; the whole
 * length when everything fits, 0 when not even one character does.
 */
export function partEnd(text: string, budget: number): number {
  let fits = 0;
  let n = 0;
  for (let i = 0; i < text.length;) {
    const step = isHighSurrogate(text.charCodeAt(i)) && i + 1 < text.length ? 2 : 1;
    if (!/\s/.test(text.slice(i, i + step))) {
      if (n === budget) break;
      n++;
    }
    i += step;
    fits = i;
  }
  if (fits >= text.length) return text.length;
  for (let i = fits; i > fits / 2; i--) if (SENTENCE_END.test(text[i - 1])) return i;
  let cut = fits;
  while (cut > 0 && inWord(text[cut - 1], text[cut])) cut--;
  return cut > 0 ? cut : fits;
}

/** The plan's per-check limit and the text's length (characters), as the server's 413 `check.too_long` gives them. */
export interface TooLong {
  max: number;
  total: number;
}

/** The limit and length of a call refused for being over the per-check limit, or null for any other failure. */
export function tooLongOf(error: unknown): TooLong | null {
  const e = error as { status?: unknown; result?: Partial<Record<keyof TooLong, unknown>> | null } | null;
  if (typeof e !== 'object' || e === null || e.status !== 413) return null;
  const { max, total } = e.result ?? {};
  return typeof max === 'number' && typeof total === 'number' ? { max, total } : null;
}

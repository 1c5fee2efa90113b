/** Simple multi-word matcher (first character index, longest match first). */
export interface Match<T> {
  start: number;
  end: number;
  word: string;
  value: T;
}

/**
 * Text as the list matchers compare it, with the original span of every folded UTF-16 unit: `from[k]` is where
 * the character that gave unit k starts in the original, `to[k]` where it ends.
 */
export interface Folded {
  text: string;
  from: Int32Array;
  to: Int32Array;
}

const FORMAT = /^\p{Cf}$/u;
/** Text without any of these folds to itself (the common case: no copy, offsets unchanged). */
const FOLDS = /[\p{Cf}\uff01-\uff5eA-Z]/u;

/**
 * Folds text for matching list words (sensitive, key and custom words): format characters (category Cf: zero-width
 * spaces and joiners U+200B–U+200D, marks U+200E/U+200F, bidi embeddings, overrides and isolates U+202A–U+202E,
 * U+2066–U+2069, U+2060, U+FEFF, the soft hyphen U+00AD …) are dropped, since they show nothing and would hide a
 * word from an exact comparison; full-width ASCII (Ｆ／ａ) becomes half-width and Latin capitals small, so a
 * word is found however it is typed. Spaces and line breaks stay: a word is never made by joining across them.
 */
export function foldForMatch(text: string): Folded {
  let out = '';
  const from: number[] = [];
  const to: number[] = [];
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    let ch = text.slice(i, i + width);
    if (FORMAT.test(ch)) {
      i += width;
      continue;
    }
    let c = cp;
    if (c >= 0xff01 && c <= 0xff5e) c -= 0xfee0;
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    if (c !== cp) ch = String.fromCharCode(c);
    out += ch;
    for (let k = 0; k < ch.length; k++) {
      from.push(i);
      to.push(i + width);
    }
    i += width;
  }
  return { text: out, from: Int32Array.from(from), to: Int32Array.from(to) };
}

export class WordMatcher<T> {
  /** by the first UTF-16 unit's code: no string is made per character of the text searched */
  private byFirst = new Map<number, Array<[string, T, string]>>();
  /** With `fold`, words and text are compared through foldForMatch; offsets stay those of the original text. */
  constructor(private readonly options: { fold?: boolean } = {}) {}
  add(word: string, value: T) {
    const key = this.options.fold && FOLDS.test(word) ? foldForMatch(word).text : word;
    if (!key) return;
    const k = key.charCodeAt(0);
    let arr = this.byFirst.get(k);
    if (!arr) this.byFirst.set(k, (arr = []));
    arr.push([key, value, word]);
    arr.sort((a, b) => b[0].length - a[0].length);
  }
  get size() {
    return this.byFirst.size;
  }
  /** non-overlapping, left to right, longest first; `word` is the word as added */
  find(text: string): Array<Match<T>> {
    const out: Array<Match<T>> = [];
    if (this.byFirst.size === 0) return out;
    const folded = this.options.fold && FOLDS.test(text) ? foldForMatch(text) : null;
    const hay = folded ? folded.text : text;
    for (let i = 0; i < hay.length; i++) {
      const arr = this.byFirst.get(hay.charCodeAt(i));
      if (!arr) continue;
      for (const [w, v, word] of arr) {
        if (hay.startsWith(w, i)) {
          const end = i + w.length;
          const at = folded ? { start: folded.from[i], end: folded.to[end - 1] } : { start: i, end };
          out.push({ ...at, word, value: v });
          i = end - 1;
          break;
        }
      }
    }
    return out;
  }
}

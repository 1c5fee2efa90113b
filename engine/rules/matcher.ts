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

/** How a character takes part in matching list words; `classOf` works it out once per character. */
const enum Kind {
  /** compared as it is */
  Keep = 1,
  /** a Han character, compared as it is */
  Han,
  /** a format character (category Cf): dropped wherever it is */
  Drop,
  /** a default-ignorable character or a combining mark: dropped between two Han characters, kept elsewhere */
  Between,
  /** compared as its NFKC form, small (compatibility ideographs, Kangxi radicals, full-width forms, capitals) */
  Map,
}

const FORMAT = /^\p{Cf}$/u;
const IGNORABLE = /^[\p{Default_Ignorable_Code_Point}\p{M}]$/u;
const CHANGES = /^\p{Changes_When_NFKC_Casefolded}$/u;
const HAN = /^\p{Script=Han}$/u;
const SPACE = /^\s$/u;
/** Kinds of the BMP, filled as characters are first seen (0: not yet); astral ones in a map, they are rare. */
const bmpKinds = new Uint8Array(0x10000);
const astralKinds = new Map<number, Kind>();
/** The compared form of the characters of kind Map. */
const mapped = new Map<number, string>();

function classify(cp: number): Kind {
  const ch = String.fromCodePoint(cp);
  if (FORMAT.test(ch)) return Kind.Drop;
  if (IGNORABLE.test(ch)) return Kind.Between;
  // spaces stay (U+3000 and U+00A0 would become U+0020): a word is never made by joining across one anyway
  if (CHANGES.test(ch) && !SPACE.test(ch)) {
    const form = ch.normalize('NFKC').toLowerCase();
    if (form !== ch && form !== '') {
      mapped.set(cp, form);
      return Kind.Map;
    }
  }
  return HAN.test(ch) ? Kind.Han : Kind.Keep;
}

function kindOf(cp: number): Kind {
  if (cp < 0x10000) return (bmpKinds[cp] ||= classify(cp));
  let kind = astralKinds.get(cp);
  if (kind === undefined) astralKinds.set(cp, (kind = classify(cp)));
  return kind;
}

const isHan = (cp: number) => {
  const kind = kindOf(cp);
  return kind === Kind.Han || (kind === Kind.Map && kindOf(mapped.get(cp)!.codePointAt(0)!) === Kind.Han);
};

const lastCodePoint = (s: string) => {
  const low = s.charCodeAt(s.length - 1);
  return low >= 0xdc00 && low <= 0xdfff && s.length > 1 ? s.codePointAt(s.length - 2)! : low;
};

/** Whether folding changes the text (most Chinese text: its full-width punctuation folds). */
function folds(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // surrogates: their characters are rare enough to send the text through the fold
    if (c >= 0xd800 && c <= 0xdfff) return true;
    if (kindOf(c) > Kind.Han) return true;
  }
  return false;
}

/** One folded text and the last one asked for: the matchers of one check fold the same paragraph in turn. */
let last: { text: string; folded: Folded } | null = null;

/**
 * Folds text for matching list words (sensitive, key and custom words), so a word is found however it is typed or
 * disguised:
 * - format characters (category Cf: zero-width spaces and joiners, bidi marks, embeddings, overrides and isolates,
 *   U+2060, U+FEFF, the soft hyphen, tags …) are dropped wherever they are;
 * - other default-ignorable characters (variation selectors, the combining grapheme joiner U+034F, the Hangul
 *   fillers) and combining marks are dropped when they sit between two Han characters, where they show nothing or
 *   only deface a character; elsewhere they stay (é is not e);
 * - every other character is compared as its NFKC form made small: compatibility ideographs (U+F915 洛) and Kangxi
 *   radicals (U+2F8A ⾊) become the unified ideographs, full-width ASCII half-width, Latin capitals small.
 * Spaces and line breaks stay: a word is never made by joining across them.
 */
export function foldForMatch(text: string): Folded {
  if (last?.text === text) return last.folded;
  let out = '';
  const from: number[] = [];
  const to: number[] = [];
  let prevHan = false;
  const emit = (ch: string, start: number, end: number) => {
    out += ch;
    for (let k = 0; k < ch.length; k++) {
      from.push(start);
      to.push(end);
    }
  };
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    const kind = kindOf(cp);
    if (kind === Kind.Drop) {
      i += width;
      continue;
    }
    if (kind === Kind.Between) {
      // the whole run of ignorable characters goes when a Han character stands on both sides of it
      let j = i;
      while (j < text.length) {
        const c = text.codePointAt(j)!;
        const k = kindOf(c);
        if (k !== Kind.Between && k !== Kind.Drop) break;
        j += c > 0xffff ? 2 : 1;
      }
      const hidden = prevHan && j < text.length && isHan(text.codePointAt(j)!);
      for (let k = i; k < j;) {
        const c = text.codePointAt(k)!;
        const w = c > 0xffff ? 2 : 1;
        if (!hidden && kindOf(c) === Kind.Between) emit(text.slice(k, k + w), k, k + w);
        k += w;
      }
      if (!hidden && j > i) prevHan = false;
      i = j;
      continue;
    }
    const ch = kind === Kind.Map ? mapped.get(cp)! : width === 1 ? text[i] : text.slice(i, i + 2);
    emit(ch, i, i + width);
    prevHan = kind === Kind.Han || (kind === Kind.Map && isHan(lastCodePoint(ch)));
    i += width;
  }
  const folded = { text: out, from: Int32Array.from(from), to: Int32Array.from(to) };
  last = { text, folded };
  return folded;
}

export class WordMatcher<T> {
  /** by the first UTF-16 unit's code: no string is made per character of the text searched */
  private byFirst = new Map<number, Array<[string, T, string]>>();
  /** With `fold`, words and text are compared through foldForMatch; offsets stay those of the original text. */
  constructor(private readonly options: { fold?: boolean } = {}) {}
  add(word: string, value: T) {
    const key = this.options.fold && folds(word) ? foldForMatch(word).text : word;
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
    const folded = this.options.fold && folds(text) ? foldForMatch(text) : null;
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

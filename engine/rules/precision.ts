/**
 * Kinds of wrong findings seen on published documents (engine/bench/realdoc): each guard drops a finding whose fix
 * would make good text worse. Real documents hold few errors, so there every such finding is what a user sees.
 *
 *  - a preposition 在 whose place or time phrase closes later in the clause (在用…的时候, 在…之后) is no 再;
 *  - 哪 before a measure word (哪些, 哪个) asks an embedded question (决定哪些字符是空白): 那 would change the meaning;
 *  - a grammatical character (是, 之, 及) before a word the text already makes (是|用于, 组|之前) is not fused into
 *    another word (适用于, 组织前);
 *  - a form written more than once in the text is a term of it (标记符, 服务项, 段中): no missing character, no swap;
 *  - a missing character outside a common idiom needs the models' clear preference in both modes, else a form that
 *    reads as words already (读操作) is widened into a longer phrase (读写操作); and a negation is never supplied
 *    outside an idiom (并需要 → 并不需要 reverses the sense);
 *  - a common word is not replaced by another common word (指示 → 只是): that is left to the character speller, whose
 *    real-word fixes (截至 → 截止) weigh the context character by character;
 *  - the first Chinese character after a Latin or numeric token makes the writer's compound with it (Alt键, 3号);
 *  - a swap needs the models' clear preference in both modes: one they barely prefer reads across a word boundary
 *    (跳至|行尾 → 跳行至尾, 属主|为 → 属为主);
 *  - a preposition doubled across two words, the first copy ending a common word and the second opening the next
 *    phrase (可以|以受控的方式), is no doubling.
 */
import type { JiebaDict } from '../jieba';
import type { LanguageModel } from '../lm';
import type { Issue } from '../types';

export interface PrecisionLexicon {
  lm: LanguageModel;
  dict: JiebaDict;
  /** a word of any lexicon the non-word checker trusts */
  isWord: (w: string) => boolean;
  /** a word of any lexicon, however rare (what a whole-word replacement makes must be one) */
  known: (w: string) => boolean;
  /** the sound relation of two characters (3 = same syllable and tone, see Pinyin.relation) */
  sound?: (a: string, b: string) => number;
}

const isHan = (c: string | undefined) => !!c && c >= '\u4e00' && c <= '\u9fff';

/** a place or time phrase after the preposition 在 closes with one of these (在用户登录时, 在表中, 在关闭之后) */
const FRAME_CLOSERS = [
  '的时候',
  '之时',
  '时',
  '中',
  '上',
  '下',
  '里',
  '内',
  '外',
  '前',
  '后',
  '间',
  '以来',
  '期间',
  '方面',
  '处',
  '一侧',
  '这边',
  '那边',
];
/** a clause ends at one of these */
const CLAUSE_END = /[，。；：！？,;:!?\n（）()“”"]/;

/**
 * an ASCII full stop ends a sentence where it is followed by a space, a line end or a Chinese character (documents
 * that space Latin text write 不再提供. -z 在开始…); inside 3.5 or ls.1 it does not
 */
function asciiStop(text: string, k: number): boolean {
  if (text[k] !== '.') return false;
  const next = text[k + 1];
  return next === undefined || /\s/.test(next) || isHan(next);
}

/**
 * 在 at i opens a place or time phrase that closes before the clause ends; with the dictionary, a verb or conjunction
 * of two characters right after 在 that ends like a closer (在加上…) closes nothing: 再加上 is the adverb's
 */
export function prepositionFrame(text: string, i: number, dict?: JiebaDict): boolean {
  let end = i + 1;
  while (end < text.length && !CLAUSE_END.test(text[end]) && !asciiStop(text, end)) end++;
  const clause = text.slice(i + 1, end);
  // the phrase needs an object: a closer right after 在 (在上, 在中) is the adverb's 再上, 再中
  const verb = (w: string) => /^[vc]/.test(dict?.pos.get(w) ?? '');
  return FRAME_CLOSERS.some((c) => {
    for (let at = clause.indexOf(c, 1); at >= 1; at = clause.indexOf(c, at + 1))
      if (at > 1 || !verb(clause.slice(0, 1 + c.length))) return true;
    return false;
  });
}

/** measure words and 些 after the interrogative 哪 (哪些, 哪个, 哪种) */
const WHICH_MEASURES = '些个种类位条家样里儿一';

/** grammatical characters that stand between words where they fit (是 before a verb, 之前, 及 joining nouns) */
const GRAMMATICAL = '是之及与和或为';

/** prepositions, which open a phrase after a word that ends with the same character (可以|以受控的方式) */
const PREPOSITIONS = '以为于对从向把被将给和与由';

/** a common word (jieba's count) is no slip for another common word */
const COMMON_WORD = 1000;

const SUBSTITUTIONS = new Set(['spell.same', 'spell.fuzzy', 'spell.shape', 'spell.word', 'nonword.idiom']);

/** the character at i comes right after a Latin or numeric token (a space or an opening bracket between) */
export function afterLatin(text: string, i: number): boolean {
  let k = i - 1;
  while (k >= 0 && ' \t(（'.includes(text[k])) k--;
  return k >= 0 && /[A-Za-z0-9]/.test(text[k]);
}

/** negations: supplying one reverses what the sentence says */
const NEGATIONS = '不没未非无别勿莫';

/**
 * the score (nats past its need) a missing character needs, in both modes: on the native tuning sets every right
 * one scored 1.9 or more and every one under 0 was wrong; on the man pages' tuning half wrong ones scored up to 3
 */
const MISSING_SCORE = 1.7;
/**
 * the same for two swapped characters: right swaps of the native tuning sets scored 0.9 or more, wrong ones up to 0.2;
 * on the man pages' tuning half wrong ones scored up to 0.6 where the swap reads across a word boundary
 */
const SWAP_SCORE = 0.8;

const logit = (p: number) => Math.log(p / (1 - p));

/** how often (jieba's count) an idiom or set phrase occurs to count as one (迎难而上 19, 动态链接库 8) */
const IDIOM_FREQ = 10;

/** an idiom or set phrase that is common (jieba tags many a chance phrase of three occurrences as one: 并不需要) */
function idiom(lex: PrecisionLexicon, w: string) {
  const tag = lex.dict.pos.get(w);
  return (tag === 'i' || tag === 'l') && (lex.dict.freq.get(w) ?? 0) >= IDIOM_FREQ && lex.isWord(w);
}

/** the character inserted: where the word made differs from the written form */
function inserted(written: string, word: string): string {
  let k = 0;
  while (k < written.length && written[k] === word[k]) k++;
  return word[k] ?? '';
}

/**
 * the confidence a real-word change needs in mode 3 (a character of a word the text makes turned into another word:
 * 程序 → 秩序, 任一 → 任意): on the man pages' tuning half the wrong ones scored 0.54 to 0.64, the right one 0.82;
 * on the native set a right one (改变 → 改编) scored 0.76
 */
const REAL_WORD_CONFIDENCE = 0.7;

/** a word of the trusted lexicons (2 to 4 characters) in text covers position p */
function inWord(lex: PrecisionLexicon, text: string, p: number): boolean {
  for (let L = 2; L <= 4; L++)
    for (let s = Math.max(0, p - L + 1); s <= p && s + L <= text.length; s++)
      if (lex.isWord(text.slice(s, s + L))) return true;
  return false;
}

/** whether the finding is one of the kinds above, in text (the engine's working text); mode 3 unless told */
export function falseKind(lex: PrecisionLexicon, text: string, i: Issue, mode: 3 | 4 = 3): boolean {
  const id = i.note?.id;
  const args = (i.note?.args ?? {}) as Record<string, unknown>;
  const cand = i.suggestions[0] ?? '';
  const orig = text.slice(i.start, i.end);
  if (orig === '在' && cand === '再' && prepositionFrame(text, i.start, lex.dict)) return true;
  if (orig === '哪' && cand === '那' && WHICH_MEASURES.includes(text[i.end] ?? '')) return true;
  // a grammatical character fused into a word with a neighbour while the text makes a word after it
  if (
    i.end - i.start === 1 &&
    cand.length === 1 &&
    GRAMMATICAL.includes(orig) &&
    isHan(text[i.end]) &&
    isHan(text[i.end + 1]) &&
    lex.isWord(text.slice(i.end, i.end + 2))
  )
    return true;
  // a common word replaced by another common word (指示 → 只是): the writer's word is the likelier reading
  if (id === 'spell.word' && (lex.dict.freq.get(orig) ?? 0) >= COMMON_WORD && lex.known(cand)) return true;
  // the first Chinese character after a Latin or numeric token makes a compound with it (Alt键, 3号):
  // the models see no left context there, and a look-alike or homophone reads as likely as the written term
  if (SUBSTITUTIONS.has(id ?? '') && i.end - i.start === 1 && afterLatin(text, i.start)) return true;
  // one word of the text turned into another by a character of another sound or shape (程序 → 秩序, 转意 → 转移):
  // inside technical terms the models prefer the everyday word, so mode 3 wants them surer; a homophone of the same
  // tone is rather a variant spelling (联接 → 连接, 部份 → 部分) and keeps its need
  if (
    mode === 3 &&
    id !== 'nonword.idiom' &&
    SUBSTITUTIONS.has(id ?? '') &&
    i.end - i.start === 1 &&
    cand.length === 1 &&
    (i.confidence ?? 1) < REAL_WORD_CONFIDENCE &&
    lex.sound?.(orig, cand) !== 3 &&
    typeof args.cand === 'string' &&
    args.cand.length >= 2 &&
    lex.isWord(args.cand) &&
    inWord(lex, text, i.start)
  )
    return true;
  if (id === 'nonword.missing' || id === 'nonword.swap') {
    // a form the text writes more than once is a term of the text (标记符, 服务项, 段中), as for substitutions
    const written = typeof args.orig === 'string' ? args.orig : orig;
    if (written.length >= 2 && text.indexOf(written) !== text.lastIndexOf(written)) return true;
  }
  if (id === 'nonword.missing') {
    const written = typeof args.orig === 'string' ? args.orig : orig;
    const word = typeof args.cand === 'string' ? args.cand : cand;
    // (a common idiom is rarely a coincidence: 迎难而 is 迎难而上 at a lower score)
    if (!idiom(lex, word)) {
      if (NEGATIONS.includes(inserted(written, word))) return true;
      // (confidence is the logistic of half the score: see nonwordIssue)
      if (i.confidence !== undefined && 2 * logit(i.confidence) < MISSING_SCORE) return true;
    }
  }
  // (a swap the models barely prefer reads across a word boundary: 跳至|行尾 → 跳行至尾, 属主|为 → 属为主)
  if (id === 'nonword.swap' && i.confidence !== undefined && 2 * logit(i.confidence) < SWAP_SCORE) return true;
  if (id === 'nonword.repeated' && i.end - i.start === 2 && cand.length === 1) {
    // the first copy ends a common word of two (可以) and the second opens the next phrase as a preposition (以):
    // any other character doubled after such a word is doubled (不是是, 全力力, 年底底)
    const w = text.slice(i.start - 1, i.start + 1);
    if (
      i.start > 0 &&
      isHan(w[0]) &&
      PREPOSITIONS.includes(cand) &&
      (lex.dict.freq.get(w) ?? 0) >= 1000 &&
      lex.lm.has(w)
    )
      return true;
  }
  return false;
}

let guards = true;
/** for measuring what the guards cost and save (the benches and tests switch them off and on) */
export function setPrecisionGuards(on: boolean) {
  guards = on;
}

/** drops, in place, the findings of the kinds above */
export function dropFalseKinds(lex: PrecisionLexicon, text: string, issues: Issue[], mode: 3 | 4 = 3): void {
  if (!guards) return;
  let k = 0;
  for (const i of issues) if (!falseKind(lex, text, i, mode)) issues[k++] = i;
  issues.length = k;
}

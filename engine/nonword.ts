/**
 * Non-words: a written form that is no word of any lexicon, one edit away from a word or an idiom.
 *
 * Native writers' typos are mostly of this kind (冰苞, 扣人心旋, 挺身出, 拍手称称快, 证论): the wrong character
 * breaks a word into single characters that the segmentation cannot join. Such a form is evidence on its own;
 * the language models only choose between the candidates and weigh the context, they do not veto the finding
 * as they would for a real word (a wrong character that still makes words is the speller's harder case).
 *
 * Edits: one substitution (sound, tone, shape or shared component: the speller's confusion sets), one missing
 * character inside a word of four (an idiom or a fixed phrase), one doubled character or word too many, and
 * two swapped neighbours. Each edit must make a lexicon word of the span where the written form makes none.
 */
import type { LanguageModel } from './lm';
import { FrozenSet, FrozenStrings, type ImageReader, type ImageWriter } from './image';
import type { JiebaDict } from './jieba';
import type { PinyinTable } from './pinyin';
import type { ShapeTable } from './shape';
import { afterAdverb } from './rules/wording';
import {
  CodeMarks,
  ConfLookup,
  RELATIONS,
  hanRuns,
  patternKey,
  findPattern,
  variantPair,
  SURNAMES,
  COMPOUND_SURNAMES,
  NAME_STOP,
  type Relation,
  type Speller,
} from './spell';

export type EditKind = 'sub' | 'ins' | 'del' | 'swap';

export interface NonWordFinding {
  start: number;
  end: number;
  /** replacement of text[start, end) */
  repl: string;
  kind: EditKind;
  /** the lexicon word the edit makes, the written form it replaces, and where that form starts */
  word: string;
  written: string;
  at: number;
  /** substitutions: how the characters relate ('other': unrelated, inside a word of four characters) */
  relation?: Relation | 'other';
  /** the written form may be part of a personal name */
  named?: boolean;
  /** a need fixed by the candidate's own evidence (doubled characters), instead of its kind's */
  need?: number;
  /** doubled characters: the word the copy that stays makes with its neighbour (点赞 in 点赞赞) */
  made?: string;
  /** the models' gains (nats) over the context, first and second LM */
  g1: number;
  g2: number;
  score: number;
}

export interface NonWordParams {
  /** the smaller of the two models' gains an edit needs, by kind (substitutions: by relation) */
  need: Record<Relation | 'other' | Exclude<EditKind, 'sub'>, number>;
  /** lowered by this when the word made is of four characters or more (an idiom is rarely a coincidence) */
  longWordBonus: number;
  /** raised by this where the written form may be part of a personal name */
  nameCost: number;
  /** raised by this when only one model knows the word made and decides alone */
  oneModelCost: number;
  /** required lead of the best substitution at a position over the runner-up */
  margin: number;
  /** the costliest candidate character considered (unigram cost) */
  maxCharCost: number;
  /** edits this far (nats) short of their need are taken too: scores stay relative to the need */
  slack: number;
  /** the need of an idiom three of whose characters are in place, the fourth making a word with a neighbour */
  idiomHeldNeed: number;
}

export const NONWORD3: NonWordParams = {
  need: { 'same-tone': 11, same: 12, shape: 12.5, fuzzy: 14, other: 20, special: Infinity, ins: 7, del: 7, swap: 7 },
  longWordBonus: 6,
  oneModelCost: 3,
  nameCost: 4,
  margin: 1,
  maxCharCost: 16,
  slack: 0,
  idiomHeldNeed: 12,
};
/** fine proofreading also takes the edits up to 3 nats short of their need (their confidence is under 0.5) */
// (not the idioms held but for one character: any slack there changed clean set phrases, 全市上下 to 全身上下)
export const NONWORD4: NonWordParams = { ...NONWORD3, slack: 3, idiomHeldNeed: NONWORD3.idiomHeldNeed + 3 };

/** the second LM's words at most this costly (unigram, nats) are words in their own right */
const TRUSTED_LM2_COST = 13;

/** characters that do not reduplicate: particles, prepositions, conjunctions, auxiliaries, adverbs */
const FUNCTION_CHARS = '的了着过地得在于到从对把被将向给和与及并而或但就才都也又还已再会能可要应该所之其以为是';
/** characters seen after a surname in the dictionary's personal names can be a given name's */
const NAME_CHAR_MIN = 1;
/** rarer characters (unigram cost) may be a given name's though the dictionary has no name with them */
const RARE_CHAR_COST = 15;
const CONJUNCTIONS = '并及或而';
/** characters of sounds and interjections, which repeat any number of times (哈哈哈, 咚咚咚) */
const SOUND_CHARS = '哈呵嘻嘿嗯哦啊呀哇啦嘟咚叮当轰隆砰噼啪滴答咕嘎呜喵汪咩嗡嘀哒吱呼哗沙刷';
/** the smaller gain dropping a copy of a doubled character needs where the double is itself a word (扬扬) */
const DOUBLED_WORD_NEED = 9;
/** the smaller gain dropping a copy needs where the double is no word and neither copy completes one (治市市) */
const NO_WORD_DOUBLE_NEED = 6;
/** particles a clause or a phrase may go on with after a word that lost its last character (互利共的原则) */
const CLAUSE_PARTICLES = '的了地得';
/** the need of completing such a character, and the lead its completion needs over the next one */
const LONE_END_NEED = 8;
const LONE_END_LEAD = 2;
/** how often (jieba's count) a word of three must occur for its omissions to be looked for */
const MISSING3_MIN_FREQ = 20;
/** measure words: a phrase reads as well without one (上世纪, 这本书) */
const MEASURES = '个只条张件位名次种些本把台辆座';
/** result complements: a verb with one does not reduplicate (想起想起, 看见看见) */
const RESULTS = '起见到完好出来去上下住掉成走开';

/** numbers are the writer's facts, not a word's characters (九十多岁 is no slip for 五十多岁) */
const NUMERALS = '零一二三四五六七八九十百千万亿两';

const isHan = (c: number) => (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf);
const W = 4;

/** tags of jieba words that are names: a name one edit from the text is no evidence of a typo */
const NAME_TAGS = new Set(['nr', 'ns', 'nt', 'nrt', 'nz', 'nrfg']);

/** the rarest candidate character a look-alike of glyphs.txt may be (蹒 lives only in 蹒跚) */
const GLYPH_MAX_COST = 18;

export class NonWordChecker {
  /**
   * look-alikes by glyph and strokes (glyphs.txt: 拔/拨, 瞒/蹒, 暮/蓦), wider than the speller's shape neighbours:
   * here the written form is no word and the candidate must make one, which keeps the wider set safe
   */
  glyphs: ShapeTable | null = null;

  /** the three characters of a four-character word with one removed (numeric key) -> the word, '' if ambiguous */
  private byMissing: FrozenStrings;
  /**
   * the same for set phrases of five and six characters (几十年如一日) and common words of three (跨越式), keyed by the
   * written characters; never the first character missing
   */
  private byMissingOther: FrozenStrings;
  /** the speller's patterns (word with one character masked -> completions) for common words only the second LM has */
  private patterns2: FrozenStrings;
  /** characters of given names: seen at least NAME_CHAR_MIN times after the surname in the dictionary's names */
  private nameChars: FrozenSet;

  constructor(
    private lm: LanguageModel,
    private lm2: LanguageModel | null,
    private dict: JiebaDict,
    private speller: Speller,
    private py: PinyinTable,
    /** the indexes as saved in an engine image (see save) instead of built from the lexicons */
    img: { r: ImageReader; p: string } | null = null,
  ) {
    if (img) {
      this.byMissing = FrozenStrings.read(img.r, `${img.p}.byMissing`);
      this.byMissingOther = FrozenStrings.read(img.r, `${img.p}.byMissingOther`);
      this.patterns2 = FrozenStrings.read(img.r, `${img.p}.patterns2`);
      this.nameChars = FrozenSet.read(img.r, `${img.p}.nameChars`);
      return;
    }
    const given = new Map<string, number>();
    for (const [w] of dict.freq) {
      if (dict.pos.get(w) !== 'nr' || w.length < 2 || w.length > 3) continue;
      for (const c of w.slice(1)) given.set(c, (given.get(c) ?? 0) + 1);
    }
    this.nameChars = FrozenSet.build([...given].filter(([, n]) => n >= NAME_CHAR_MIN).map(([c]) => c));
    const byMissing = new Map<number, string>();
    const patterns2 = new Map<number | string, string>();
    const best = new Map<number, { w: string; c: number; next: number }>();
    // words of four the dictionary lists (not the first LM's phrases: 可以看见 and 没有办法 leave good text when a
    // character goes, 可看见, 没办法), with the cheaper of the LM's and the dictionary's costs
    const lnTotal = Math.log(dict.total);
    for (const [w, f] of dict.freq) {
      // (nz, "other proper noun", tags many set phrases: 慢条斯理)
      const tag = dict.pos.get(w) ?? '';
      if (w.length !== 4 || f < 3 || (NAME_TAGS.has(tag) && tag !== 'nz')) continue;
      let han = true;
      for (let k = 0; k < 4; k++) if (!isHan(w.charCodeAt(k))) han = false;
      if (!han) continue;
      const c = Math.min(this.cost(w), lnTotal - Math.log(f) + 0.5);
      for (let k = 0; k < 4; k++) {
        const key = key3(w, k);
        const b = best.get(key);
        if (!b) best.set(key, { w, c, next: Infinity });
        else if (b.w !== w) {
          if (c < b.c) best.set(key, { w, c, next: b.c });
          else b.next = Math.min(b.next, c);
        }
      }
    }
    if (lm2) {
      for (const [w, id] of lm2.entries()) {
        // (words of the first LM too rare for the speller's index count here: 收悉, 复诊)
        if (w.length < 2 || w.length > 4 || lm2.uni(id) > TRUSTED_LM2_COST || speller.indexes(w)) continue;
        let han = true;
        for (let k = 0; k < w.length; k++) if (!isHan(w.charCodeAt(k))) han = false;
        if (!han) continue;
        for (let k = 0; k < w.length; k++) {
          const key = patternKey(w, 0, k, w.length);
          const prev = patterns2.get(key);
          if (prev === undefined) patterns2.set(key, w[k]);
          else if (!prev.includes(w[k])) patterns2.set(key, prev + w[k]);
        }
      }
    }
    // where several words lose a character to the same three, the commonest stands for them only when it is
    // clearly the commonest (e^2.3: ten times as likely)
    for (const [k, b] of best) byMissing.set(k, b.next - b.c >= 2.3 ? b.w : '');
    this.byMissing = FrozenStrings.build(byMissing);
    const other = new Map<string, { w: string; c: number; next: number }>();
    for (const [w, f] of dict.freq) {
      const tag = dict.pos.get(w) ?? '';
      const set = (w.length === 5 || w.length === 6) && (tag === 'i' || tag === 'l') && f >= 5;
      const common = w.length === 3 && f >= MISSING3_MIN_FREQ && !NAME_TAGS.has(tag);
      if (!set && !common) continue;
      let han = true;
      for (let k = 0; k < w.length; k++) if (!isHan(w.charCodeAt(k))) han = false;
      if (!han) continue;
      const c = lnTotal - Math.log(f);
      for (let k = 1; k < w.length; k++) {
        const key = w.slice(0, k) + w.slice(k + 1);
        const b = other.get(key);
        if (!b) other.set(key, { w, c, next: Infinity });
        else if (b.w !== w) {
          if (c < b.c) other.set(key, { w, c, next: b.c });
          else b.next = Math.min(b.next, c);
        }
      }
    }
    this.byMissingOther = FrozenStrings.build(new Map([...other].map(([k, b]) => [k, b.next - b.c >= 2.3 ? b.w : ''])));
    this.patterns2 = FrozenStrings.build(patterns2);
  }

  /** the current character's confusion set, for the substitution loop */
  private confLookup = new ConfLookup();
  private glyphCache = new Map<string, Set<number>>();
  /** the look-alikes of c by glyphs.txt (symmetric), common enough to be candidates */
  private glyphCodes(c: string): Set<number> {
    let set = this.glyphCache.get(c);
    if (set) return set;
    set = new Set();
    for (const x of this.glyphs?.neighbours(c) ?? '')
      if (this.lm.wordCost(x) <= GLYPH_MAX_COST && !variantPair(c, x)) set.add(x.charCodeAt(0));
    this.glyphCache.set(c, set);
    return set;
  }

  save(w: ImageWriter, p: string) {
    this.byMissing.save(w, `${p}.byMissing`);
    this.byMissingOther.save(w, `${p}.byMissingOther`);
    this.patterns2.save(w, `${p}.patterns2`);
    this.nameChars.save(w, `${p}.nameChars`);
  }

  /**
   * a written form that is a word: one of the first LM (with the dictionary words of five or more occurrences it
   * took) or a common one of the second. Rarer entries are no evidence: both word lists hold misspellings
   * (jieba's 家谕户晓 and 画龙点晴 three times each, libime's 彭湃 and 黄梁 from typed text).
   */
  isWord(w: string): boolean {
    return this.lm.has(w) || (this.lm2 !== null && this.lm2.wordCost(w) <= TRUSTED_LM2_COST);
  }

  /** the word's unigram cost, the cheapest over the lexicons (Infinity when none has it) */
  cost(w: string): number {
    let c = this.lm.wordCost(w);
    if (this.lm2) c = Math.min(c, this.lm2.wordCost(w));
    return c;
  }

  /** an idiom or set phrase of the dictionary (防患于未然), however rare */
  private isIdiom(w: string): boolean {
    const tag = this.dict.pos.get(w);
    return tag === 'i' || tag === 'l';
  }

  /**
   * the idiom the three characters of written other than k stand for: the only one they hold, or one ten times as
   * common as each other (扣人心弦 over 扣人心扉); where several are alike (回然不同: 截然, 迥然, 全然), the three in
   * place say nothing of which was meant, and an unrelated fourth is no evidence
   */
  private heldIdiom(written: string, k: number): string {
    const v = findPattern(this.speller.patterns, written, 0, k, 4);
    if (v < 0) return '';
    const vals = this.speller.patterns.values;
    let best = '',
      f1 = 0,
      f2 = 0;
    for (let t = 0; t < vals.lengthAt(v); t++) {
      const word = written.slice(0, k) + String.fromCharCode(vals.codeAt(v, t)) + written.slice(k + 1);
      if (this.dict.pos.get(word) !== 'i') continue;
      const f = this.dict.freq.get(word) ?? 0;
      if (f > f1) [best, f1, f2] = [word, f, f1];
      else f2 = Math.max(f2, f);
    }
    return f1 >= 10 * f2 ? best : '';
  }

  private isName(w: string): boolean {
    const p = this.dict.pos.get(w);
    return p !== undefined && NAME_TAGS.has(p) && !this.lm.inBase(w);
  }

  /** both models' gains for replacing s[start, end) by repl, over up to W Han characters each side */
  private gains(s: string, start: number, end: number, repl: string, word: string): [number, number] | null {
    let lo = start,
      hi = end;
    while (lo > 0 && start - lo < W && isHan(s.charCodeAt(lo - 1))) lo--;
    while (hi < s.length && hi - end < W && isHan(s.charCodeAt(hi))) hi++;
    const lm2 = this.lm2;
    if (!lm2) {
      const g = this.written(this.lm, this.base1, s, lo, hi, start, end) - edited(this.lm, s, lo, hi, start, end, repl);
      return [g, g];
    }
    // the newer model first: where it knows the word made and finds it no likelier, the edit cannot win (its gain
    // weighs twice), and the older model's two scores are spared
    const g2 = this.written(lm2, this.base2, s, lo, hi, start, end) - edited(lm2, s, lo, hi, start, end, repl);
    if (g2 < 0 && lm2.wordCost(word) <= TRUSTED_LM2_COST) return null;
    return [
      this.written(this.lm, this.base1, s, lo, hi, start, end) - edited(this.lm, s, lo, hi, start, end, repl),
      g2,
    ];
  }

  /** the written window's score: the same for every candidate of the span, so once per span and model */
  private written(
    m: LanguageModel,
    memo: Map<number, number>,
    s: string,
    lo: number,
    hi: number,
    start: number,
    end: number,
  ): number {
    const key = start * 4194304 + end;
    let v = memo.get(key);
    if (v === undefined) memo.set(key, (v = m.score(s, lo, hi)));
    return v;
  }
  /** the written windows' scores of the text being checked, by span (see gains) */
  private base1 = new Map<number, number>();
  private base2 = new Map<number, number>();
  /** the substitution candidates already taken at the current place (see run) */
  private seen = new CodeMarks();

  /** the accepted edits of s: the best candidates above their kind's need, none overlapping another */
  check(s: string, blocked: Uint8Array, p: NonWordParams): NonWordFinding[] {
    const all = this.candidates(s, blocked, p);
    for (const f of all) {
      const need =
        f.need ?? p.need[f.kind === 'sub' ? f.relation! : f.kind] - (f.word.length >= 4 ? p.longWordBonus : 0);
      const [g, alone] = this.judged(f, p);
      f.score = g - need - (alone ? p.oneModelCost : 0) - (f.named ? p.nameCost : 0);
      // a possible name gets no slack: fine proofreading must not start changing names either
      if (f.named && f.score < 0) f.score = -Infinity;
    }
    // substitutions compete at their position: the best leads the others by the margin, or, where candidates
    // come close (闭幕/闭目 after 隆重), the commonest word among those close to the best is taken
    const byPos = new Map<number, NonWordFinding[]>();
    for (const f of all) if (f.kind === 'sub') byPos.set(f.start, [...(byPos.get(f.start) ?? []), f]);
    const ok = all.filter((f) => f.score >= -p.slack && f.kind !== 'sub');
    for (const fs of byPos.values()) {
      fs.sort((x, y) => y.score - x.score);
      if (fs[0].score < -p.slack) continue;
      const close = fs.filter((f) => f.score >= -p.slack && fs[0].score - f.score < p.margin);
      close.sort((x, y) => this.cost(x.word) - this.cost(y.word));
      ok.push(close[0]);
    }
    ok.sort((x, y) => y.score - x.score);
    const taken = new Uint8Array(s.length);
    const out: NonWordFinding[] = [];
    for (const f of ok) {
      // the word made holds its characters: no other edit inside it (扣人心弦, then not 扣 -> 和)
      const lo = Math.min(f.start, f.at),
        hi = Math.max(f.end, f.at + f.written.length);
      let free = true;
      for (let k = lo; k < hi; k++) if (taken[k]) free = false;
      if (!free) continue;
      taken.fill(1, lo, hi);
      out.push(f);
    }
    return out.sort((x, y) => x.start - y.start);
  }

  /**
   * The need of dropping one of a doubled character s[i] s[i + 1], or null where the doubling is a reduplication:
   * a measure word after a numeral (一股股), a verb before its object (散散步: 散步 is a verb), AABB (轻轻松松,
   * 自自在在), or a
   * doubled form that is a word itself (往往, 纷纷, 了了) unless one copy breaks a longer word (人来人往往).
   */
  private doubledChar(s: string, i: number, a: number, b: number): number | null {
    const c = s[i];
    // 一 with a doubled measure word means each (一股股, 一个个); any other numeral counts once (三万个个, 两万名名)
    const counted = i > a && NUMERALS.includes(s[i - 1]);
    if (counted && (s[i - 1] === '一' || NUMERALS.includes(c) || !MEASURES.includes(c))) return null;
    // a character written three times whose double is a word (刚刚刚, 常常常) has one copy too many; sounds repeat
    if (s[i + 2] === c && s[i - 1] !== c && s[i + 3] !== c && !SOUND_CHARS.includes(c) && this.isWord(c + c)) return 3;
    if (s[i + 2] !== undefined && s[i + 2] === s[i + 3]) return null;
    if (i > a && s[i - 1] === c) return null;
    if (i >= a + 2 && s[i - 1] === s[i - 2]) return null;
    if (c === '了' && afterAdverb(this.dict, s, i)) return null;
    // a word ends with the first copy and another begins with the second (小学学生, 神殿殿主, 目的的地)
    const known = (w: string) => (this.dict.freq.get(w) ?? 0) >= 5 || this.lm.inBase(w);
    if (i > a && i + 2 < b && known(s[i - 1] + c) && known(c + s[i + 2])) return null;
    if (counted) return 3;
    // a word of three characters or more holds the copy that stays (突如其来来, 拍手称称快, 家喻户户晓)
    const t = s.slice(0, i + 1) + s.slice(i + 2);
    let holds = false;
    for (let L = 3; L <= 5 && !holds; L++) {
      for (let st = Math.max(a, i - L + 1); st <= i && st + L <= b - 1; st++) {
        const w = t.slice(st, st + L);
        if (this.lm.has(w) || this.isIdiom(w)) {
          holds = true;
          break;
        }
      }
    }
    // (unless the double is a word itself: 常常回家 holds 常回家, yet 常常 is as written)
    if (holds) return this.isWord(c + c) ? DOUBLED_WORD_NEED : 3;
    const vo = s[i + 2] !== undefined ? this.dict.pos.get(c + s[i + 2]) : undefined;
    if (vo !== undefined && vo.startsWith('v') && !FUNCTION_CHARS.includes(c)) return null;
    const left = i > a && this.isWord(s[i - 1] + c),
      right = i + 2 < b && this.isWord(c + s[i + 2]);
    // a doubled form that is a word (扬扬, 节节) is doubled by mistake only where one copy completes a word with its
    // neighbour (悠扬扬, 时间节节点) and both models want it gone by a wide margin; a verb doubled before the word
    // its second copy makes is a reduplication (多走走路, 去看看书)
    if (this.isWord(c + c)) {
      const verb = (this.dict.pos.get(c) ?? '').startsWith('v');
      return left || (right && !verb) ? DOUBLED_WORD_NEED : null;
    }
    // (so do 起 and 止 closing a time: 自一月一日起起施行)
    if (FUNCTION_CHARS.includes(c) || '起止'.includes(c)) return 5;
    // else where the second copy stands alone after a word it completes (核实实, 格格式), or where the double is
    // no word of any lexicon nor a sound (依法治市市): a slip of the hand, and the models weigh it as any other
    if (left || right) return 7;
    return SOUND_CHARS.includes(c) || this.dict.freq.has(c + c) || this.lm2?.has(c + c) ? null : NO_WORD_DOUBLE_NEED;
  }

  /**
   * The need of dropping one of a doubled word, or null for a reduplication: verbs (研究研究, 平静平静, not a verb
   * with its result: 想起想起), numeral phrases (一个一个), a word of one character doubled (天天天天).
   */
  private doubledWord(w: string): number | null {
    // emphasis repeats a degree phrase (很强很强, 好美好美, 太难太难)
    if (w[0] === w[1] || NUMERALS.includes(w[0]) || '每很好太真超'.includes(w[0])) return null;
    if (!this.isWord(w)) return null;
    const tag = this.dict.pos.get(w) ?? '';
    if (tag.startsWith('v') && w.length === 2 && !RESULTS.includes(w[1])) return null;
    // the dictionary's tags are rough (商量 n, 清单 a): the models decide the rest at a plain margin
    return 7;
  }

  /**
   * the models' verdict: the second model (libime's, larger and newer) weighs twice the first (阈值, 遍历, 校验:
   * the first barely knows technical words), or the gain of the only model that knows the word made (雾霾).
   * Doubles are judged by the smaller gain: there both know every word.
   */
  private judged(f: NonWordFinding, p: NonWordParams): [number, boolean] {
    if (!this.lm2) return [Math.min(f.g1, f.g2), false];
    if (f.kind === 'del') {
      // a double after a word only one model knows (点赞赞: the first lacks 点赞) is that model's to judge
      const k1 = !!f.made && this.lm.has(f.made),
        k2 = !!f.made && this.lm2.wordCost(f.made) <= TRUSTED_LM2_COST;
      // (where that says more than both together, after its cost)
      const both = Math.min(f.g1, f.g2),
        one = k1 ? f.g1 : f.g2;
      return k1 !== k2 && one - p.oneModelCost > both ? [one, true] : [both, false];
    }
    const k1 = this.lm.has(f.word),
      k2 = this.lm2.wordCost(f.word) <= TRUSTED_LM2_COST;
    return k1 === k2 ? [(f.g1 + 2 * f.g2) / 3, false] : [k1 ? f.g1 : f.g2, true];
  }

  /** all candidate edits of s with their evidence (no decision) */
  candidates(s: string, blocked: Uint8Array, p: NonWordParams): NonWordFinding[] {
    const out: NonWordFinding[] = [];
    this.base1.clear();
    this.base2.clear();
    hanRuns(s, (a, b) => this.run(s, a, b, blocked, p, out));
    return out;
  }

  private run(s: string, a: number, b: number, blocked: Uint8Array, p: NonWordParams, out: NonWordFinding[]) {
    const seg = this.lm.segment(s.slice(a, b));
    // single[k]: the character at a + k stands alone in the best segmentation
    const single = new Uint8Array(b - a);
    // name[k]: a likely personal name, a surname standing alone with one or two single characters after it (萧/天/澜)
    const name = new Uint8Array(b - a);
    for (let k = 0, x = 0; x < seg.length; k += seg[x].length, x++) {
      const w = seg[x];
      if (w.length === 1) single[k] = 1;
      // (a surname that makes a word with the character before it is that word's: 贵司, 我司)
      const bound = w.length === 1 && x > 0 && seg[x - 1].length === 1 && this.isWord(seg[x - 1] + w);
      if ((SURNAMES.has(w) || COMPOUND_SURNAMES.has(w)) && !bound) {
        const n1 = seg[x + 1],
          n2 = seg[x + 2];
        // (a character of some currency never seen in a given name, or a conjunction, makes none: 彭湃, 盖张并; a rare
        // one may, as in a novel: 凤燚)
        const given = (c: string | undefined) =>
          !!c &&
          c.length === 1 &&
          !NAME_STOP.has(c) &&
          !CONJUNCTIONS.includes(c) &&
          (this.nameChars.has(c) || this.lm.wordCost(c) > RARE_CHAR_COST);
        if (given(n1)) {
          let e = k + w.length + 1;
          if (given(n2)) e++;
          name.fill(1, k, Math.min(e, b - a));
        }
      }
    }
    const free = (x: number, y: number) => {
      for (let k = x; k < y; k++) if (blocked[k]) return false;
      return true;
    };
    const push = (f: Omit<NonWordFinding, 'g1' | 'g2' | 'score'> & { need?: number }) => {
      const g = this.gains(s, f.start, f.end, f.repl, f.word);
      if (g) out.push(Object.assign(f, { g1: g[0], g2: g[1], score: 0 }));
    };

    // substitutions at characters standing alone
    for (let i = a; i < b; i++) {
      if (!single[i - a] || blocked[i]) continue;
      const orig = s[i];
      // 的, the commonest character, is miswritten for 地/得 (the usage rules), hardly for a content character
      if (orig === '的') continue;
      const conf = this.speller.confSet(orig),
        lookup = this.confLookup;
      lookup.load(conf, p.maxCharCost);
      const glyphs = this.glyphCodes(orig);
      // the candidates taken at this place (stamped marks, not a new Map per place)
      const seenStamp = this.seen.next(),
        seen = this.seen.mark;
      for (let L = 4; L >= 2; L--) {
        for (let st = Math.max(a, i - L + 1); st <= Math.min(i, b - L); st++) {
          if (!free(st, st + L)) continue;
          // a surname with one or two characters after it may be a name (萧天澜, 郭程): more is needed
          let named = false;
          for (let k = st - a; k < st + L - a; k++) if (name[k]) named = true;
          // the completions, as units: the speller's first, then the second LM's (no strings made in this hot loop)
          const v1 = findPattern(this.speller.patterns, s, st, i, L),
            v2 = findPattern(this.patterns2, s, st, i, L);
          if (v1 < 0 && v2 < 0) continue;
          const written = s.slice(st, st + L);
          if (this.isWord(written)) continue;
          const vals1 = this.speller.patterns.values,
            vals2 = this.patterns2.values;
          const n1 = v1 < 0 ? 0 : vals1.lengthAt(v1),
            n = n1 + (v2 < 0 ? 0 : vals2.lengthAt(v2));
          for (let t = 0; t < n; t++) {
            const code = t < n1 ? vals1.codeAt(v1, t) : vals2.codeAt(v2, t - n1);
            if (seen[code] === seenStamp) continue;
            const k = lookup.get(code);
            // three characters of a word of four in place make any fourth a candidate (扣人心旋, 雨后春荀)
            let relation: Relation | 'other' | undefined =
              k >= 0 && conf.costs[k] <= p.maxCharCost ? RELATIONS[conf.rels[k]] : undefined;
            if (!relation && glyphs.has(code)) relation = 'shape';
            let need: number | undefined;
            if (!relation && L === 4 && !NUMERALS.includes(orig)) {
              const c = String.fromCharCode(code);
              const word = written.slice(0, i - st) + c + written.slice(i - st + 1);
              // only in an idiom: between characters that rhyme (雨后春荀) at the kind's need; any other character
              // as an idiom held but for one (below), where no lexicon has the written four: other pairs are
              // mostly set phrases varied on purpose (一声炸响, 所过之处)
              if (this.lm.wordCost(c) <= p.maxCharCost && this.dict.pos.get(word) === 'i') {
                if (this.py.rhymes(orig, c)) relation = 'other';
                else if (!this.lm.has(written) && !this.lm2?.has(written) && this.heldIdiom(written, i - st) === word) {
                  relation = 'other';
                  need = p.idiomHeldNeed;
                }
              }
            }
            if (!relation) continue;
            const c = String.fromCharCode(code);
            const word = written.slice(0, i - st) + c + written.slice(i - st + 1);
            if (this.isName(word)) continue;
            seen[code] = seenStamp;
            push({ start: i, end: i + 1, repl: c, kind: 'sub', word, written, at: st, relation, named, need });
          }
        }
      }
    }

    // an idiom whose wrong character makes a word with its neighbour (脍炙人心, 默守成规), so that it does not stand
    // alone and the loop above never weighs it: three of the idiom's four characters in place are the evidence,
    // whatever the fourth's relation to the right one; the models must still find the idiom much likelier
    for (let st = a; st + 4 <= b; st++) {
      if (!free(st, st + 4)) continue;
      const written = s.slice(st, st + 4);
      if (this.isWord(written)) continue;
      for (let i = st; i < st + 4; i++) {
        if (single[i - a] || NUMERALS.includes(s[i])) continue;
        const v = findPattern(this.speller.patterns, s, st, i, 4);
        if (v < 0) continue;
        const vals = this.speller.patterns.values;
        for (let t = 0; t < vals.lengthAt(v); t++) {
          const c = String.fromCharCode(vals.codeAt(v, t));
          const word = written.slice(0, i - st) + c + written.slice(i - st + 1);
          if (this.dict.pos.get(word) !== 'i' || NUMERALS.includes(c)) continue;
          // both forms a phrase of the idiom's kind (一声炸响, 所过之处): only where the written one is in no lexicon
          if (this.lm.has(written) || this.lm2?.has(written) || this.heldIdiom(written, i - st) !== word) continue;
          push({
            start: i,
            end: i + 1,
            repl: c,
            kind: 'sub',
            word,
            written,
            at: st,
            relation: 'other',
            named: false,
            need: p.idiomHeldNeed,
          });
        }
      }
    }

    // a character missing from a word of four: the three written ones make no word
    for (let st = a; st + 3 <= b; st++) {
      if (!free(st, st + 3)) continue;
      const w = this.byMissing.get(key3(s, -1, st, st + 3));
      if (!w) continue;
      const written = s.slice(st, st + 3);
      if (this.isWord(written) || s.startsWith(w, st) || (st > 0 && s.startsWith(w, st - 1))) continue;
      // a word that loses its first character, or a function character, leaves a phrase that reads well
      // (工作中 for 在工作中, 绝不会 for 绝对不会): only idioms and set phrases (供不应求)
      const tag = this.dict.pos.get(w);
      let k = 0;
      while (k < 3 && w[k] === written[k]) k++;
      // and so does one without its measure word (上世纪 for 上个世纪, 三天时间 for 三天的时间)
      const light = FUNCTION_CHARS.includes(w[k]) || MEASURES.includes(w[k]);
      if ((k === 0 && tag !== 'i') || (light && tag !== 'i' && tag !== 'l')) continue;
      // a neighbour one substitution from the word makes it a misspelling, not an omission
      if ((st > a && oneOff(s.slice(st - 1, st + 3), w)) || (st + 3 < b && oneOff(s.slice(st, st + 4), w))) continue;
      if ((st > a && this.isWord(s.slice(st - 1, st + 3))) || (st + 4 <= b && this.isWord(s.slice(st, st + 4))))
        continue;
      push({ start: st, end: st + 3, repl: w, kind: 'ins', word: w, written, at: st });
    }

    // a character missing from a set phrase of five or six (几十年如日) or a common word of three (跨式发展): the
    // written ones make no word; of a word of three, both stand alone in the segmentation
    for (let st = a; st + 2 <= b; st++) {
      for (const n of MISSING_OTHER) {
        if (st + n > b || !free(st, st + n)) continue;
        // (looked up in place: a string is made only for a span the index holds)
        const v = this.byMissingOther.findStrRange(s, st, st + n);
        const w = v < 0 ? '' : this.byMissingOther.values.at(v);
        if (!w) continue;
        const written = s.slice(st, st + n);
        if (this.isWord(written)) continue;
        if (n === 2 && !(single[st - a] && single[st + 1 - a])) continue;
        let k = 0;
        while (k < n && w[k] === written[k]) k++;
        // (a numeral of a set phrase is part of it: 如一日; of a word of three, the writer's fact)
        if (FUNCTION_CHARS.includes(w[k]) || MEASURES.includes(w[k]) || (n === 2 && NUMERALS.includes(w[k]))) continue;
        // the whole word is there already, one character further on or back
        if (s.startsWith(w, st) || (st > 0 && s.startsWith(w, st - 1))) continue;
        push({ start: st, end: st + n, repl: w, kind: 'ins', word: w, written, at: st });
      }
    }

    // a word of two that lost its second character before a mark or a particle (便于安装和维。, 互利共的): the first
    // stands alone there, though it is seldom a word alone; the likeliest completion, clearly ahead of the others
    for (let i = a + 1; i < b; i++) {
      const c = s[i];
      if (!single[i - a] || blocked[i] || name[i - a] || !(i + 1 === b || CLAUSE_PARTICLES.includes(s[i + 1])))
        continue;
      if (FUNCTION_CHARS.includes(c) || NUMERALS.includes(c) || MEASURES.includes(c) || CLAUSE_PARTICLES.includes(c))
        continue;
      const key = c + c;
      const v1 = findPattern(this.speller.patterns, key, 0, 1, 2),
        v2 = findPattern(this.patterns2, key, 0, 1, 2);
      if (v1 < 0 && v2 < 0) continue;
      const n1 = v1 < 0 ? 0 : this.speller.patterns.values.lengthAt(v1),
        n = n1 + (v2 < 0 ? 0 : this.patterns2.values.lengthAt(v2));
      const found: NonWordFinding[] = [];
      for (let t = 0; t < n; t++) {
        const code = t < n1 ? this.speller.patterns.values.codeAt(v1, t) : this.patterns2.values.codeAt(v2, t - n1);
        const word = c + String.fromCharCode(code);
        if (!isHan(code) || NUMERALS.includes(word[1]) || this.isName(word)) continue;
        const g = this.gains(s, i, i + 1, word, word);
        if (g)
          found.push({
            start: i,
            end: i + 1,
            repl: word,
            kind: 'ins',
            word,
            written: c,
            at: i,
            g1: g[0],
            g2: g[1],
            score: 0,
          });
      }
      const by = (f: NonWordFinding) => (f.g1 + 2 * f.g2) / 3;
      found.sort((x, y) => by(y) - by(x));
      if (found.length && (found.length === 1 || by(found[0]) - by(found[1]) >= LONE_END_LEAD))
        out.push(Object.assign(found[0], { need: LONE_END_NEED }));
    }

    // a doubled character or word too many (称称快, 已经已经), not a reduplication (看看, 一股股, 散散步, 研究研究)
    for (let i = a; i < b; i++) {
      for (let L = 1; L <= 4 && i + 2 * L <= b; L++) {
        const w = s.slice(i, i + L);
        if (w !== s.slice(i + L, i + 2 * L) || !free(i, i + 2 * L) || name[i - a]) continue;
        const need = L === 1 ? this.doubledChar(s, i, a, b) : this.doubledWord(w);
        if (need === null) continue;
        const made =
          L > 1
            ? undefined
            : i > a && this.isWord(s[i - 1] + w)
              ? s[i - 1] + w
              : i + 2 < b && this.isWord(w + s[i + 2])
                ? w + s[i + 2]
                : undefined;
        push({ start: i, end: i + 2 * L, repl: w, kind: 'del', word: w, written: w + w, at: i, need, made });
      }
    }

    // two swapped neighbours inside an idiom (一如见故 → 一见如故): the pair itself makes no word either way
    for (let st = a; st + 4 <= b; st++) {
      if (!free(st, st + 4)) continue;
      const written = s.slice(st, st + 4);
      if (this.isWord(written) || this.lm2?.has(written)) continue;
      for (let i = st; i + 1 < st + 4; i++) {
        if (s[i] === s[i + 1]) continue;
        const word = written.slice(0, i - st) + s[i + 1] + s[i] + written.slice(i - st + 2);
        if (this.dict.pos.get(word) !== 'i') continue;
        push({ start: i, end: i + 2, repl: s[i + 1] + s[i], kind: 'swap', word, written, at: st });
      }
    }

    // two swapped neighbours making a word where they make none
    for (let i = a; i + 1 < b; i++) {
      const x = s[i],
        y = s[i + 1];
      if (x === y || !free(i, i + 2)) continue;
      const sw = y + x;
      if (!this.lm.has(sw) || this.isWord(x + y) || variantPair(x, y)) continue;
      // both characters standing alone is the plainer case (影/背 for 背影); one inside a word needs more
      const alone = single[i - a] === 1 && single[i + 1 - a] === 1;
      push({
        start: i,
        end: i + 2,
        repl: sw,
        kind: 'swap',
        word: sw,
        written: x + y,
        at: i,
        need: alone ? p.need.swap - 1.5 : undefined,
      });
    }
  }
}

/** the window s[lo, hi) scored with s[start, end) replaced by repl (one unit in place: no string made) */
function edited(m: LanguageModel, s: string, lo: number, hi: number, start: number, end: number, repl: string) {
  return end - start === 1 && repl.length === 1
    ? m.scoreSub(s, lo, hi, start, repl.charCodeAt(0))
    : m.score(s.slice(lo, start) + repl + s.slice(end, hi));
}

/** the lengths of the written spans that may miss a character of a set phrase or a common word of three */
const MISSING_OTHER = [2, 4, 5];

/** numeric key of three characters: w[from, to) without its character k (k < 0: the span is the three) */
function key3(w: string, k: number, from = 0, to = w.length): number {
  let key = 0;
  for (let t = from; t < to; t++) if (t !== from + k) key = key * 65536 + w.charCodeAt(t);
  return key;
}

function oneOff(w: string, word: string): boolean {
  if (w.length !== word.length) return false;
  let d = 0;
  for (let k = 0; k < w.length; k++) if (w[k] !== word[k]) d++;
  return d === 1;
}

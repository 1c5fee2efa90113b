/**
 * Spelling families 1 同音 / 2 谐音 / 5 形近 and the special confusion sets of family 0.
 * detect -> candidates -> log-linear score with margin:
 *   gain = LMcost(window) - LMcost(window with candidate) - channelCost(relation)
 * A candidate is considered at a position only if it completes a lexicon word with its neighbours
 * (or belongs to a small special confusion set), which keeps the search cheap and precise.
 */
import type { LanguageModel } from './lm';
import type { PinyinTable } from './pinyin';
import type { ShapeTable } from './shape';
import { fuzzyVariants } from './pinyin';
import { rerankScore, type RerankModel } from './rerank';
import { FNV_START, FrozenStrings, HashFilter, fnvStep, mix32, type ImageReader, type ImageWriter } from './image';

export interface SpellParams {
  window: number;
  threshold: number;
  /** extra margin required for candidates of the special sets (的/地/得 ...) */
  specialThreshold: number;
  sameToneCost: number;
  toneCost: number;
  fuzzyCost: number;
  shapeCost: number;
  fuzzy: boolean;
  shape: boolean;
  maxPattern: number;
  /** maximum unigram cost of a candidate character */
  maxCharCost: number;
  /** extra cost when the original character is part of a multi-character lexicon word in the best segmentation */
  inWordCost: number;
  editsPerChars: number;
  /** extra cost when the original character belongs to a known word (jieba dictionary) outside the LM lexicon */
  knownWordCost: number;
  /** also try confusable characters that complete no word (same sound and tone, frequent), at freeThreshold */
  freeCands: boolean;
  /**
   * also characters built around the same component in the same place (快/决/块, 竟/意), as shape neighbours,
   * those of unigram cost up to this (0: none; the rarer ones cost mode 3 speed and SIGHAN precision)
   */
  componentMaxCost: number;
  freeMaxCost: number;
  freeThreshold: number;
  /** leave likely personal names alone */
  names: boolean;
  /** required gain lead of the best candidate over the runner-up at the same position */
  margin: number;
  /** the reranker (see rerankFeatures, rerank.ts); when set, it decides instead of threshold/margin/costs */
  model?: RerankModel;
  /** first-stage model over the first LM's features only: candidates under prefilterThreshold are dropped unscored */
  prefilter?: RerankModel;
  prefilterThreshold: number;
  /** minimum reranker score (log-odds) of an accepted candidate */
  modelThreshold: number;
  /** required score lead over the runner-up at the same position */
  modelMargin: number;
  /** accept (at the model threshold) when both LMs' ±4 gains reach these, whatever the model says */
  agree: [number, number];
  /**
   * a first pass whose findings are all kept (mode 4 builds on mode 3); this pass then runs over the
   * text corrected by it and adds findings only where the first pass found nothing
   */
  base?: SpellParams;
  /**
   * whole-word sound confusions (起夜文化 → 企业文化, 兵法症 → 并发症): a lexicon word of 2-3 characters
   * replaced by another that reads the same and differs in at least two characters, accepted when both
   * LMs gain at least wordGain over ±window characters and the candidate leads the others by wordLead
   */
  words: boolean;
  wordGain: number;
  wordLead: number;
}

export const MODE3: SpellParams = {
  window: 4,
  threshold: 6,
  specialThreshold: 6,
  sameToneCost: 0,
  toneCost: 1.5,
  fuzzyCost: 5,
  shapeCost: 3,
  fuzzy: true,
  shape: true,
  maxPattern: 4,
  maxCharCost: 15,
  inWordCost: 0,
  editsPerChars: 8,
  knownWordCost: 3,
  freeCands: false,
  // characters sharing a component, the commoner ones: on the development sets' even halves F1 +4.2 on ECSpell
  // med, +0.8 law, +0.6/+0.3 LEMON novels/news, +0.5 SIGHAN-14, −0.6 SIGHAN-13, at about 5 % of speed
  componentMaxCost: 11,
  freeMaxCost: 9,
  freeThreshold: 8,
  margin: 2,
  names: true,
  modelThreshold: 0,
  modelMargin: 0,
  prefilterThreshold: -4,
  agree: [12, 8],
  words: true,
  wordGain: 7,
  wordLead: 4,
};

export const MODE4: SpellParams = {
  ...MODE3,
  fuzzy: true,
  fuzzyCost: 3.5,
  maxPattern: 5,
  maxCharCost: 16,
  // the reranker also weighs frequent same-sound characters that complete no word
  freeCands: true,
  // and the rarer characters sharing a component too
  componentMaxCost: 16,
  modelThreshold: 0.25,
  base: MODE3,
};

export type Relation = 'same-tone' | 'same' | 'fuzzy' | 'shape' | 'special';

/**
 * The candidates of one place, each once, in the order first found (a Map's order: setting one again changes its
 * relation, not its place), reused from place to place instead of a new Map at each.
 */
class Candidates {
  readonly codes: number[] = [];
  readonly rels: Relation[] = [];
  private at = new Int32Array(65536);
  private marks = new CodeMarks();
  private stamp = 0;
  reset(): this {
    this.codes.length = 0;
    this.rels.length = 0;
    this.stamp = this.marks.next();
    return this;
  }
  has(c: number): boolean {
    return this.marks.mark[c] === this.stamp;
  }
  set(c: number, rel: Relation) {
    if (this.has(c)) {
      this.rels[this.at[c]] = rel;
      return;
    }
    this.marks.mark[c] = this.stamp;
    this.at[c] = this.codes.length;
    this.codes.push(c);
    this.rels.push(rel);
  }
  get size(): number {
    return this.codes.length;
  }
}
export const RELATIONS: readonly Relation[] = ['same-tone', 'same', 'fuzzy', 'shape', 'special'];

/** a character's confusion set (Speller.confSet): code, relation (index in RELATIONS) and unigram cost per entry */
export interface ConfSet {
  codes: Uint16Array;
  rels: Uint8Array;
  costs: Float64Array;
  /** entries from here on are component neighbours, taken up to a cost bound */
  base: number;
}

/**
 * Marks on UTF-16 units for hot loops: each next() begins a new set, and a unit counts as marked when its mark holds
 * the current stamp, so nothing is cleared between sets.
 */
export class CodeMarks {
  readonly mark = new Int32Array(65536);
  private stamp = 0;
  next(): number {
    if (this.stamp >= 0x3fffffff) {
      this.mark.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }
}

/**
 * Membership in one character's confusion set for a hot loop: load() it, then get(code) gives the entry's index or
 * -1.
 */
export class ConfLookup {
  private marks = new CodeMarks();
  private index = new Int32Array(65536);
  private stamp = 0;
  load(set: ConfSet, componentMaxCost: number): void {
    this.stamp = this.marks.next();
    for (let k = 0; k < set.codes.length; k++) {
      if (!Speller.inUse(set, k, componentMaxCost)) continue;
      this.marks.mark[set.codes[k]] = this.stamp;
      this.index[set.codes[k]] = k;
    }
  }
  get(code: number): number {
    return this.marks.mark[code] === this.stamp ? this.index[code] : -1;
  }
}

export interface SpellFinding {
  pos: number;
  orig: string;
  cand: string;
  gain: number;
  relation: Relation;
  /** candidate that completes no lexicon word */
  free?: boolean;
  /** reranker features */
  x?: number[];
  /** a whole-word finding: orig and cand are words of the same length (2-3 characters) */
  word?: boolean;
}

export const DDD = ['的', '地', '得'];

/** names of the reranker features, in order (the weights in lexicon/rerank.json follow them) */
export const FEATURE_NAMES = [
  'bias',
  'g4',
  'g2',
  'same-tone',
  'same',
  'fuzzy',
  'shape',
  'special',
  'free',
  'candL>=3',
  'candL>=4',
  'origL>=2',
  'origL>=3',
  'uniOrig',
  'uniCand',
  'inWord',
  'known',
  'logCands',
  'edge',
  'lead',
  'ddd',
  'g4*shape',
  'g4*fuzzy',
  'g4*special',
  'g4*free',
  'min(g4,g2)',
  'relu(g4-5)',
  'relu(g4-10)',
  'lm2:g4',
  'lm2:g2',
  'min(g4,lm2:g4)',
  'lm2:g4<0',
];

/**
 * Evidence about one candidate: g4/g2 = the first LM's gain (cost of the window with the original
 * minus with the candidate) over ±4 / ±2 characters, h4/h2 the same for the second LM; candL/origL the
 * longest lexicon word the candidate/original completes; uO/uC unigram costs; lead = g4 minus the best
 * other candidate's g4 at the position.
 */
export interface RerankInput {
  g4: number;
  g2: number;
  h4: number;
  h2: number;
  rel: Relation;
  free: boolean;
  candL: number;
  origL: number;
  uO: number;
  uC: number;
  inWord: boolean;
  known: boolean;
  nCands: number;
  edge: boolean;
  lead: number;
  ddd: boolean;
}

/** the reranker's features of a candidate, written into out (a new array when none is given) */
export function rerankFeatures(f: RerankInput, out?: number[]): number[] {
  const x = out ?? new Array<number>(FEATURE_NAMES.length).fill(0);
  x[0] = 1;
  x[3] = f.rel === 'same-tone' ? 1 : 0;
  x[4] = f.rel === 'same' ? 1 : 0;
  x[5] = f.rel === 'fuzzy' ? 1 : 0;
  x[6] = f.rel === 'shape' ? 1 : 0;
  x[7] = f.rel === 'special' ? 1 : 0;
  x[8] = f.free ? 1 : 0;
  x[9] = f.candL >= 3 ? 1 : 0;
  x[10] = f.candL >= 4 ? 1 : 0;
  x[11] = f.origL >= 2 ? 1 : 0;
  x[12] = f.origL >= 3 ? 1 : 0;
  x[13] = f.uO / 10;
  x[14] = f.uC / 10;
  x[15] = f.inWord ? 1 : 0;
  x[16] = f.known ? 1 : 0;
  x[17] = Math.log(f.nCands);
  x[18] = f.edge ? 1 : 0;
  x[19] = f.lead / 10;
  x[20] = f.ddd ? 1 : 0;
  setGains(x, f.g4, f.g2, f.h4, f.h2);
  return x;
}

/** (re)sets the features that depend on the LM gains (g: first LM, h: second LM) */
export function setGains(x: number[], g4: number, g2: number, h4: number, h2: number) {
  x[1] = g4 / 10;
  x[2] = g2 / 10;
  x[21] = (x[6] * g4) / 10;
  x[22] = (x[5] * g4) / 10;
  x[23] = (x[7] * g4) / 10;
  x[24] = (x[8] * g4) / 10;
  x[25] = Math.min(g4, g2) / 10;
  x[26] = Math.max(0, g4 - 5) / 10;
  x[27] = Math.max(0, g4 - 10) / 10;
  x[28] = h4 / 10;
  x[29] = h2 / 10;
  x[30] = Math.min(g4, h4) / 10;
  x[31] = h4 < 0 ? 1 : 0;
}

/** the first stage passes the candidate (always, without a first stage) */
const passes = (p: SpellParams, x: number[]) => !p.prefilter || rerankScore(p.prefilter, x) >= p.prefilterThreshold;

/**
 * How far a candidate's ±2-character gain may exceed its ±4 one: where the first stage passes a candidate, the most
 * seen is 11.6 over 9,000 sentences of the six development sets in both modes (1.1 million candidates), so 15 keeps a
 * margin. The speller scores the ±2 window only for candidates the first stage would pass with that much gain: three
 * in four are spared (a quarter of its lattice calls), and no finding changed on 15,700 sentences in either mode.
 */
export const G2_SLACK = 15;

/** the first stage's score only grows with the ±2 gain, so the gain G2_SLACK allows bounds it (see G2_SLACK) */
function g2Bounded(p: SpellParams): boolean {
  const m = p.prefilter;
  if (!m) return false;
  const g2 = m.weights[FEATURE_NAMES.indexOf('g2')] ?? 0,
    low = m.weights[FEATURE_NAMES.indexOf('min(g4,g2)')] ?? 0;
  return g2 >= 0 && g2 + low >= 0;
}

/**
 * The reranker's log-odds for a candidate (-Infinity when the first stage drops it), raised to the
 * threshold when both language models show a large gain. Not a candidate that completes no word (mode 4):
 * there the gain comes mostly from losing a rare original character the LMs barely know (氟咴酸, 捷任轫站).
 */
function modelScore(p: SpellParams, x: number[]): number {
  if (!passes(p, x)) return -Infinity;
  const score = rerankScore(p.model!, x);
  if (score >= p.modelThreshold || x[8] === 1 || x[1] * 10 < p.agree[0] || x[28] * 10 < p.agree[1]) return score;
  // raised to the threshold, plus a little that keeps raised candidates ordered by their own score
  return p.modelThreshold + 0.01 / (1 + Math.exp(p.modelThreshold - score));
}

export interface TraceRow {
  pos: number;
  orig: string;
  cand: string;
  relation: Relation;
  x: number[];
  score: number;
}
let spellTrace: ((r: TraceRow) => void) | null = null;
/** training hook (engine/tools/train-rerank.ts): receives every scored candidate */
export function setSpellTrace(fn: ((r: TraceRow) => void) | null) {
  spellTrace = fn;
}

/** common misuse sets checked with the language model at every occurrence (category 0) */
export const SPECIAL_SETS: string[][] = [
  ['在', '再'],
  ['做', '作'],
  ['那', '哪'],
  ['象', '像'],
  ['已', '以'],
  ['即', '既'],
];

/**
 * the sentence around position i asks a question or generalises, where 哪 (which) belongs: it ends in a
 * question mark or holds 吗/呢, or 无论/不管/不论 comes before, or 都/也 shortly after (哪里都)
 */
export function asksWhich(s: string, i: number): boolean {
  let a = i,
    b = i;
  while (a > 0 && !SENTENCE_END.includes(s[a - 1])) a--;
  while (b < s.length && !SENTENCE_END.includes(s[b])) b++;
  const end = s[b];
  if (end === '？' || end === '?') return true;
  const sentence = s.slice(a, b);
  if (/[吗呢]/.test(sentence)) return true;
  if (/无论|不管|不论/.test(s.slice(a, i))) return true;
  return /[都也]/.test(s.slice(i + 1, i + 5));
}
const SENTENCE_END = '。！？!?\n';

/**
 * variant forms that are not misspellings (台湾/旧字形 usage), and the third-person pronouns, whose gender
 * the context seldom settles: never "correct" one into the other
 */
const VARIANTS: string[] = [
  '著着',
  '甚什',
  '妳你',
  '他她它牠祂',
  '週周',
  '裏里',
  '麽么',
  '祇只',
  '纔才',
  '喫吃',
  '綫线',
  '於于',
  '哪那',
  '姊姐',
  '台臺',
  '汙污',
  '傢家',
  '佈布',
  '夥伙',
  '唸念',
  '餵喂',
  '蹟迹',
  '捲卷',
];
export const variantPair = (a: string, b: string) => VARIANTS.some((v) => v.includes(a) && v.includes(b));
/**
 * Word forms of Hong Kong and Taiwan that the mainland's list of variant forms (第一批异形词整理表) ranks below
 * the other: 過份/过分, 喝采/喝彩, 倒楣/倒霉. In simplified text they are errors to mend; in hk text usage.
 */
const REGIONAL = ['份分', '采彩', '楣霉'];
export const regionalPair = (a: string, b: string) => REGIONAL.some((v) => v.includes(a) && v.includes(b));

/**
 * words with two accepted spellings that differ in one character, whose language models prefer one of them:
 * 纪录 and 记录 (现代汉语词典: 记录 … 打破~ … 也作纪录; the development sets' gold never turns one into the other,
 * while the models would "correct" 刷新了历史纪录). variantWordChars gives the differing character's positions in
 * s, which the speller leaves alone.
 */
const VARIANT_WORDS: Array<[string, string]> = [['纪录', '记录']];
export function variantWordChars(s: string): number[] {
  const out: number[] = [];
  for (const [x, y] of VARIANT_WORDS) {
    let k = 0;
    while (x[k] === y[k]) k++;
    for (const w of [x, y]) for (let i = s.indexOf(w); i >= 0; i = s.indexOf(w, i + 1)) out.push(i + k);
  }
  return out;
}

/**
 * patterns.find(patternKey(s, st, i, L)): the key made and looked up as a number or as a string, each at its own
 * call site (a key that is sometimes a number and sometimes a string, as mode 4's longer patterns make it, boxes every
 * number and slows mode 3 after it)
 */
export function findPattern(patterns: FrozenStrings, s: string, st: number, i: number, L: number): number {
  return L > 4 ? patterns.findStr(patternStr(s, st, i, L)) : patterns.findNum(patternNum(s, st, i, L));
}

/** key of the word s[st, st+L) with position i masked: a number for up to 4 characters, else a string */
export function patternKey(s: string, st: number, i: number, L: number): number | string {
  return L > 4 ? patternStr(s, st, i, L) : patternNum(s, st, i, L);
}

function patternStr(s: string, st: number, i: number, L: number): string {
  return s.slice(st, i) + '\0' + s.slice(i + 1, st + L);
}

function patternNum(s: string, st: number, i: number, L: number): number {
  let k = 0;
  for (let t = st; t < st + L; t++) if (t !== i) k = k * 65536 + s.charCodeAt(t);
  return (k * 5 + (i - st)) * 5 + L;
}

/**
 * common surnames: one standing alone in the segmentation with one or two single characters after it starts a
 * name (苏/怜/卿, 宫/司/夜); 任 and 申 are left out, they stand for 认/人 and 请 in misspellings
 */
export const SURNAMES = new Set(
  (
    '王李张刘陈杨黄赵吴周徐孙朱胡郭何林罗郑梁谢宋唐许韩冯邓曹彭曾肖董袁潘蒋蔡杜叶程苏魏吕丁沈姚卢姜崔钟谭陆汪范廖贾夏韦邹孟熊秦邱尹薛闫段雷侯史陶黎贺顾毛郝龚邵钱' +
    '严覃戴莫孔汤柳萧欧易乔赖庞樊殷施骆倪岳柯秋凌慕楚宁苗裴祝方余傅纪石白江金龙万文凤宫牧商田康鲁季司温洪齐左'
  ).split(''),
);
export const COMPOUND_SURNAMES = new Set([
  '慕容',
  '欧阳',
  '司马',
  '上官',
  '诸葛',
  '东方',
  '令狐',
  '皇甫',
  '公孙',
  '尉迟',
  '长孙',
  '宇文',
  '司徒',
  '端木',
  '独孤',
  '南宫',
  '夏侯',
  '轩辕',
  '百里',
  '西门',
]);
/** characters that end a name rather than continue it */
export const NAME_STOP = new Set('的了是在和与说也都就又把被将从对向给让'.split(''));

/** the ±2-character gain a whole-word candidate needs before it is weighed over the full window */
const WORD_NEAR_GAIN = 2;

const isHan = (c: number) => (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf);

/** the Han runs of s (two characters or more), as [a, b) */
export function hanRuns(s: string, each: (a: number, b: number) => void) {
  const n = s.length;
  let i = 0;
  while (i < n) {
    if (!isHan(s.charCodeAt(i))) {
      i++;
      continue;
    }
    let j = i;
    while (j < n && isHan(s.charCodeAt(j))) j++;
    if (j - i >= 2) each(i, j);
    i = j;
  }
}

/** a dictionary's word counts, as the speller reads them (see knownCover) */
export interface KnownWords extends Iterable<[string, number]> {
  getRange(s: string, from: number, to: number): number | undefined;
}

/** the costliest word of the first LM, beyond its base lexicon, that the speller's patterns hold */
const MAX_EXTRA_COST = 15.5;

export class Speller {
  /** word with one character masked (patternKey) -> characters completing it */
  readonly patterns: FrozenStrings;
  private special = new Map<string, string[]>();
  /** toneless syllables ("gan mao") -> lexicon words of 2-3 characters that read so, separated by spaces */
  private bySound: FrozenStrings;

  constructor(
    private lm: LanguageModel,
    private py: PinyinTable,
    private shape: ShapeTable | null,
    extraWords: Iterable<string> = [],
    private knownWords: KnownWords | null = null,
    /** a second, independently trained language model (libime's), for the reranker */
    private lm2: LanguageModel | null = null,
    /** the indexes as saved in an engine image (see save) instead of built from the models */
    img: { r: ImageReader; p: string } | null = null,
  ) {
    for (const set of SPECIAL_SETS)
      for (const c of set)
        this.special.set(
          c,
          set.filter((x) => x !== c),
        );
    if (img) {
      this.patterns = FrozenStrings.read(img.r, `${img.p}.patterns`);
      this.bySound = FrozenStrings.read(img.r, `${img.p}.bySound`);
      this.knownFilter = HashFilter.read(img.r, `${img.p}.known`);
      return;
    }
    // the filter of the words knownCover looks for: dictionary words of 2 to 5 characters, seen three times or more,
    // that the LM does not know
    const known: string[] = [];
    for (const [w, n] of knownWords ?? []) if (w.length >= 2 && w.length <= 5 && n >= 3 && !lm.inBase(w)) known.push(w);
    this.knownFilter = HashFilter.sized(known.length);
    for (const w of known) {
      let h = FNV_START;
      for (let k = 0; k < w.length; k++) h = fnvStep(h, w.charCodeAt(k));
      this.knownFilter.add(mix32(h));
    }
    const patterns = new Map<number | string, string>();
    const bySound = new Map<number | string, string>();
    const add = (w: string) => {
      for (let k = 0; k < w.length; k++) {
        const key = patternKey(w, 0, k, w.length);
        const prev = patterns.get(key);
        if (prev === undefined) patterns.set(key, w[k]);
        else if (!prev.includes(w[k])) patterns.set(key, prev + w[k]);
      }
    };
    for (const [w, id] of lm.entries()) {
      if (w.length < 2 || w.length > 5) continue;
      if (lm.uni(id) > (lm.inBase(w) ? 17 : MAX_EXTRA_COST)) continue;
      let ok = true;
      for (let i = 0; i < w.length; i++)
        if (!isHan(w.charCodeAt(i))) {
          ok = false;
          break;
        }
      if (!ok) continue;
      add(w);
      // the sound index of 2-3 character words, for whole-word confusions
      if (w.length <= 3) {
        for (const k of this.soundKeys(w, 16)) {
          const ws = bySound.get(k);
          bySound.set(k, ws ? ws + ' ' + w : w);
        }
      }
    }
    for (const w of extraWords) if (w.length >= 2 && w.length <= 5) add(w);
    this.patterns = FrozenStrings.build(patterns);
    this.bySound = FrozenStrings.build(bySound);
  }

  /** whether patterns holds the first LM's word w (the speller's index leaves its rarest words out) */
  indexes(w: string): boolean {
    return this.lm.has(w) && this.lm.wordCost(w) <= (this.lm.inBase(w) ? 17 : MAX_EXTRA_COST);
  }

  save(w: ImageWriter, p: string) {
    this.patterns.save(w, `${p}.patterns`);
    this.bySound.save(w, `${p}.bySound`);
    this.knownFilter.save(w, `${p}.known`);
  }

  /**
   * the toneless syllable sequences of w ("gan mao"), one per combination of the characters' first `readings`
   * readings (at most max); [] when a character has no reading
   */
  soundKeys(w: string, max = 64, readings = 8): string[] {
    let ks = [''];
    for (let i = 0; i < w.length; i++) {
      const all = this.py.readings.get(w[i]);
      if (!all) return [];
      const rs = all.length > readings ? all.slice(0, readings) : all;
      const syl = new Set<string>();
      for (const r of rs) syl.add(r.slice(0, -1));
      const next: string[] = [];
      for (const k of ks) for (const x of syl) next.push(i ? k + ' ' + x : x);
      ks = next.length > max ? next.slice(0, max) : next;
    }
    return ks;
  }

  /**
   * character code -> its confusion set in parallel arrays (a few bytes an entry: these are built for every character
   * checked and kept, and as Maps of pairs they held ≈40 MB of every checker worker after a few thousand sentences)
   */
  private confSets = new Map<number, ConfSet>();
  /** characters built around the same component (components.txt), weighed as shape neighbours */
  components: ShapeTable | null = null;

  /**
   * The confusion set of a (a single UTF-16 unit): confusion(a)'s one-unit characters in its order, then the
   * characters sharing a component with a (components.txt, as 'shape'), from `base` on; a bound on their unigram
   * cost is the caller's (Speller.inUse).
   */
  confSet(a: string): ConfSet {
    const key = a.charCodeAt(0);
    let set = this.confSets.get(key);
    if (set) return set;
    const codes: number[] = [],
      rels: number[] = [],
      costs: number[] = [];
    const seen = new Set<number>();
    for (const [c, [rel, cost]] of this.confusion(a)) {
      if (c.length !== 1) continue;
      seen.add(c.charCodeAt(0));
      codes.push(c.charCodeAt(0));
      rels.push(RELATIONS.indexOf(rel));
      costs.push(cost);
    }
    const base = codes.length;
    for (const c of this.components?.neighbours(a) ?? '') {
      const code = c.charCodeAt(0);
      if (seen.has(code) || c === a || variantPair(a, c)) continue;
      const cost = this.lm.wordCost(c);
      if (cost === Infinity) continue;
      seen.add(code);
      codes.push(code);
      rels.push(RELATIONS.indexOf('shape'));
      costs.push(cost);
    }
    set = { codes: Uint16Array.from(codes), rels: Uint8Array.from(rels), costs: Float64Array.from(costs), base };
    this.confSets.set(key, set);
    return set;
  }

  /** entries of a confusion set in use: those before `base`, then the component neighbours up to maxCost (0: none) */
  static inUse(set: ConfSet, k: number, componentMaxCost: number): boolean {
    return k < set.base || (componentMaxCost > 0 && set.costs[k] <= componentMaxCost);
  }

  /** all characters confusable with a: relation and unigram cost */
  confusion(a: string): Map<string, [Relation, number]> {
    const m = new Map<string, [Relation, number]>();
    const rs = this.py.readings.get(a) ?? [];
    const add = (c: string, rel: Relation) => {
      if (c === a || m.has(c) || variantPair(a, c)) return;
      const cost = this.lm.wordCost(c);
      if (cost === Infinity) return;
      m.set(c, [rel, cost]);
    };
    for (const r of rs) {
      const syl = r.slice(0, -1);
      for (const c of this.py.bySyllable.get(syl) ?? []) {
        if ((this.py.readings.get(c) ?? []).includes(r)) add(c, 'same-tone');
      }
    }
    for (const r of rs) for (const c of this.py.bySyllable.get(r.slice(0, -1)) ?? []) add(c, 'same');
    for (const c of this.shape?.neighbours(a) ?? '') add(c, 'shape');
    for (const r of rs)
      for (const v of fuzzyVariants(r.slice(0, -1))) for (const c of this.py.bySyllable.get(v) ?? []) add(c, 'fuzzy');
    return m;
  }

  relation(a: string, b: string): Relation | null {
    const r = this.py.relation(a, b);
    if (r === 3) return 'same-tone';
    if (r === 2) return 'same';
    if (this.shape?.similar(a, b)) return 'shape';
    if (r === 1) return 'fuzzy';
    // characters built around the same component in the same place (骇/赅) are shape neighbours too
    if (this.components?.similar(a, b)) return 'shape';
    return null;
  }

  channelCost(rel: Relation, p: SpellParams): number {
    switch (rel) {
      case 'same-tone':
        return p.sameToneCost;
      case 'same':
        return p.toneCost;
      case 'fuzzy':
        return p.fuzzyCost;
      case 'shape':
        return p.shapeCost;
      case 'special':
        return 0;
    }
  }

  /**
   * Find spelling errors in s. `blocked[i] = 1` marks UTF-16 positions that must not change.
   */
  check(s: string, blocked: Uint8Array, p: SpellParams): SpellFinding[] {
    if (p.base)
      return this.onTopOf(this.check(s, blocked, p.base), s, blocked, (t, m) =>
        this.check(t, m, { ...p, base: undefined }),
      );
    // whole words first; the characters are then checked in the text they corrected
    const words = p.words && this.lm2 ? this.checkWords(s, blocked, p) : [];
    return this.onTopOf(words, s, blocked, (t, m) => this.checkChars(t, m, p));
  }

  /** the findings of first, plus those of next over the text first corrected (its spans held) */
  private onTopOf(
    first: SpellFinding[],
    s: string,
    blocked: Uint8Array,
    next: (s: string, blocked: Uint8Array) => SpellFinding[],
  ): SpellFinding[] {
    if (first.length === 0) return next(s, blocked);
    const fixed = s.split('');
    const held = blocked.slice();
    for (const f of first)
      for (let q = 0; q < f.cand.length; q++) {
        fixed[f.pos + q] = f.cand[q];
        held[f.pos + q] = 1;
      }
    return [...first, ...next(fixed.join(''), held)].sort((x, y) => x.pos - y.pos);
  }

  private runs(s: string, each: (a: number, b: number) => void) {
    hanRuns(s, each);
  }

  /**
   * The run's best segmentation: inWord marks characters inside multi-character words (less suspicious);
   * name marks likely personal names, a surname standing alone followed by one or two single characters
   * (王/婷, 苏/怜/卿), which are left alone
   */
  private analyse(s: string, a: number, b: number, p: SpellParams) {
    // the word pass and the character pass of an unchanged run share it
    const run = s.slice(a, b);
    const last = this.lastAnalysis;
    if (last && last.run === run && last.names === p.names) return last.info;
    const info = this.analyseRun(s, a, b, p);
    this.lastAnalysis = { run, names: p.names, info };
    return info;
  }
  private lastAnalysis: { run: string; names: boolean; info: ReturnType<Speller['analyseRun']> } | null = null;

  private analyseRun(s: string, a: number, b: number, p: SpellParams) {
    const inWord = new Uint8Array(b - a);
    const name = new Uint8Array(b - a);
    const seg = this.lm.segment(s.slice(a, b));
    let k = 0;
    for (let x = 0; x < seg.length; x++) {
      const w = seg[x];
      if (w.length > 1) for (let t = 0; t < w.length; t++) inWord[k + t] = 1;
      if (p.names && (SURNAMES.has(w) || COMPOUND_SURNAMES.has(w))) {
        const n1 = seg[x + 1];
        const n2 = seg[x + 2];
        if (n1 && n1.length === 1 && isHan(n1.charCodeAt(0)) && !NAME_STOP.has(n1)) {
          let e = k + w.length + 1;
          if (n2 && n2.length === 1 && isHan(n2.charCodeAt(0)) && !NAME_STOP.has(n2)) e++;
          name.fill(1, k, Math.min(e, b - a));
        }
      }
      k += w.length;
    }
    return { inWord, name };
  }

  /**
   * Whole-word sound confusions: a lexicon word of 2-3 characters for which another reads the same (toneless)
   * and differs in at least two characters (one-character slips are the character pass's; alike syllables
   * such as shen/sheng were tried and cost precision on LEMON novels).
   * Both LMs must prefer the other word by wordGain over ±window characters, and it must lead the other
   * candidates by wordLead. (A span that is no lexicon word is left to the character pass: on the
   * development sets' even halves, 3 % of such candidates were right, and 62 % of those over a lexicon
   * word at this margin.)
   */
  checkWords(s: string, blocked: Uint8Array, p: SpellParams): SpellFinding[] {
    const out: SpellFinding[] = [];
    this.runs(s, (a, b) => this.checkWordsRun(s, a, b, blocked, p, out));
    return out;
  }

  /** lexicon words that sound like span and differ from it in two characters or more */
  wordsAlike(span: string): string[] {
    const memo = this.alike;
    const hit = memo.get(span);
    if (hit) return hit;
    if (memo.size > 50000) memo.clear();
    const L = span.length;
    const out: string[] = [];
    // the span's characters in their main reading (顿时 is not read du shi, like 都是)
    for (const key of this.soundKeys(span, 64, 1)) {
      const words = this.bySound.get(key);
      if (!words) continue;
      for (const w of words.split(' ')) {
        if (w === span || out.includes(w)) continue;
        let diff = 0,
          variant = false;
        for (let k = 0; k < L; k++)
          if (w[k] !== span[k]) {
            diff++;
            if (variantPair(w[k], span[k])) variant = true;
          }
        if (diff >= 2 && !variant) out.push(w);
      }
    }
    memo.set(span, out);
    return out;
  }
  private alike = new Map<string, string[]>();

  private checkWordsRun(s: string, a: number, b: number, blocked: Uint8Array, p: SpellParams, out: SpellFinding[]) {
    const lm = this.lm,
      lm2 = this.lm2!;
    const W = p.window;
    let info: ReturnType<Speller['analyseRun']> | null = null;
    const found: SpellFinding[] = [];
    for (let st = a; st + 2 <= b; st++) {
      for (let L = 2; L <= 3 && st + L <= b; L++) {
        if (blocked[st + L - 1] || blocked[st]) break;
        const span = s.slice(st, st + L);
        if (!lm.has(span)) continue;
        // a reduplicated given name after a surname (林翩翩) is no slip for 偏偏
        if (L === 2 && span[0] === span[1] && st > a && SURNAMES.has(s[st - 1])) continue;
        const cands = this.wordsAlike(span);
        if (cands.length === 0) continue;
        info ??= this.analyse(s, a, b, p);
        const name = info.name;
        let named = false;
        for (let k = st; k < st + L; k++) if (name[k - a]) named = true;
        if (named) continue;
        // a first look over ±2 characters drops the hopeless candidates cheaply
        // (the written windows scored in place, no strings made)
        const nlo = Math.max(a, st - 2),
          nhi = Math.min(b, st + L + 2);
        const l2 = s.slice(nlo, st),
          r2 = s.slice(st + L, nhi);
        const base2 = lm.score(s, nlo, nhi);
        if (!cands.some((w) => base2 - lm.score(l2 + w + r2) >= WORD_NEAR_GAIN)) continue;
        const wlo = Math.max(a, st - W),
          whi = Math.min(b, st + L + W);
        const left = s.slice(wlo, st),
          right = s.slice(st + L, whi);
        const base = lm.score(s, wlo, whi);
        let best = '',
          top = -Infinity,
          top2 = -Infinity;
        for (const w of cands) {
          const g = base - lm.score(left + w + right);
          if (g > top) {
            top2 = top;
            top = g;
            best = w;
          } else if (g > top2) top2 = g;
        }
        if (top < p.wordGain || top - top2 < p.wordLead) continue;
        const h = lm2.score(s, wlo, whi) - lm2.score(left + best + right);
        if (h < p.wordGain) continue;
        // same syllables; same tones too when every changed pair shares a reading
        let sameTone = true;
        for (let k = 0; k < L; k++) if (best[k] !== span[k] && this.py.relation(span[k], best[k]) < 3) sameTone = false;
        const relation: Relation = sameTone ? 'same-tone' : 'same';
        found.push({ pos: st, orig: span, cand: best, gain: Math.min(top, h), relation, word: true });
      }
    }
    // the best first, none overlapping another
    found.sort((x, y) => y.gain - x.gain);
    const taken = new Uint8Array(b - a);
    const maxEdits = Math.max(1, Math.ceil((b - a) / p.editsPerChars));
    let accepted = 0;
    for (const f of found) {
      if (accepted >= maxEdits) break;
      let free = true;
      for (let k = f.pos; k < f.pos + f.cand.length; k++) if (taken[k - a]) free = false;
      if (!free) continue;
      taken.fill(1, f.pos - a, f.pos - a + f.cand.length);
      out.push(f);
      accepted++;
    }
  }

  /** stamped marks of the current position's confusion set, and each one's relation (see checkRun) */
  private confMarks = new CodeMarks();
  private confRel = new Uint8Array(65536);
  /** checkRun's candidates at the current place, and the free ones among them */
  private cands = new Candidates();
  private freeMarks = new CodeMarks();
  /** the features of checkRun's current candidate */
  private features = new Array<number>(FEATURE_NAMES.length).fill(0);
  /** per candidate of the current position: the longest word it completes there (see checkRun) */
  private longestMade = new Uint8Array(65536);
  /** the completions of one pattern (see checkRun) */
  private patMarks = new CodeMarks();
  /**
   * params -> character code -> its confusion set as the candidate loop may take it (cost, fuzzy and shape bounds),
   * and the size of the set in use
   */
  private allowedCache = new WeakMap<
    SpellParams,
    Map<number, { codes: Uint16Array; rels: Uint8Array; size: number }>
  >();
  private allowedConfusions(a: string, conf: ConfSet, p: SpellParams) {
    let byChar = this.allowedCache.get(p);
    if (!byChar) this.allowedCache.set(p, (byChar = new Map()));
    const key = a.charCodeAt(0);
    let m = byChar.get(key);
    if (m) return m;
    const codes: number[] = [],
      rels: number[] = [];
    let size = 0;
    for (let k = 0; k < conf.codes.length; k++) {
      if (!Speller.inUse(conf, k, p.componentMaxCost)) continue;
      size++;
      const rel = RELATIONS[conf.rels[k]];
      if (conf.costs[k] > p.maxCharCost || (rel === 'fuzzy' && !p.fuzzy) || (rel === 'shape' && !p.shape)) continue;
      codes.push(conf.codes[k]);
      rels.push(conf.rels[k]);
    }
    m = { codes: Uint16Array.from(codes), rels: Uint8Array.from(rels), size };
    byChar.set(key, m);
    return m;
  }

  /**
   * Per place of the run [a, b): 1 inside a dictionary word of 2 to 5 characters, seen three times or more, that the
   * LM does not know. Nearly every span is no such word: the filter answers those without the two lookups.
   */
  private knownCover(s: string, a: number, b: number): Uint8Array {
    const cover = new Uint8Array(b - a);
    const words = this.knownWords;
    if (!words) return cover;
    for (let st = a; st < b - 1; st++) {
      let h = fnvStep(FNV_START, s.charCodeAt(st));
      for (let L = 2; L <= 5 && st + L <= b; L++) {
        h = fnvStep(h, s.charCodeAt(st + L - 1));
        // no strings: this runs over every run that has candidates
        if (
          this.knownFilter.has(mix32(h)) &&
          !this.lm.inBaseRange(s, st, st + L) &&
          (words.getRange(s, st, st + L) ?? 0) >= 3
        )
          cover.fill(1, st - a, st + L - a);
      }
    }
    return cover;
  }
  /** the words knownCover looks for, as a filter (built with the speller, saved in the image) */
  private knownFilter: HashFilter;

  /** one-character confusions */
  checkChars(s: string, blocked: Uint8Array, p: SpellParams): SpellFinding[] {
    const out: SpellFinding[] = [];
    this.runs(s, (a, b) => this.checkRun(s, a, b, blocked, p, out));
    return out;
  }

  private checkRun(s: string, a: number, b: number, blocked: Uint8Array, p: SpellParams, out: SpellFinding[]) {
    const lm = this.lm;
    const W = p.window;
    const { inWord, name } = this.analyse(s, a, b, p);
    // characters inside dictionary words the LM does not know (names, terms): less suspicious. Worked out for the
    // whole run at once, when a place with candidates first asks: each word of two to five characters is looked up
    // once, where asking per place looked up every word over the place (three to four times as many).
    let known: Uint8Array | null = null;
    const isKnown = (i: number) => (known ??= this.knownCover(s, a, b))[i - a] === 1;
    const found: SpellFinding[] = [];
    for (let i = a; i < b; i++) {
      if (blocked[i] || name[i - a]) continue;
      const orig = s[i];
      // 的, the commonest character, is misused for 地/得 (the usage rules weigh that), hardly ever
      // miswritten for a content character (龙皇的气息 is not 龙皇帝气息)
      if (orig === '的') continue;
      // candidates by character code; membership through stamped typed arrays (a Map lookup per completion was a
      // tenth of the check's time)
      const cands = this.cands.reset();
      const conf = this.confSet(orig);
      const allowed = this.allowedConfusions(orig, conf, p);
      const stamp = this.confMarks.next();
      const mark = this.confMarks.mark,
        relOf = this.confRel;
      // the confusion set's marks, made when a pattern is first walked by its completions
      let marked = false;
      // (no closures here: this runs at every place)
      // words the character completes give the candidates, and the longest word each candidate and the original
      // complete there (the lengths grow: the last one noted is the longest)
      const longest = this.longestMade;
      const oc = s.charCodeAt(i);
      let origL = 0;
      for (let L = 2; L <= p.maxPattern; L++) {
        const lo = Math.max(a, i - L + 1);
        const hi = Math.min(i, b - L);
        for (let st = lo; st <= hi; st++) {
          const v = findPattern(this.patterns, s, st, i, L);
          if (v < 0) continue;
          const vals = this.patterns.values,
            n = vals.lengthAt(v);
          // many completions: take them in the confusion set's order when it is the smaller of the two (membership
          // by stamping the completions: n writes cost less than a hash lookup per confusion)
          if (n > 24 && allowed.size < n) {
            const ps = this.patMarks.next(),
              pm = this.patMarks.mark;
            for (let t = 0; t < n; t++) pm[vals.codeAt(v, t)] = ps;
            if (pm[oc] === ps) origL = L;
            for (let k = 0; k < allowed.codes.length; k++) {
              const c = allowed.codes[k];
              if (pm[c] !== ps) continue;
              longest[c] = L;
              if (!cands.has(c)) cands.set(c, RELATIONS[allowed.rels[k]]);
            }
            continue;
          }
          if (!marked) {
            for (let k = 0; k < allowed.codes.length; k++) {
              const c = allowed.codes[k];
              mark[c] = stamp;
              relOf[c] = allowed.rels[k];
            }
            marked = true;
          }
          for (let t = 0; t < n; t++) {
            const c = vals.codeAt(v, t);
            if (c === oc) origL = L;
            if (mark[c] !== stamp) continue;
            longest[c] = L;
            if (!cands.has(c)) cands.set(c, RELATIONS[relOf[c]]);
          }
        }
      }
      const sp = this.special.get(orig);
      if (sp) {
        // 那 (that) and 哪 (which) follow the sentence: 哪 asks or generalises, 那 points
        const asks = orig === '那' || orig === '哪' ? asksWhich(s, i) : false;
        for (const c of sp) {
          if ((c === '哪' && !asks) || (c === '那' && asks)) continue;
          cands.set(c.charCodeAt(0), 'special');
        }
      }
      const freeStamp = this.freeMarks.next(),
        freeMark = this.freeMarks.mark;
      if (p.freeCands) {
        for (let k = 0; k < conf.codes.length; k++) {
          const c = conf.codes[k],
            rel = RELATIONS[conf.rels[k]];
          if (!Speller.inUse(conf, k, p.componentMaxCost)) continue;
          if (cands.has(c) || conf.costs[k] > p.freeMaxCost || (rel !== 'same-tone' && rel !== 'same')) continue;
          cands.set(c, rel);
          freeMark[c] = freeStamp;
        }
      }
      if (cands.size === 0) continue;
      const lo = Math.max(a, i - W);
      const hi = Math.min(b, i + W + 1);
      // the window's cost with each candidate in place (scoreSub: no string made, the left part's lattice reused)
      const base = lm.scoreSub(s, lo, hi, i, oc);
      if (p.model) {
        // reranker: a logistic model over the LM gains (two windows, two LMs) and the candidate's evidence
        const lo2 = Math.max(a, i - 2),
          hi2 = Math.min(b, i + 3);
        // the ±2 window is scored only for candidates the first stage may pass (see G2_SLACK)
        let base2 = NaN;
        const uO = Math.min(lm.wordCost(orig), 20);
        const known = p.knownWordCost ? isKnown(i) : false;
        const rows: Array<{ code: number; rel: Relation; free: boolean; g4: number }> = [];
        for (let j = 0; j < cands.size; j++) {
          const code = cands.codes[j],
            rel = cands.rels[j];
          rows.push({
            code,
            rel,
            free: freeMark[code] === freeStamp,
            g4: base - lm.scoreSub(s, lo, hi, i, code),
          });
        }
        let top = -Infinity,
          top2 = -Infinity;
        for (const r of rows) {
          if (r.g4 > top) {
            top2 = top;
            top = r.g4;
          } else if (r.g4 > top2) top2 = r.g4;
        }
        // the second LM is consulted only for candidates the first-stage model (first LM only) lets through
        const lm2 = this.lm2;
        let hb4 = NaN,
          hb2 = NaN;
        let best: SpellFinding | null = null;
        let second = -Infinity;
        const ddd = DDD.includes(orig);
        // each candidate's features in one array; the best so far keeps a copy
        const features = this.features;
        const bounded = !spellTrace && g2Bounded(p);
        for (const r of rows) {
          const other = r.g4 === top ? top2 : top;
          // (a candidate neither free nor special came from the patterns: its longest word was noted there)
          const candL = r.free || r.rel === 'special' ? 0 : this.longestMade[r.code];
          // the features with the largest ±2 gain its ±4 gain allows (the real one is set below, if it is needed)
          const x = rerankFeatures(
            {
              g4: r.g4,
              g2: r.g4 + G2_SLACK,
              h4: 0,
              h2: 0,
              rel: r.rel,
              free: r.free,
              candL,
              origL,
              uO,
              uC: Math.min(lm.unitCost(r.code), 20),
              inWord: inWord[i - a] === 1,
              known,
              nCands: rows.length,
              edge: i === a || i === b - 1,
              lead: other === -Infinity ? 10 : Math.min(10, r.g4 - other),
              ddd,
            },
            features,
          );
          // a candidate the first stage drops even so is dropped unscored (its score would be -Infinity, which
          // changes neither the best nor the second)
          if (bounded && !passes(p, x)) continue;
          if (Number.isNaN(base2)) base2 = lm.scoreSub(s, lo2, hi2, i, oc);
          const g2 = base2 - lm.scoreSub(s, lo2, hi2, i, r.code);
          setGains(x, r.g4, g2, 0, 0);
          const pass = passes(p, x);
          let score = -Infinity;
          if (pass || spellTrace) {
            if (lm2) {
              if (Number.isNaN(hb4)) {
                hb4 = lm2.scoreSub(s, lo, hi, i, oc);
                hb2 = lm2.scoreSub(s, lo2, hi2, i, oc);
              }
              const h4 = hb4 - lm2.scoreSub(s, lo, hi, i, r.code);
              setGains(x, r.g4, g2, h4, hb2 - lm2.scoreSub(s, lo2, hi2, i, r.code));
            }
            if (pass) score = modelScore(p, x);
            if (spellTrace)
              spellTrace({ pos: i, orig, cand: String.fromCharCode(r.code), relation: r.rel, x: x.slice(), score });
          }
          if (score >= p.modelThreshold && (!best || score > best.gain)) {
            if (best) second = Math.max(second, best.gain);
            const cand = String.fromCharCode(r.code);
            best = { pos: i, orig, cand, gain: score, relation: r.rel, free: r.free, x: x.slice() };
          } else second = Math.max(second, score);
        }
        if (best && best.gain - second >= p.modelMargin) found.push(best);
        continue;
      }
      let best: SpellFinding | null = null;
      let second = -Infinity;
      for (let j = 0; j < cands.size; j++) {
        const code = cands.codes[j],
          rel = cands.rels[j],
          free = freeMark[code] === freeStamp;
        const c = String.fromCharCode(code);
        const cost = lm.scoreSub(s, lo, hi, i, code);
        let gain = base - cost - this.channelCost(rel, p);
        if (inWord[i - a] && rel !== 'special') gain -= p.inWordCost;
        if (p.knownWordCost && isKnown(i)) gain -= p.knownWordCost;
        const thr = rel === 'special' ? p.specialThreshold : free ? p.freeThreshold : p.threshold;
        if (gain >= thr && (!best || gain > best.gain)) {
          if (best) second = Math.max(second, best.gain);
          best = { pos: i, orig, cand: c, gain, relation: rel, free };
        } else second = Math.max(second, gain);
      }
      if (best && best.gain - second >= p.margin) found.push(best);
    }
    if (found.length === 0) return;
    // greedy acceptance, re-scoring against the already corrected text
    found.sort((x, y) => y.gain - x.gain);
    const maxEdits = Math.max(1, Math.ceil((b - a) / p.editsPerChars));
    let work = s.slice(a, b);
    let accepted = 0;
    for (const f of found) {
      if (accepted >= maxEdits) break;
      const k = f.pos - a;
      if (p.model && f.x) {
        // re-score the LM gains against the text corrected so far; the other evidence stays
        const x = f.x.slice();
        const g = (m: LanguageModel | null, w: number) => {
          if (!m) return 0;
          const l = work.slice(Math.max(0, k - w), k),
            r = work.slice(k + 1, Math.min(work.length, k + w + 1));
          return m.score(l + f.orig + r) - m.score(l + f.cand + r);
        };
        setGains(x, g(lm, W), g(lm, 2), g(this.lm2, W), g(this.lm2, 2));
        const score = modelScore(p, x);
        if (score < p.modelThreshold) continue;
        work = work.slice(0, k) + f.cand + work.slice(k + 1);
        out.push({ ...f, gain: score });
        accepted++;
        continue;
      }
      const lo = Math.max(0, k - W);
      const hi = Math.min(work.length, k + W + 1);
      const left = work.slice(lo, k);
      const right = work.slice(k + 1, hi);
      const gain =
        lm.score(left + f.orig + right) -
        lm.score(left + f.cand + right) -
        this.channelCost(f.relation, p) -
        (inWord[k] && f.relation !== 'special' ? p.inWordCost : 0) -
        (p.knownWordCost && isKnown(f.pos) ? p.knownWordCost : 0);
      const thr = f.relation === 'special' ? p.specialThreshold : f.free ? p.freeThreshold : p.threshold;
      if (gain < thr) continue;
      work = work.slice(0, k) + f.cand + work.slice(k + 1);
      out.push({ ...f, gain });
      accepted++;
    }
  }
}

/**
 * The Chinese checking engine: check(text, options) -> Issue[].
 * Lexicons load once (lazily on the first check, or eagerly with loadEngine()) and are shared;
 * check() is synchronous and pure, so independent paragraphs can be checked in any order.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import path from 'node:path';
import type * as OpenCC from 'opencc-js';
import { LanguageModel, dataDir, contextGain, type LmFiles } from './lm';
import { FrozenSet, ImageReader, ImageWriter, readShared } from './image';
import { PinyinTable, toneMark } from './pinyin';
import { ShapeTable } from './shape';
import { JiebaDict } from './jieba';
import { Speller, MODE3, MODE4, DDD, regionalPair, variantPair, variantWordChars, type SpellFinding } from './spell';
import type { RerankModel } from './rerank';
import { WordingChecker, WORDING3, WORDING4 } from './rules/wording';
import { checkPunctuation } from './rules/punct';
import { abbreviationTerm, closingPlace, closerOf } from './rules/pairs';
import { checkDates } from './rules/dates';
import { AddressChecker } from './rules/address';
import { checkLeaders, checkAmounts } from './rules/advanced';
import { WordMatcher, foldForMatch } from './rules/matcher';
import { checkUsage } from './rules/usage';
import { checkConfusables } from './rules/confusable';
import { NonWordChecker, NONWORD3, NONWORD4, type NonWordFinding } from './nonword';
import { dropFalseKinds } from './rules/precision';
import { protectedMask, linkMask } from './protect';
import { hkToCn } from './script';
import { Bits, ALL_STANDARD, CATEGORY_BY_CODE } from './categories';
import type { CheckOptions, Issue } from './types';
import { mapNoteStrings, note, noted, type Note } from './messages';

export type { CheckOptions, Issue, CustomDictionaries, Source } from './types';

const LM2_FILES: LmFiles = { bin: 'lm2.bin.gz', vocab: 'lm2-vocab.txt.gz', tri: 'lm2-3.bin.gz' };
export { CATEGORIES, CATEGORY_BY_CODE, RESULT_TYPES, LEVELS, Bits, ALL_STANDARD } from './categories';

export interface Engine {
  lm: LanguageModel;
  /** libime's word trigram model, when its files are present (the second opinion) */
  lm2: LanguageModel | null;
  py: PinyinTable;
  shape: ShapeTable;
  dict: JiebaDict;
  speller: Speller;
  nonword: NonWordChecker;
  wording: WordingChecker;
  address: AddressChecker;
  sensitive: WordMatcher<string>;
  /** common miswritten words (lexicon/typos.tsv): wrong -> right */
  typos: WordMatcher<string>;
  /** first two characters of the dictionary's 3-6 character names (see markNames) */
  namePrefixes: FrozenSet;
  load: EngineLoad;
}

let engine: Engine | null = null;

function isHanWord(w: string): boolean {
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    if (c < 0x4e00 || c > 0x9fff) return false;
  }
  return true;
}

/** bumped when a saved structure changes shape in a way the source hash below would not notice */
const IMAGE_FORMAT = 'engine-image-1';
/** the engine's own files whose code decides what an image holds */
const IMAGE_SOURCES = [
  'index.ts',
  'image.ts',
  'lm.ts',
  'jieba.ts',
  'pinyin.ts',
  'spell.ts',
  'nonword.ts',
  'rules/wording.ts',
];

/**
 * The image key: the image format, the code that builds the structures and the lexicon files (size and time),
 * so an image built from other data or by other code is never read.
 */
function imageKey(): string {
  // the ablation switches change what is built
  const h = createHash('sha1')
    .update(IMAGE_FORMAT)
    .update(`${process.env.ENGINE_NO_LM2}:${process.env.ENGINE_NO_TRIGRAM}`);
  const engineDir = path.dirname(dataDir);
  for (const f of IMAGE_SOURCES) h.update(readFileSync(path.join(engineDir, f)));
  for (const f of readdirSync(dataDir).sort()) {
    const st = statSync(path.join(dataDir, f));
    if (st.isFile()) h.update(`${f}:${st.size}:${Math.round(st.mtimeMs)}`);
  }
  return h.digest('hex').slice(0, 16);
}

/** where images are kept: ENGINE_IMAGE_DIR, else engine/.image beside the lexicons */
function imageDir(): string {
  return process.env.ENGINE_IMAGE_DIR || path.join(path.dirname(dataDir), '.image');
}

/** builds every structure from the text lexicons (seconds) and returns them as an image buffer */
function buildImage(key: string): Buffer {
  const lm = new LanguageModel();
  const py = new PinyinTable();
  const shape = new ShapeTable();
  const dict = new JiebaDict();
  // dictionary words the LM lacks (terms, names) join the lattice as unigram-only entries
  const total = dict.total;
  const extra: Array<[string, number]> = [];
  for (const [w, f] of dict.freq) {
    if (f >= 5 && w.length >= 2 && w.length <= lm.maxLen && isHanWord(w)) extra.push([w, -Math.log(f / total) + 0.5]);
  }
  lm.addWords(extra);
  // libime's word trigram model (see NOTICE.md): a second opinion for the spelling reranker
  const lm2 =
    existsSync(path.join(dataDir, 'lm2.bin.gz')) && process.env.ENGINE_NO_LM2 !== '1'
      ? new LanguageModel(LM2_FILES)
      : null;
  const speller = new Speller(lm, py, shape, dict.idioms, dict.freq, lm2);
  const nonword = new NonWordChecker(lm, lm2, dict, speller, py);
  const wording = new WordingChecker(lm, dict);
  const names: string[] = [];
  for (const [w] of dict.freq)
    if (w.length >= 3 && w.length <= 6 && NAME_TAGS.has(dict.pos.get(w) ?? '')) names.push(w.slice(0, 2));
  const w = new ImageWriter();
  lm.save(w, 'lm');
  lm2?.save(w, 'lm2');
  dict.save(w, 'jieba');
  py.save(w, 'py');
  speller.save(w, 'speller');
  nonword.save(w, 'nonword');
  wording.save(w, 'wording');
  FrozenSet.build(names).save(w, 'namePrefixes');
  return w.toBuffer(key);
}

/** where the structures came from: another thread's buffer, the saved image, or built from the text lexicons */
export type ImageSource = 'shared' | 'file' | 'built';

/** the image for this code and these lexicons: the given buffer, the saved file, or built now (and saved) */
function findImage(key: string, given?: SharedArrayBuffer): { image: SharedArrayBuffer; source: ImageSource } {
  if (given) {
    try {
      if (new ImageReader(given).key === key) return { image: given, source: 'shared' };
    } catch {
      // not an image: read or build our own
    }
  }
  const dir = imageDir();
  const file = path.join(dir, `engine-${key}.img`);
  const saved = readShared(file);
  if (saved) {
    try {
      if (new ImageReader(saved).key === key) return { image: saved, source: 'file' };
    } catch {
      // a damaged file: built again below
    }
  }
  const buf = buildImage(key);
  try {
    mkdirSync(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.${threadId}.tmp`;
    writeFileSync(tmp, buf);
    renameSync(tmp, file);
    // images of other code or data are stale: one image per directory
    for (const f of readdirSync(dir))
      if (/^engine-[0-9a-f]+\.img$/.test(f) && f !== path.basename(file)) rmSync(path.join(dir, f), { force: true });
  } catch {
    // a read-only install keeps the image in memory only
  }
  const sab = new SharedArrayBuffer(buf.length);
  new Uint8Array(sab).set(buf);
  return { image: sab, source: 'built' };
}

/**
 * Loads all lexicons once; returns the load time in milliseconds and the image buffer the structures live in
 * (pass it to other threads' loadEngine to share it). ENGINE_NO_LM2=1 leaves the second model out and
 * ENGINE_NO_TRIGRAM=1 the trigram levels (for ablations; each has its own image).
 */
export function loadEngine(opts: { image?: SharedArrayBuffer } = {}): EngineLoad {
  if (engine) return engine.load;
  const t0 = performance.now();
  const { image, source } = findImage(imageKey(), opts.image);
  const r = new ImageReader(image);
  const lm = new LanguageModel(undefined, { r, p: 'lm' });
  const py = new PinyinTable({ r, p: 'py' });
  const shape = new ShapeTable();
  const dict = new JiebaDict({ r, p: 'jieba' });
  const lm2 = r.has('lm2.meta') ? new LanguageModel(LM2_FILES, { r, p: 'lm2' }) : null;
  const speller = new Speller(lm, py, shape, [], dict.freq, lm2, { r, p: 'speller' });
  speller.components = new ShapeTable('components.txt');
  // the spelling reranker's weights (engine/tools/train-rerank.ts); without them the gain thresholds decide
  const rerank = process.env.ENGINE_RERANK ?? path.join(dataDir, 'rerank.json');
  if (rerank !== 'none' && existsSync(rerank)) {
    const w = JSON.parse(readFileSync(rerank, 'utf8')) as Record<string, RerankModel>;
    for (const [P, k] of [
      [MODE3, 'mode3'],
      [MODE4, 'mode4'],
    ] as const) {
      // the two-stage model needs the second LM; without it the first stage decides alone
      if (!P.model) {
        P.model = lm2 ? w[k] : w[`${k}-stage1`];
        P.prefilter = lm2 ? w[`${k}-stage1`] : undefined;
      }
    }
  }
  const nonword = new NonWordChecker(lm, lm2, dict, speller, py, { r, p: 'nonword' });
  nonword.glyphs = new ShapeTable('glyphs.txt');
  const wording = new WordingChecker(lm, dict, { r, p: 'wording' });
  const address = new AddressChecker();
  // list words are found however they are typed or disguised (see foldForMatch); typos.tsv stays exact
  const sensitive = new WordMatcher<string>({ fold: true });
  for (const line of readFileSync(path.join(dataDir, 'sensitive.tsv'), 'utf8').split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const [w, cat] = line.split('\t');
    if (w && cat) sensitive.add(w, cat);
  }
  const typos = new WordMatcher<string>();
  for (const line of readFileSync(path.join(dataDir, 'typos.tsv'), 'utf8').split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const [w, r] = line.split('\t');
    if (w && r && w.length === r.length && w !== r) typos.add(w, r);
  }
  const namePrefixes = FrozenSet.read(r, 'namePrefixes');
  const load = { loadMs: Math.round(performance.now() - t0), image, source };
  engine = { lm, lm2, py, shape, dict, speller, nonword, wording, address, sensitive, typos, namePrefixes, load };
  return load;
}

/** the loaded parts, for the engine's own tools (diagnosis, training); loads the engine when needed */
export function engineParts(): Engine {
  if (!engine) loadEngine();
  return engine!;
}

export interface EngineLoad {
  loadMs: number;
  /** the buffer the precompiled structures live in (shared: pass it to another thread's loadEngine) */
  image: SharedArrayBuffer;
  source: ImageSource;
}

const require = createRequire(import.meta.url);
let toTraditional: ((s: string) => string) | null = null;
/** hk checks: each direction's tables alone, loaded by the first hk text (most workers never see one) */
function hkConverters() {
  if (!toTraditional) {
    const { Converter }: typeof OpenCC = require('opencc-js/cn2t');
    toTraditional = Converter({ from: 'cn', to: 'hk' });
  }
  return { t2s: hkToCn(), s2t: toTraditional };
}

/** Same-length simplified form of traditional text (offsets stay valid). */
function simplifyKeepingOffsets(text: string): string {
  const { t2s } = hkConverters();
  const whole = t2s(text);
  if (whole.length === text.length) return whole;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      out += text.slice(i, i + 2);
      i++;
      continue;
    }
    const s = t2s(text[i]);
    out += s.length === 1 ? s : text[i];
  }
  return out;
}

const PRIORITY: Record<string, number> = {
  dict: 0,
  '12': 1,
  '9': 2,
  spell: 3,
  '0': 3,
  '3': 4,
  '4': 4,
  '7': 4,
  '10': 5,
};
function priority(i: Issue): number {
  if (i.type === 5 || i.type === 7) return PRIORITY.dict;
  const head = i.category.split('-')[0];
  if (head === '1' || head === '2' || head === '5') return PRIORITY.spell;
  return PRIORITY[head] ?? 6;
}

function spellMessage(e: Engine, f: SpellFinding, work: string): { message: string; note: Note } {
  const a = f.orig,
    b = f.cand;
  if (f.word) {
    // the original in its main reading (as it was matched), the candidate in the reading that matches it
    const ra = Array.from(a, (c) => e.py.readings.get(c)?.[0] ?? '');
    const rb = Array.from(b, (c, k) => {
      const rs = e.py.readings.get(c) ?? [''];
      return rs.find((r) => r.slice(0, -1) === ra[k].slice(0, -1)) ?? rs[0];
    });
    const [pa, pb] = [ra.map(toneMark).join(' '), rb.map(toneMark).join(' ')];
    return noted('spell.word', { orig: a, cand: b, a, pa, b, pb });
  }
  const pa = e.py.pretty(a),
    pb = e.py.pretty(b);
  const base = Math.max(0, f.pos - 4);
  const local = work.slice(base, f.pos + 5);
  const p = f.pos - base;
  const fixed = local.slice(0, p) + b + local.slice(p + 1);
  // the word the correction completes
  const [lo, hi] = wordAround(e, fixed, p, p + 1) ?? [p, p + 1];
  const [orig, cand] = hi - lo > 1 ? [local.slice(lo, hi), fixed.slice(lo, hi)] : [a, b];
  const id = f.relation === 'same-tone' ? 'same' : f.relation;
  return noted(`spell.${id}`, { orig, cand, a, pa, b, pb });
}

/** A span as it reads, for a message: without format characters (a bidi override would reorder what follows). */
const SPELL_CATEGORY: Record<string, string> = { 'same-tone': '1', same: '1', fuzzy: '2', shape: '5', special: '0' };

export function check(text: string, options: CheckOptions = {}): Issue[] {
  const e = engine ?? (loadEngine(), engine!);
  const mode = options.mode === 4 ? 4 : 3;
  const bits = (options.checkOptions ?? ALL_STANDARD) | (options.advancedProofreading ? Bits.advanced : 0);
  const hk = options.lang === 'hk';
  const work = hk ? simplifyKeepingOffsets(text) : text;
  const allowed = (options.allowedWords ?? []).filter(Boolean);
  const allowedAll = hk ? [...allowed, ...allowed.map((w) => simplifyKeepingOffsets(w))] : allowed;
  const blocked = protectedMask(work, allowedAll);
  if (hk) {
    const more = protectedMask(text, allowed);
    for (let i = 0; i < blocked.length; i++) blocked[i] |= more[i];
  }
  const links = linkMask(text);
  const issues: Issue[] = [];

  // custom wrong words protect their span from other families and produce type 5 / 7
  if (bits & Bits.dictionary) {
    const wrong = new WordMatcher<{ correct: string; team: boolean; library?: number }>({ fold: true });
    for (const w of options.wrongWords ?? [])
      wrong.add(w.word, { correct: w.correct, team: w.source === 'team', library: w.library });
    for (const src of hk ? [text, work] : [text]) {
      for (const m of wrong.find(src)) {
        issues.push({
          start: m.start,
          end: m.end,
          original: '',
          suggestions: [m.value.correct],
          category: '0',
          type: m.value.team ? 7 : 5,
          ...(m.value.library !== undefined ? { library: m.value.library } : {}),
          level: 1,
          ...noted(m.value.team ? 'dict.wrong.team' : 'dict.wrong.personal', { word: m.word, cand: m.value.correct }),
        });
      }
    }
    const key = new WordMatcher<{ team: boolean; library?: number }>({ fold: true });
    for (const k of options.keyWords ?? []) key.add(k.word, { team: k.source === 'team', library: k.library });
    for (const m of key.find(text)) {
      issues.push({
        start: m.start,
        end: m.end,
        original: '',
        suggestions: [],
        category: '11',
        type: m.value.team ? 10 : 9,
        ...(m.value.library !== undefined ? { library: m.value.library } : {}),
        level: 3,
        ...noted(m.value.team ? 'dict.key.team' : 'dict.key.personal', { word: m.word }),
      });
    }
  }

  const spellBlocked = new Uint8Array(blocked);
  for (const i of issues) spellBlocked.fill(1, i.start, i.end);
  // non-words leave alone the names the dictionary knows well (its rarest entries include misspellings: 家谕户晓)
  const nonwordBlocked = new Uint8Array(spellBlocked);
  // likely proper names (jieba person/place/organisation names of 3+ characters) are not corrected
  markNames(e, work, spellBlocked, nonwordBlocked, 5);

  // non-words: a form no lexicon knows, one edit from a word, is evidence of its own; they join the findings after
  // the speller's, which keep their place where both correct the same characters (the speller weighs more evidence)
  const nonwordIssues: Issue[] = [];
  if (bits & (Bits.spelling | Bits.wording)) {
    for (const f of e.nonword.check(work, nonwordBlocked, mode === 4 ? NONWORD4 : NONWORD3)) {
      // a two-character form that recurs is rather a name or a term of the text (see repeatFixes)
      if (f.kind === 'sub' && f.written.length === 2 && work.indexOf(f.written) !== work.lastIndexOf(f.written))
        continue;
      const issue = { ...nonwordIssue(e, f), confidence: logistic(f.score / 2) };
      if (
        !(
          bits &
          (issue.category === '3' || issue.category === '4' || issue.category === '7' ? Bits.wording : Bits.spelling)
        )
      )
        continue;
      nonwordIssues.push(issue);
    }
  }

  // wording findings (遗漏/冗余/语序) rest on whole-word evidence: the character speller leaves their spans
  // alone (容内 is a swapped 内容, not 容纳)
  const wordingIssues =
    bits & Bits.wording ? e.wording.check(work, spellBlocked, mode === 4 ? WORDING4 : WORDING3) : [];
  const charBlocked = new Uint8Array(spellBlocked);
  for (const w of wordingIssues) charBlocked.fill(1, w.start, w.end);
  const listed = new Set<Issue>();
  if (bits & Bits.spelling) {
    for (const t of checkTypos(e, work, nonwordBlocked, hk)) {
      issues.push(t);
      listed.add(t);
      charBlocked.fill(1, t.start, t.end);
    }
  }
  // a word written reversed (我的中心) is mended whole; the speller leaves its characters alone
  if (bits & Bits.wording) {
    for (const { at, gain } of wordSwapGains(e, work, charBlocked)) {
      if (gain < SWAP_WORD_GAIN) continue;
      const orig = work.slice(at, at + 2),
        cand = orig[1] + orig[0];
      issues.push({
        start: at,
        end: at + 2,
        original: '',
        suggestions: [cand],
        category: '7',
        level: 1,
        ...noted('nonword.swap', { orig, cand }),
        confidence: logistic(gain - SWAP_WORD_GAIN + 1),
      });
      charBlocked.fill(1, at, at + 2);
    }
  }
  // the 的/地/得 rules give the grammatical reason; the speller's finding at the same place gives way
  const usage = bits & Bits.usage ? checkUsage(e.lm, e.dict, work, spellBlocked, e.lm2) : [];
  // words with two accepted spellings (纪录/记录) are not the speller's to turn into each other
  for (const k of variantWordChars(work)) charBlocked[k] = 1;
  const confusables = bits & Bits.usage ? checkConfusables(e.lm, e.dict, work, spellBlocked) : [];
  const usageAt = new Set(usage.map((u) => u.pos));
  for (const c of confusables) for (let k = c.start; k < c.end; k++) usageAt.add(k);
  if (bits & (Bits.spelling | Bits.usage)) {
    const params = mode === 4 ? MODE4 : MODE3;
    for (const f of e.speller.check(work, charBlocked, params)) {
      let atUsage = false;
      for (let k = f.pos; k < f.pos + f.cand.length; k++) if (usageAt.has(k)) atUsage = true;
      if (atUsage) continue;
      if (f.orig === '既' && f.cand === '即' && correlative(work, f.pos)) continue;
      // one numeral for another changes an amount the text states (三千 → 三十): no slip the models can judge
      if (f.orig.length === 1 && NUMERAL_CHARS.includes(f.orig) && NUMERAL_CHARS.includes(f.cand)) continue;
      // 不 before a verb, an adverb or a quality negates it (财政不另行补贴): no slip for 部 or 布
      if (f.orig === '不' && negates(e, work, f.pos + 1)) continue;
      // 的/地/得 for one another is misuse (family 0), whatever the sound relation
      const cat = DDD.includes(f.orig) && DDD.includes(f.cand) ? '0' : SPELL_CATEGORY[f.relation];
      const bit = cat === '0' ? Bits.usage : Bits.spelling;
      if (!(bits & bit)) continue;
      // the reranker's log-odds, or the gain over the threshold in nats for whole words and without a reranker
      const margin = f.word ? (f.gain - params.wordGain) / 2 : params.model ? f.gain : (f.gain - params.threshold) / 2;
      issues.push({
        start: f.pos,
        end: f.pos + f.cand.length,
        original: '',
        suggestions: [f.cand],
        category: cat,
        level: 1,
        ...spellMessage(e, f, work),
        confidence: logistic(margin),
      });
    }
  }
  if (bits & Bits.spelling) {
    const { add, drop } = repeatFixes(e, work, issues, listed, charBlocked);
    if (drop.size) issues.splice(0, issues.length, ...issues.filter((i) => !drop.has(i)));
    issues.push(...add);
  }
  if (bits & Bits.usage) {
    for (const c of confusables) {
      issues.push({
        start: c.start,
        end: c.end,
        original: '',
        suggestions: [c.cand],
        category: '0',
        level: 1,
        ...noted('usage.should', { orig: c.orig, cand: c.cand, reason: c.reason }),
      });
    }
    for (const u of usage) {
      issues.push({
        start: u.pos,
        end: u.pos + 1,
        original: '',
        suggestions: [u.cand],
        category: '0',
        level: 1,
        ...noted('usage.should', { orig: u.orig, cand: u.cand, reason: u.reason }),
      });
    }
  }
  issues.push(...nonwordIssues);
  issues.push(...wordingIssues);
  if (bits & Bits.sensitive) {
    const sens = new WordMatcher<{ category: string; type: number; library?: number }>({ fold: true });
    for (const s of options.sensitiveWords ?? [])
      sens.add(s.word, { category: s.category || '8-1', type: s.source === 'team' ? 6 : 4, library: s.library });
    const custom = sens.find(work);
    if (hk) custom.push(...sens.find(text));
    for (const m of custom) {
      const label = note(CATEGORY_BY_CODE.has(m.value.category) ? `category.${m.value.category}` : 'sensitive.label');
      issues.push({
        start: m.start,
        end: m.end,
        original: '',
        suggestions: [],
        category: m.value.category,
        type: m.value.type,
        ...(m.value.library !== undefined ? { library: m.value.library } : {}),
        level: 3,
        ...noted(m.value.type === 6 ? 'sensitive.team' : 'sensitive.personal', { word: m.word, label }),
      });
    }
    for (const m of e.sensitive.find(work)) {
      const label = note(CATEGORY_BY_CODE.has(m.value) ? `category.${m.value}` : 'sensitive.label');
      // the list's word, never the disguise: invisible characters and look-alike forms would only confuse
      const said = noted('sensitive.builtin', { word: m.word, label });
      issues.push({
        start: m.start,
        end: m.end,
        original: '',
        suggestions: [],
        category: m.value,
        type: 3,
        level: 3,
        ...said,
      });
    }
  }
  if (bits & Bits.facts) {
    issues.push(...checkDates(work));
    issues.push(...e.address.check(work));
  }
  if (bits & Bits.punctuation) {
    const marks = checkPunctuation(text, links);
    const unclosed = (ch: string) => marks.some((m) => m.category === '10-2' && text[m.start] === ch);
    for (const i of marks) {
      // an unclosed mark: where its closer belongs, when that is clear, as a replacement from the opener to there
      let closer = i.category === '10-2' && i.suggestions.length === 0 ? closerOf(text[i.start]) : undefined;
      // a term after 简称 whose bracket is unclosed too closes both (（以下简称“委托方”）应在)
      const bracket = text.slice(Math.max(0, i.start - 8), i.start).match(/[（(](?=[^（(]*$)/)?.[0];
      const place = closer ? closingPlace(text, i.start) : null;
      if (closer && place !== null && bracket && abbreviationTerm(text, i.start) !== null && unclosed(bracket)) {
        closer += closerOf(bracket);
        // the bracket's own finding points at the same place
        const own = marks.find((m) => m.category === '10-2' && m.start < i.start && text[m.start] === bracket);
        if (own)
          Object.assign(
            own,
            noted('punct.unpaired-at', {
              mark: bracket,
              pair: closerOf(bracket) ?? '',
              where: text.slice(i.start + 1, place),
            }),
          );
      }
      if (closer && place !== null && place > i.start + 1) {
        // the opener keeps its finding; the closer is inserted after the character before its place (a short
        // span that seldom meets another correction, as a quotation-long one would)
        const inside = text.slice(i.start + 1, place);
        const where = inside.length > 12 ? '…' + inside.slice(-10) : inside;
        Object.assign(
          i,
          closer.length > 1
            ? noted('punct.unpaired-both', {
                mark: text[i.start],
                pair: closer[0],
                outer: bracketOf(closer),
                where,
                closer,
              })
            : noted('punct.unpaired-at', { mark: text[i.start], pair: closer, where }),
        );
        const at = place - (place >= 2 && /[\udc00-\udfff]/.test(text[place - 1]) ? 2 : 1);
        issues.push({
          start: at,
          end: place,
          original: '',
          suggestions: [text.slice(at, place) + closer],
          category: '10-2',
          level: i.level,
          ...(closer.length > 1
            ? noted('punct.missing-both', { closer, mark: text[i.start], outer: bracketOf(closer) })
            : noted('punct.missing', { closer, mark: text[i.start] })),
        });
      }
      issues.push(i);
    }
  }
  // A leader dictionary is the user's own opt-in: its checks run whenever one is given; amounts need the bit.
  if (options.leaders?.length) {
    issues.push(...checkLeaders(work, options.leaders));
    if (hk) issues.push(...checkLeaders(text, options.leaders));
  }
  if (bits & Bits.advanced) issues.push(...checkAmounts(work));

  // allowed words silence every finding that overlaps them
  // (compared like the list words: an allowed word hidden by a zero-width character is still the allowed word)
  const allowedSpans: Array<[number, number]> = [];
  const allowedKeys = allowedAll.map((w) => foldForMatch(w).text).filter(Boolean);
  for (const src of allowedKeys.length ? (hk ? [text, work] : [text]) : []) {
    const f = foldForMatch(src);
    for (const w of allowedKeys) {
      let idx = f.text.indexOf(w);
      while (idx >= 0) {
        allowedSpans.push([f.from[idx], f.to[idx + w.length - 1]]);
        idx = f.text.indexOf(w, idx + 1);
      }
    }
  }
  const result: Issue[] = [];
  const allowedMask = new Uint8Array(text.length);
  for (const [s, t] of allowedSpans) allowedMask.fill(1, s, t);
  const takenEdit = new Uint8Array(text.length);
  const takenHint = new Uint8Array(text.length);
  const any = (m: Uint8Array, s: number, t: number) => {
    for (let k = s; k < t; k++) if (m[k]) return true;
    return false;
  };
  // kinds of wrong findings seen on published documents (rules/precision.ts)
  const known = (w: string) => e.dict.freq.has(w) || e.lm.has(w) || !!e.lm2?.has(w);
  const sound = (a: string, b: string) => e.py.relation(a, b);
  dropFalseKinds({ lm: e.lm, dict: e.dict, isWord: (w) => e.nonword.isWord(w), known, sound }, work, issues, mode);
  for (const i of issues) i.confidence = Math.round((i.confidence ?? defaultConfidence(i)) * 1000) / 1000;
  // the confident findings first within a family: mode 4 keeps mode 3's findings and adds to them
  const unsure = (i: Issue) => (i.confidence! < 0.5 ? 1 : 0);
  issues.sort((a, b) => priority(a) - priority(b) || unsure(a) - unsure(b) || a.start - b.start);
  for (const i of issues) {
    if (i.end <= i.start || i.end > text.length) continue;
    if (any(allowedMask, i.start, i.end)) continue;
    if (mode === 3 && unsure(i)) continue;
    const hint = i.suggestions.length === 0 && i.level === 3;
    const taken = hint ? takenHint : takenEdit;
    if (any(taken, i.start, i.end)) continue;
    i.original = text.slice(i.start, i.end);
    if (hk && regionalOnly(work.slice(i.start, i.end), i.suggestions)) continue;
    if (hk) {
      i.suggestions = i.suggestions.map((s) => hkConverters().s2t(s));
      i.message = hkConverters().s2t(i.message);
      if (i.note) i.note = mapNoteStrings(i.note, hkConverters().s2t);
    }
    i.suggestions = [...new Set(i.suggestions)].filter((s) => s !== i.original);
    if (i.suggestions.length === 0 && i.level !== 3 && !i.category.startsWith('10-2') && !i.category.startsWith('9-'))
      continue;
    taken.fill(1, i.start, i.end);
    result.push(i);
  }
  result.sort((a, b) => a.start - b.start || a.end - b.end);
  return resolveTouching(e, work, result);
}

/**
 * Findings whose edits meet must make one correct text together: two substitutions that touch inside one word may
 * each mend half of it (蜿延: 蜿→蔓 and 延→蜒 give 蔓蜒). Where both applied make no word but one alone does, only
 * the one the language models prefer stays. A spelling substitution a few characters from another edit is weighed
 * again with that edit applied (吸引了了三千: once 了了 is mended, 三千 needs no change) and dropped if it then gains
 * nothing.
 */
function resolveTouching(e: Engine, s: string, result: Issue[]): Issue[] {
  const edits = result.filter((i) => i.suggestions.length > 0);
  if (edits.length < 2) return result;
  const lms = e.lm2 ? [e.lm, e.lm2] : [e.lm];
  const drop = new Set<Issue>();
  const apply = (t: string, list: Issue[]) => {
    let out = t;
    for (const i of [...list].sort((a, b) => b.start - a.start)) {
      out = out.slice(0, i.start) + i.suggestions[0] + out.slice(i.end);
    }
    return out;
  };
  const sub = (i: Issue) => i.suggestions[0].length === i.end - i.start;
  for (let k = 0; k + 1 < edits.length; k++) {
    const a = edits[k],
      b = edits[k + 1];
    if (drop.has(a) || b.start !== a.end || !sub(a) || !sub(b)) continue;
    const makesWord = (list: Issue[]) => wordAround(e, apply(s, list), a.start, b.end) !== null;
    if (makesWord([a, b])) continue;
    const alone = [a, b].filter((i) => makesWord([i]));
    if (alone.length === 0) continue;
    const gain = (i: Issue) => contextGain(lms, s, i.start, i.end, i.suggestions[0]);
    const keep = alone.length === 1 ? alone[0] : gain(a) >= gain(b) ? a : b;
    drop.add(keep === a ? b : a);
  }
  for (const i of edits) {
    if (drop.has(i) || !sub(i) || !SPELLING.has(i.category) || i.type !== undefined) continue;
    const near = edits.filter((o) => o !== i && !drop.has(o) && o.end >= i.start - 4 && o.start <= i.end + 4);
    if (near.length === 0 || near.some((o) => o.end > i.start && o.start < i.end)) continue;
    const before = near.filter((o) => o.end <= i.start);
    const shift = before.reduce((d, o) => d + o.suggestions[0].length - (o.end - o.start), 0);
    const t = apply(s, near);
    if (contextGain(lms, t, i.start + shift, i.end + shift, i.suggestions[0]) <= 0) drop.add(i);
  }
  return drop.size ? result.filter((i) => !drop.has(i)) : result;
}

/**
 * Two-character words written in the reverse order of another word (交通故事 → 交通事故, 我的中心 → 我的心中): both
 * orders are words, so only the context decides; each segment whose reverse is a common word, with its gain in nats
 * (the smaller of the two models') from reading it reversed.
 */
export function wordSwapGains(e: Engine, s: string, blocked?: Uint8Array): Array<{ at: number; gain: number }> {
  const out: Array<{ at: number; gain: number }> = [];
  const lms = e.lm2 ? [e.lm, e.lm2] : [e.lm];
  let at = 0;
  for (const w of e.lm.segment(s)) {
    const i = at;
    at += w.length;
    if (w.length !== 2 || w[0] === w[1] || !isHanWord(w) || NUMERAL_CHARS.includes(w[0])) continue;
    if (blocked && (blocked[i] || blocked[i + 1])) continue;
    const r = w[1] + w[0];
    if (!e.lm.has(r) || (e.dict.freq.get(r) ?? 0) < SWAP_WORD_FREQ) continue;
    let gain = contextGain(lms, s, i, i + 2, r);
    // read reversed, it makes a longer word with a neighbour that the written order makes with none (交通故事 →
    // 交通事故): evidence of its own, so one model's doubt on a segmentation quirk does not veto it; the newer
    // model weighs twice, as for non-words
    if (e.lm2 && gain < SWAP_WORD_GAIN && longerWord(e, s, i, r) && !longerWord(e, s, i, w)) {
      const g1 = contextGain([e.lm], s, i, i + 2, r),
        g2 = contextGain([e.lm2], s, i, i + 2, r);
      gain = Math.max(gain, (g1 + 2 * g2) / 3);
    }
    out.push({ at: i, gain });
  }
  return out;
}

/** the pair w, put at s[i, i + 2), makes a lexicon word of three or four with the characters before or after it */
function longerWord(e: Engine, s: string, i: number, w: string): boolean {
  for (let L = 3; L <= 4; L++) {
    const n = L - 2;
    if (i >= n && isHanWord(s.slice(i - n, i)) && e.lm.has(s.slice(i - n, i) + w)) return true;
    if (i + 2 + n <= s.length && isHanWord(s.slice(i + 2, i + 2 + n)) && e.lm.has(w + s.slice(i + 2, i + 2 + n)))
      return true;
  }
  return false;
}
const SWAP_WORD_FREQ = 200;
/** the gain a reversed word needs: on the tuning sentences wrong reversals gained up to 6 nats, only with numerals */
const SWAP_WORD_GAIN = 5;

const SPELLING = new Set(['1', '2', '5']);
const NUMERAL_CHARS = '零〇一二两三四五六七八九十百千万亿';

/** the opening bracket of the second closer in a doubled one (”） -> （) */
const bracketOf = (closer: string) => (closer[1] === ')' ? '(' : '（');

/** every suggestion only trades characters of a regional pair (过份 → 过分): usage in Hong Kong and Taiwan */
function regionalOnly(span: string, suggestions: string[]): boolean {
  if (suggestions.length === 0) return false;
  return suggestions.every((t) => {
    if (t.length !== span.length || t === span) return false;
    for (let k = 0; k < t.length; k++) if (t[k] !== span[k] && !regionalPair(t[k], span[k])) return false;
    return true;
  });
}

const logistic = (x: number) => 1 / (1 + Math.exp(-x));

/**
 * The confidence of findings that carry none: a list's word is the list's (dictionaries, sensitive words, common
 * miswritten words), a calendar or a punctuation norm is a fact; the grammar rules and the wording checks weigh
 * context and are less sure.
 */
function defaultConfidence(i: Issue): number {
  if (i.type !== undefined) return 1;
  const head = i.category.split('-')[0];
  if (head === '8' || head === '11') return 1;
  if (head === '9' || head === '10') return 0.95;
  if (head === '12') return 0.9;
  if (head === '0') return 0.85;
  if (head === '3' || head === '4' || head === '7') return 0.8;
  return 0.9;
}

/** a non-word finding as an issue: substitutions in the sound/shape families, the other edits as wording */
function nonwordIssue(e: Engine, f: NonWordFinding): Issue {
  const base = { start: f.start, end: f.end, original: '', suggestions: [f.repl] };
  switch (f.kind) {
    case 'sub': {
      let k = 0;
      while (f.written[k] === f.word[k]) k++;
      const x = f.written[k],
        y = f.word[k];
      const px = e.py.pretty(x),
        py = e.py.pretty(y);
      const args = { orig: f.written, cand: f.word, a: x, pa: px, b: y, pb: py };
      if (f.relation === 'other') {
        // (the non-word pass relates unrelated characters only inside an idiom)
        return { ...base, category: e.py.rhymes(x, y) ? '2' : '0', level: 1, ...noted('nonword.idiom', args) };
      }
      const why = f.relation === 'shape' || f.relation === 'fuzzy' ? f.relation : 'same';
      return { ...base, category: SPELL_CATEGORY[f.relation ?? 'same'], level: 1, ...noted(`spell.${why}`, args) };
    }
    case 'ins':
      return { ...base, category: '3', level: 1, ...noted('nonword.missing', { orig: f.written, cand: f.word }) };
    case 'del':
      return { ...base, category: '4', level: 1, ...noted('nonword.repeated', { word: f.word }) };
    case 'swap':
      return { ...base, category: '7', level: 1, ...noted('nonword.swap', { orig: f.written, cand: f.word }) };
  }
}

/** the longest lexicon word (4 down to 2 characters) of text that covers [start, end), or null */
function wordAround(e: Engine, text: string, start: number, end: number): [number, number] | null {
  for (let L = 4; L >= Math.max(2, end - start); L--) {
    for (let st = Math.max(0, end - L); st <= start && st + L <= text.length; st++) {
      if (e.lm.has(text.slice(st, st + L))) return [st, st + L];
    }
  }
  return null;
}

/**
 * A miswritten word found once is the same error where it recurs (我们去动物院……台北的动物院是……): the
 * word a spelling finding completes, when its written form is no word of either lexicon, is corrected the
 * same way at its other occurrences, and in its reduplicated form (经松 → 轻松, so 经经松松 → 轻轻松松).
 * Only words of the common-misspelling list and words of three characters or more. A two-character form
 * the speller corrected that recurs in the text is rather a name or an invented term (晓兰……晓兰, 神照镜,
 * 神照教, 玄玉 three times in a novel's sentence: on the development sets' even halves every such speller
 * finding but one was wrong), and those findings are dropped.
 * Protected spans and spans other findings hold are left alone.
 */
function repeatFixes(
  e: Engine,
  s: string,
  issues: Issue[],
  listed: Set<Issue>,
  blocked: Uint8Array,
): { add: Issue[]; drop: Set<Issue> } {
  const drop = new Set<Issue>();
  const spelled = issues.filter(
    (i) => SPELLING.has(i.category) && i.suggestions[0]?.length === i.end - i.start && i.type === undefined,
  );
  if (spelled.length === 0) return { add: [], drop };
  const held = new Uint8Array(blocked);
  for (const i of issues) held.fill(1, i.start, i.end);
  const fixed = s.split('');
  for (const i of spelled) for (let k = 0; k < i.end - i.start; k++) fixed[i.start + k] = i.suggestions[0][k];
  const right = fixed.join('');
  const out: Issue[] = [];
  const seen = new Set<string>();
  const free = (a: number, b: number) => {
    for (let k = a; k < b; k++) if (held[k]) return false;
    return true;
  };
  for (const f of spelled) {
    // the lexicon word (2-4 characters) that the corrected span completes
    const around = wordAround(e, right, f.start, f.end);
    if (!around) continue;
    const [lo, hi] = around;
    const wrong = s.slice(lo, hi),
      fix = right.slice(lo, hi);
    if (e.lm.has(wrong) || e.dict.freq.has(wrong) || (e.lm2?.has(wrong) ?? false)) continue;
    if (hi - lo < 3 && !listed.has(f)) {
      if (s.indexOf(wrong) !== s.lastIndexOf(wrong)) drop.add(f);
      continue;
    }
    if (seen.has(wrong)) continue;
    seen.add(wrong);
    // the reduplicated form first (经松 occurs inside 经经松松)
    const forms: Array<[string, string, { message: string; note?: Note }]> = [];
    if (wrong.length === 2) {
      const w2 = wrong[0] + wrong[0] + wrong[1] + wrong[1],
        r2 = fix[0] + fix[0] + fix[1] + fix[1];
      forms.push([w2, r2, noted('repeat.redup', { orig: w2, cand: r2, w: wrong, r: fix })]);
    }
    forms.push([wrong, fix, { message: f.message, note: f.note }]);
    for (const [w, r, said] of forms) {
      for (let p = s.indexOf(w); p >= 0; p = s.indexOf(w, p + 1)) {
        if (!free(p, p + w.length)) continue;
        // the differing characters only
        let a = 0,
          b = w.length;
        while (w[a] === r[a]) a++;
        while (w[b - 1] === r[b - 1]) b--;
        held.fill(1, p, p + w.length);
        out.push({
          start: p + a,
          end: p + b,
          original: '',
          suggestions: [r.slice(a, b)],
          category: f.category,
          level: 1,
          ...said,
        });
      }
    }
  }
  return { add: out, drop };
}

/** how much likelier (nats, the smaller gain of the two LMs) the right form must make its context */
const TYPO_GAIN = 1;
/** the same for a listed form kept apart by the segmentation: only not much less likely */
const TYPO_APART_GAIN = -4;

/** no word of the best segmentation of the Han run around [start, end) crosses either edge of the span */
function keptApart(e: Engine, s: string, start: number, end: number): boolean {
  const isHan = (k: number) => {
    const c = s.charCodeAt(k);
    return c >= 0x4e00 && c <= 0x9fff;
  };
  let a = start,
    b = end;
  while (a > 0 && isHan(a - 1)) a--;
  while (b < s.length && isHan(b)) b++;
  let k = a;
  for (const w of e.lm.segment(s.slice(a, b))) {
    const t = k + w.length;
    if ((k < start && t > start) || (k < end && t > end)) return false;
    k = t;
  }
  return true;
}

/**
 * The built-in list of common miswritten words (按步就班, 以经, 我门, 时侯), each reported only where
 * both language models find the right form likelier in its context (一前一后, 他门口 and 跟本人 stay).
 */
function checkTypos(e: Engine, s: string, blocked: Uint8Array, hk: boolean): Issue[] {
  const out: Issue[] = [];
  const lms = e.lm2 ? [e.lm, e.lm2] : [e.lm];
  for (const m of e.typos.find(s)) {
    if (blocked.subarray(m.start, m.end).includes(1)) continue;
    // a listed form that is no word and that the segmentation keeps apart (谈笑风声: 谈笑/风声 inside it, nothing
    // across its edges) is a slip whatever the models think of its context; one whose edges fall inside words
    // (可以经过 holds 以经) or that is a word itself (他门口) must make its context likelier
    const apart = !e.nonword.isWord(m.word) && keptApart(e, s, m.start, m.end);
    if (contextGain(lms, s, m.start, m.end, m.value) < (apart ? TYPO_APART_GAIN : TYPO_GAIN)) continue;
    if (m.word[0] === '既' && m.value[0] === '即' && correlative(s, m.start)) continue;
    let k = 0;
    while (m.word[k] === m.value[k]) k++;
    const a = m.word[k],
      b = m.value[k];
    // forms that are regional usage in Hong Kong and Taiwan (過份, 喝采) are not misspellings there
    if (hk && (regionalPair(a, b) || variantPair(a, b))) continue;
    // the category and the evidence follow the relation of the first differing characters (以/已 are a
    // special pair for the speller, here simply the word's usual misspelling: 1 with their readings); the
    // characters sharing a component in place are 形近 (言简意骇, 相形见拙), those that rhyme 谐音 (刻苦铭心,
    // 什么办), and the rest (破釜沉船, 挺身而去) plain misuse, 0
    const rel = e.speller.relation(a, b);
    const near = rel === 'fuzzy' || (!rel && e.py.rhymes(a, b));
    const category = near ? '2' : rel === 'shape' ? '5' : rel ? '1' : '0';
    const why = rel === 'shape' ? 'shape' : near ? 'fuzzy' : rel ? 'same' : 'plain';
    out.push({
      start: m.start,
      end: m.end,
      original: '',
      suggestions: [m.value],
      category,
      level: 1,
      ...noted(`typo.${why}`, { orig: m.word, cand: m.value, a, pa: e.py.pretty(a), b, pb: e.py.pretty(b) }),
    });
  }
  return out;
}

/**
 * 既 at i opens the correlative 既……又/也/且…… with the same verb repeated (既使企业得到实惠，又使群众享受便利;
 * 既要……也要): no slip for 即 (即使下雨，也要去 repeats no verb)
 */
function correlative(s: string, i: number): boolean {
  const verb = s[i + 1];
  if (!verb) return false;
  let end = s.slice(i).search(/[。！？!?\n]/);
  if (end < 0) end = s.length - i;
  const rest = s.slice(i + 2, i + end);
  return ['又', '也', '且', '还'].some((c) => rest.includes(c + verb));
}

/** a verb, an adverb or an adjective (jieba's tags) of two or three characters starts at i */
function negates(e: Engine, s: string, i: number): boolean {
  for (let L = 3; L >= 2; L--) {
    const tag = e.dict.pos.get(s.slice(i, i + L));
    if (tag && /^[vda]/.test(tag)) return true;
  }
  return false;
}

const NAME_TAGS = new Set(['nr', 'ns', 'nt', 'nrt', 'nz']);

/**
 * Marks in `mask` the longest dictionary name (person, place, organisation: 3 to 6 characters) starting at each
 * place, and in `common` the longest one seen at least minCount times (one pass for both masks).
 */
function markNames(e: Engine, s: string, mask: Uint8Array, common: Uint8Array, minCount: number) {
  const pos = e.dict.pos;
  for (let i = 0; i + 3 <= s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x4e00 || c > 0x9fff) continue;
    if (!e.namePrefixes.has(s.slice(i, i + 2))) continue;
    let named = false;
    for (let L = 6; L >= 3; L--) {
      if (i + L > s.length) continue;
      const w = s.slice(i, i + L);
      const p = pos.get(w);
      if (p === undefined || !NAME_TAGS.has(p)) continue;
      if (!named) mask.fill(1, i, i + L);
      named = true;
      if ((e.dict.freq.get(w) ?? 0) >= minCount) {
        common.fill(1, i, i + L);
        break;
      }
    }
  }
}

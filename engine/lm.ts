/**
 * Word bigram language model (derived from sunpinyin-data, CC BY-SA 3.0; see NOTICE.md)
 * with a Viterbi segmenter used to score short windows of text.
 * Costs are -ln P (smaller is better).
 */
import { readFileSync, existsSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StrList, filterMask, filterWord, mix32, type ImageReader, type ImageWriter } from './image';

export const dataDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'lexicon');

export const OOV_COST = 19;
/** 32 minus log2 of the size of the n-gram memos (see tri) */
const NGRAM_MEMO_SHIFT = 20;

export interface LmFiles {
  bin: string;
  vocab: string;
  tri: string;
}
const LM_FILES: LmFiles = { bin: 'lm.bin.gz', vocab: 'lm-vocab.txt.gz', tri: 'lm3.bin.gz' };

export class LanguageModel {
  /**
   * the model's own vocabulary (id -> word; entries of unigram probability 0 are not in the lattice); only while
   * building: a model read from an image finds words through its lattice trie
   */
  private vocab: StrList | null = null;
  private vocabCount: number;
  /** words added with addWords, in id order after the vocabulary */
  private extraWords: string[] = [];
  maxLen: number;
  private row: Uint32Array;
  private col: Uint32Array;
  private uniPr: Uint8Array;
  private uniBow: Int8Array;
  private biPr: Uint8Array;
  /**
   * which (p, w) have a bigram and which (u, v) a trigram context: most the lattice asks for are not in the model
   * (about 80 % of bigrams, 93 % of trigram contexts), and a binary search that finds nothing touches a cache line at
   * almost every step down a row of hundreds or thousands
   */
  private biFilter: RowFilter;
  private triFilter: RowFilter | null = null;

  /**
   * files: the unigram/bigram level, its vocabulary and the trigram level (lexicon/ names); or img: the same as
   * saved in an engine image under prefix p (see save)
   */
  constructor(files: LmFiles = LM_FILES, img: { r: ImageReader; p: string } | null = null) {
    if (img) {
      const { r, p } = img;
      const meta = r.f64(`${p}.meta`);
      [this.V, this.maxLen, this.shift] = [meta[0], meta[1], meta[2]];
      this.row = r.u32(`${p}.row`);
      this.col = r.u32(`${p}.col`);
      this.uniPr = r.u8(`${p}.uniPr`);
      this.uniBow = r.i8(`${p}.uniBow`);
      this.biPr = r.u8(`${p}.biPr`);
      this.vocabCount = meta[3];
      this.extraCost = r.f64(`${p}.extraCost`);
      this.trie = new FrozenTrie(r, `${p}.trie`);
      if (r.has(`${p}.triRow`)) {
        this.triRow = r.u32(`${p}.triRow`);
        this.triV = r.u32(`${p}.triV`);
        this.triStart = r.u32(`${p}.triStart`);
        this.triW = r.u32(`${p}.triW`);
        this.triBow = r.i8(`${p}.triBow`);
        this.triPr = r.u8(`${p}.triPr`);
        this.triFilter = new RowFilter(this.triRow, r.u32(`${p}.triFilter`));
      }
      this.biFilter = new RowFilter(this.row, r.u32(`${p}.biFilter`));
      return;
    }
    const buf = gunzipSync(readFileSync(path.join(dataDir, files.bin)));
    if (buf.toString('latin1', 0, 4) !== 'CSLM') throw new Error('bad lm.bin');
    const V = buf.readUInt32LE(8);
    const NB = buf.readUInt32LE(12);
    const ab = buf.buffer;
    let off = buf.byteOffset + 16;
    const take = <T>(ctor: (o: number) => T, bytes: number): T => {
      const t = ctor(off);
      off += bytes + ((4 - (bytes % 4)) % 4);
      return t;
    };
    // make sure offsets are aligned for Uint32Array views
    if (off % 4 !== 0) throw new Error('unaligned lm buffer');
    this.row = take((o) => new Uint32Array(ab, o, V + 1), (V + 1) * 4);
    this.col = take((o) => new Uint32Array(ab, o, NB), NB * 4);
    this.uniPr = take((o) => new Uint8Array(ab, o, V), V);
    this.uniBow = take((o) => new Int8Array(ab, o, V), V);
    this.biPr = take((o) => new Uint8Array(ab, o, NB), NB);
    const words = gunzipSync(readFileSync(path.join(dataDir, files.vocab)))
      .toString('utf8')
      .split('\n');
    this.vocab = StrList.from(words);
    this.V = this.vocabCount = words.length;
    const trie = new CharTrie();
    this.trie = trie;
    let maxLen = 1;
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      if (w && this.uniPr[i] > 0) {
        trie.add(w, i);
        if (w.length > maxLen) maxLen = w.length;
      }
    }
    this.maxLen = Math.min(maxLen, 8);
    const f3 = path.join(dataDir, files.tri);
    if (existsSync(f3) && process.env.ENGINE_NO_TRIGRAM !== '1') {
      const b3 = gunzipSync(readFileSync(f3));
      if (b3.toString('latin1', 0, 4) !== 'CSL3') throw new Error('bad lm3.bin');
      // version 1: context key u * 131072 + v; version 2 (vocabularies over 131072 words): u * 262144 + v
      this.shift = b3.readUInt32LE(4) === 2 ? 262144 : 131072;
      const C = b3.readUInt32LE(8);
      const T = b3.readUInt32LE(12);
      let o = b3.byteOffset + 16;
      if (o % 8 !== 0) throw new Error('unaligned lm3 buffer');
      const ab3 = b3.buffer;
      const take3 = <T>(ctor: (o: number) => T, bytes: number): T => {
        const t = ctor(o);
        o += bytes + ((8 - (bytes % 8)) % 8);
        return t;
      };
      const keys = take3((x) => new Float64Array(ab3, x, C), C * 8);
      this.triStart = take3((x) => new Uint32Array(ab3, x, C + 1), (C + 1) * 4);
      this.triW = take3((x) => new Uint32Array(ab3, x, T), T * 4);
      this.triBow = take3((x) => new Int8Array(ab3, x, C), C);
      this.triPr = take3((x) => new Uint8Array(ab3, x, T), T);
      // the contexts come sorted by (u, v): rows by u, each a sorted run of v
      const row = new Uint32Array(V + 1);
      const vs = new Uint32Array(C);
      let u = 0;
      for (let i = 0; i < C; i++) {
        const v = keys[i] % this.shift;
        const cu = (keys[i] - v) / this.shift;
        if (cu < u || cu >= V || (i > 0 && keys[i] <= keys[i - 1])) throw new Error('trigram contexts out of order');
        while (u < cu) row[++u] = i;
        vs[i] = v;
      }
      while (u < V) row[++u] = C;
      this.triRow = row;
      this.triV = vs;
      this.triFilter = RowFilter.build(row, vs);
    }
    this.biFilter = RowFilter.build(this.row, this.col);
  }

  /** writes the model (with the words added so far) to an engine image under prefix p */
  save(w: ImageWriter, p: string) {
    w.put(`${p}.meta`, Float64Array.of(this.V, this.maxLen, this.shift, this.vocabCount));
    w.put(`${p}.row`, this.row);
    w.put(`${p}.col`, this.col);
    w.put(`${p}.uniPr`, this.uniPr);
    w.put(`${p}.uniBow`, this.uniBow);
    w.put(`${p}.biPr`, this.biPr);
    w.put(`${p}.biFilter`, this.biFilter.bits);
    w.put(`${p}.extraCost`, Float64Array.from(this.extraCost));
    if (this.trie instanceof FrozenTrie) throw new Error('a model read from an engine image is saved already');
    this.trie.save(w, `${p}.trie`);
    if (this.triRow) {
      w.put(`${p}.triRow`, this.triRow);
      w.put(`${p}.triV`, this.triV);
      w.put(`${p}.triStart`, this.triStart);
      w.put(`${p}.triW`, this.triW);
      w.put(`${p}.triBow`, this.triBow);
      w.put(`${p}.triPr`, this.triPr);
      if (this.triFilter) w.put(`${p}.triFilter`, this.triFilter.bits);
    }
  }

  /** the word's id in the lattice (vocabulary or added word), or -1 */
  id(w: string): number {
    return this.idRange(w, 0, w.length);
  }

  /** id(s.slice(from, to)) without making the string */
  private idRange(s: string, from: number, to: number): number {
    let node = 0;
    for (let k = from; k < to && node >= 0; k++) node = this.trie.child(node, s.charCodeAt(k));
    return node < 0 ? -1 : this.trie.word[node];
  }

  /** number of entries in the model's own vocabulary */
  get vocabSize(): number {
    return this.vocabCount;
  }

  /** every word of the lattice with its id (while building: see vocab) */
  *entries(): IterableIterator<[string, number]> {
    const vocab = this.vocab;
    if (!vocab) throw new Error('the words of a model read from an engine image are not listed');
    for (let i = 0; i < vocab.length; i++) {
      if (this.uniPr[i] === 0 || vocab.lengthAt(i) === 0) continue;
      // a word listed twice lives in the lattice under its last id
      const w = vocab.at(i);
      if (this.id(w) === i) yield [w, i];
    }
    for (let i = 0; i < this.extraWords.length; i++) yield [this.extraWords[i], this.V + i];
  }

  /** trigram contexts (u, v): those of u at [triRow[u], triRow[u + 1]), their v sorted in triV */
  private triRow: Uint32Array<ArrayBufferLike> | null = null;
  private triV!: Uint32Array<ArrayBufferLike>;
  private shift = 131072;
  /** per context: its trigrams at [triStart[m], triStart[m + 1]) (word triW, cost triPr), its back-off triBow */
  private triStart!: Uint32Array<ArrayBufferLike>;
  private triW!: Uint32Array<ArrayBufferLike>;
  private triBow!: Int8Array<ArrayBufferLike>;
  private triPr!: Uint8Array<ArrayBufferLike>;

  /** -ln P(w | u v): the trigram when stored, else the context's back-off plus the bigram */
  tri(u: number, v: number, w: number): number {
    const h = (Math.imul(u, 0x9e3779b1) ^ Math.imul(v, 0x85ebca77) ^ Math.imul(w, 0xc2b2ae3d)) >>> NGRAM_MEMO_SHIFT;
    const keys = this.triMemoKey;
    const k = h * 3;
    if (keys[k] === u && keys[k + 1] === v && keys[k + 2] === w) return this.triMemo[h];
    return this.triMiss(u, v, w, h);
  }

  /**
   * tri for a trigram the memo lacks, then kept there under h. (Apart from tri, which stays small enough for V8 to
   * inline into the lattice: a double returned from a call that is not inlined is boxed, one allocation per answer.)
   */
  private triMiss(u: number, v: number, w: number, h: number): number {
    const row = this.triRow;
    const c = !row || u < 0 || u >= this.V || v >= this.V || w >= this.V ? this.bi(v, w) : this.triLookup(row, u, v, w);
    const keys = this.triMemoKey;
    keys[h * 3] = u;
    keys[h * 3 + 1] = v;
    keys[h * 3 + 2] = w;
    this.triMemo[h] = c;
    return c;
  }

  /**
   * The lattice asks for the same few trigrams again and again (every candidate at a place rescores the words after
   * it), and each lookup is two binary searches over arrays far larger than the caches: the last answers are kept in
   * a direct-mapped table keyed by (u, v, w).
   */
  private triMemoKey = new Int32Array(3 << (32 - NGRAM_MEMO_SHIFT)).fill(-2);
  private triMemo = new Float64Array(1 << (32 - NGRAM_MEMO_SHIFT));

  private triLookup(row: Uint32Array<ArrayBufferLike>, u: number, v: number, w: number): number {
    if (!this.triFilter!.has(u, v)) return this.bi(v, w);
    let lo = row[u],
      hi = row[u + 1] - 1;
    const vs = this.triV;
    while (lo <= hi) {
      const m = (lo + hi) >> 1;
      const c = vs[m];
      if (c < v) lo = m + 1;
      else if (c > v) hi = m - 1;
      else {
        for (let t = this.triStart[m]; t < this.triStart[m + 1]; t++) if (this.triW[t] === w) return this.triPr[t] / 10;
        return this.triBow[m] / 20 + this.bi(v, w);
      }
    }
    return this.bi(v, w);
  }

  private V = 0;
  /** the lattice's lookup: a character trie over the vocabulary (node -> word id or -1) */
  private trie: CharTrie | FrozenTrie;

  /** unigram costs of the added words (an image's view once read) */
  private extraCost: number[] | Float64Array<ArrayBufferLike> = [];

  /**
   * Adds words the LM does not know (e.g. dictionary words with counts) as unigram-only entries
   * with the given cost; contexts back off to their unigram.
   */
  addWords(words: Array<[string, number]>) {
    const costs = this.extraCost,
      trie = this.trie;
    if (!Array.isArray(costs) || trie instanceof FrozenTrie)
      throw new Error('a model read from an engine image is read only');
    this.segCache.clear();
    this.charCost.fill(NaN);
    this.prefixes = [newPrefix(), newPrefix()];
    this.walkS = null;
    for (const [w, cost] of words) {
      if (w.length > this.maxLen || this.id(w) >= 0) continue;
      trie.add(w, this.V + costs.length);
      costs.push(cost);
      this.extraWords.push(w);
    }
  }

  /** -ln P(w) */
  uni(w: number): number {
    if (this.V && w >= this.V) return this.extraCost[w - this.V];
    return this.uniPr[w] / 10;
  }

  /** -ln P(w | p) with back-off */
  bi(p: number, w: number): number {
    const h = (Math.imul(p, 0x9e3779b1) ^ Math.imul(w, 0x85ebca77)) >>> NGRAM_MEMO_SHIFT;
    const keys = this.biMemoKey;
    if (keys[2 * h] === p && keys[2 * h + 1] === w) return this.biMemo[h];
    const c = this.biMiss(p, w);
    keys[2 * h] = p;
    keys[2 * h + 1] = w;
    this.biMemo[h] = c;
    return c;
  }
  /** the bigram memo, as the trigram one (see tri) */
  private biMemoKey = new Int32Array(2 << (32 - NGRAM_MEMO_SHIFT)).fill(-2);
  private biMemo = new Float64Array(1 << (32 - NGRAM_MEMO_SHIFT));

  private biMiss(p: number, w: number): number {
    if (this.V && (p >= this.V || w >= this.V)) return (p >= this.V ? 0 : this.uniBow[p] / 20) + this.uni(w);
    if (!this.biFilter.has(p, w)) return this.uniBow[p] / 20 + this.uniPr[w] / 10;
    let lo = this.row[p];
    let hi = this.row[p + 1] - 1;
    const col = this.col;
    while (lo <= hi) {
      const m = (lo + hi) >> 1;
      const c = col[m];
      if (c === w) return this.biPr[m] / 10;
      if (c < w) lo = m + 1;
      else hi = m - 1;
    }
    return this.uniBow[p] / 20 + this.uniPr[w] / 10;
  }

  /** inBase(s.slice(from, to)) without making the string */
  inBaseRange(s: string, from: number, to: number): boolean {
    const id = this.idRange(s, from, to);
    return id >= 0 && id < this.V;
  }

  /** the word is in the LM's own vocabulary (not one added with addWords) */
  inBase(word: string): boolean {
    return this.inBaseRange(word, 0, word.length);
  }

  has(word: string): boolean {
    return this.id(word) >= 0;
  }

  /** unigram cost of a word or Infinity */
  wordCost(word: string): number {
    // single characters, the speller's hot case: looked up once each
    if (word.length === 1) return this.unitCost(word.charCodeAt(0));
    const id = this.id(word);
    return id < 0 ? Infinity : this.uni(id);
  }
  /** wordCost of the one-unit word with code c (no string made) */
  unitCost(c: number): number {
    const v = this.charCost[c];
    if (v === v) return v;
    const node = this.trie.child(0, c);
    const id = node < 0 ? -1 : this.trie.word[node];
    return (this.charCost[c] = id < 0 ? Infinity : this.uni(id));
  }
  /** wordCost of single UTF-16 units (NaN = not looked up yet) */
  private charCost = new Float64Array(65536).fill(NaN);

  /**
   * Best segmentation cost of s[from, to) (bigram Viterbi, beam of K states per position).
   * Characters with no lexicon entry cost OOV_COST each.
   */
  score(s: string, from = 0, to = s.length, K = 2): number {
    return this.scoreSub(s, from, to, -1, 0, K);
  }

  /**
   * score(s, from, to) with the unit at `at` read as `code`: a candidate in its place without making a string. The
   * lattice over [from, at) is the same for every candidate at a place, so it is kept for the last two (window start,
   * place) pairs (the speller's two windows at one place) and the words that cross into `at` are followed from where
   * it left them.
   */
  scoreSub(s: string, from: number, to: number, at: number, code: number, K = 2): number {
    const n = to - from;
    if (n <= 0) return 0;
    // states of prefix length i live at [i*K, i*K + cnt[i]): cost, last word id (-1 = OOV/boundary), the word before
    const need = (n + 1) * K;
    if (scratch.costs.length < need) {
      const m = Math.max(need, scratch.costs.length * 2);
      scratch.costs = new Float64Array(m);
      scratch.lasts = new Int32Array(m);
      scratch.prevs = new Int32Array(m);
    }
    if (scratch.cnt.length < n + 1) scratch.cnt = new Uint8Array(Math.max(n + 1, scratch.cnt.length * 2));
    const { costs, lasts, prevs, cnt } = scratch;
    const maxLen = this.maxLen;
    const trie = this.trie;
    const m = at > from && at < to ? at - from : 0;
    const prefix = m > 0 ? this.prefixAt(s, from, m, K) : null;
    let start = 0;
    cnt.fill(0, 0, n + 1);
    if (prefix) {
      // the lattice before `at`, then the words from there that cross into it
      // (a few entries: copied by hand, subarray views would be four objects a call)
      for (let k = 0; k <= m; k++) cnt[k] = prefix.cnt[k];
      for (let k = 0; k < (m + 1) * K; k++) {
        costs[k] = prefix.costs[k];
        lasts[k] = prefix.lasts[k];
        prevs[k] = prefix.prevs[k];
      }
      for (let i = 0; i < m; i++) {
        let node = prefix.nodes[i];
        if (node < 0) continue;
        const pn = cnt[i],
          pb = i * K;
        const lim = Math.min(maxLen, n - i);
        for (let L = m - i + 1; L <= lim; L++) {
          const p = from + i + L - 1;
          node = trie.child(node, p === at ? code : s.charCodeAt(p));
          if (node < 0) break;
          const id = trie.word[node];
          if (id < 0) continue;
          this.relax(costs, lasts, prevs, cnt, pb, pn, id, i + L, K);
        }
      }
      start = m;
    } else {
      costs[0] = 0;
      lasts[0] = -1;
      prevs[0] = -1;
      cnt[0] = 1;
    }
    // a candidate's windows are scored over the same text again and again: the words that start at a place whose
    // walk does not reach the candidate are the text's, walked once (see wordsFrom)
    const walked = at >= 0;
    if (walked && s !== this.walkS) this.walkReset(s);
    const walkId = this.walkId,
      walkLen = this.walkLen;
    for (let i = start; i < n; i++) {
      const pn = cnt[i];
      if (pn === 0) continue;
      const pb = i * K;
      let any = false;
      const lim = Math.min(maxLen, n - i);
      const q = from + i;
      if (walked && (at < q || at >= q + lim)) {
        const k = this.wordsFrom(s, q);
        for (let j = q * maxLen, e = j + k; j < e; j++) {
          const L = walkLen[j];
          if (L > lim) break;
          any = true;
          this.relax(costs, lasts, prevs, cnt, pb, pn, walkId[j], i + L, K);
        }
      } else {
        for (let L = 1, node = 0; L <= lim; L++) {
          const p = q + L - 1;
          node = trie.child(node, p === at ? code : s.charCodeAt(p));
          if (node < 0) break;
          const id = trie.word[node];
          if (id < 0) continue;
          any = true;
          this.relax(costs, lasts, prevs, cnt, pb, pn, id, i + L, K);
        }
      }
      if (!any) {
        let best = Infinity;
        for (let k = pb; k < pb + pn; k++) if (costs[k] < best) best = costs[k];
        pushState(costs, lasts, prevs, cnt, i + 1, K, best + OOV_COST, -1, -1);
      }
    }
    let best = Infinity;
    for (let k = n * K; k < n * K + cnt[n]; k++) if (costs[k] < best) best = costs[k];
    return best;
  }

  /**
   * The words of the last text scoreSub took a candidate in: per place q, walkN[q] words (-1: not walked yet), their
   * ids and lengths at walkId and walkLen[q * maxLen ...], shortest first.
   */
  private walkS: string | null = null;
  private walkN = new Int8Array(0);
  private walkId = new Int32Array(0);
  private walkLen = new Uint8Array(0);

  private walkReset(s: string) {
    this.walkS = s;
    if (this.walkN.length < s.length) {
      const size = Math.max(s.length, this.walkN.length * 2, 64);
      this.walkN = new Int8Array(size);
      this.walkId = new Int32Array(size * this.maxLen);
      this.walkLen = new Uint8Array(size * this.maxLen);
    }
    this.walkN.fill(-1, 0, s.length);
  }

  /** the number of words of s (the text of walkReset) that start at q, walked when first asked */
  private wordsFrom(s: string, q: number): number {
    let k = this.walkN[q];
    if (k >= 0) return k;
    k = 0;
    const trie = this.trie,
      base = q * this.maxLen,
      lim = Math.min(this.maxLen, s.length - q);
    for (let L = 1, node = 0; L <= lim; L++) {
      node = trie.child(node, s.charCodeAt(q + L - 1));
      if (node < 0) break;
      const id = trie.word[node];
      if (id < 0) continue;
      this.walkId[base + k] = id;
      this.walkLen[base + k] = L;
      k++;
    }
    this.walkN[q] = k;
    return k;
  }

  /** the cheapest way into word `id` from the pn states at pb, pushed as a state of prefix length `to` */
  private relax(
    costs: Float64Array,
    lasts: Int32Array,
    prevs: Int32Array,
    cnt: Uint8Array,
    pb: number,
    pn: number,
    id: number,
    to: number,
    K: number,
  ) {
    let best = Infinity;
    let bestPrev = -1;
    for (let k = pb; k < pb + pn; k++) {
      const c = costs[k] + (lasts[k] < 0 ? this.uni(id) : this.tri(prevs[k], lasts[k], id));
      if (c < best) {
        best = c;
        bestPrev = lasts[k];
      }
    }
    pushState(costs, lasts, prevs, cnt, to, K, best, id, bestPrev);
  }

  /** the lattices of the last two places (see scoreSub), the older replaced first */
  private prefixes: [Prefix, Prefix] = [newPrefix(), newPrefix()];
  private prefixTurn = 0;

  /**
   * The lattice over s[from, from + m): states at prefix lengths 0..m, and per start the trie node its walk reached
   * at from + m (-1: no longer word goes on). Null when a start there has no word inside the prefix: whether it
   * counts as an unknown character then depends on the words that cross, so the caller works it all out.
   */
  private prefixAt(s: string, from: number, m: number, K: number): Prefix | null {
    for (const p of this.prefixes) if (p.s === s && p.from === from && p.m === m && p.K === K) return p.ok ? p : null;
    const p = this.prefixes[this.prefixTurn];
    this.prefixTurn ^= 1;
    p.s = s;
    p.from = from;
    p.m = m;
    p.K = K;
    p.ok = false;
    if (p.cnt.length < m + 1) {
      const size = Math.max(m + 1, p.cnt.length * 2);
      p.cnt = new Uint8Array(size);
      p.nodes = new Int32Array(size);
      p.costs = new Float64Array(size * K);
      p.lasts = new Int32Array(size * K);
      p.prevs = new Int32Array(size * K);
    } else if (p.costs.length < (m + 1) * K) {
      p.costs = new Float64Array(p.cnt.length * K);
      p.lasts = new Int32Array(p.cnt.length * K);
      p.prevs = new Int32Array(p.cnt.length * K);
    }
    const { costs, lasts, prevs, cnt, nodes } = p;
    cnt.fill(0, 0, m + 1);
    costs[0] = 0;
    lasts[0] = -1;
    prevs[0] = -1;
    cnt[0] = 1;
    const maxLen = this.maxLen;
    const trie = this.trie;
    for (let i = 0; i < m; i++) {
      nodes[i] = -1;
      const pn = cnt[i];
      if (pn === 0) continue;
      const pb = i * K;
      let any = false;
      const lim = Math.min(maxLen, m - i);
      let node = 0;
      let L = 1;
      for (; L <= lim; L++) {
        node = trie.child(node, s.charCodeAt(from + i + L - 1));
        if (node < 0) break;
        const id = trie.word[node];
        if (id < 0) continue;
        any = true;
        this.relax(costs, lasts, prevs, cnt, pb, pn, id, i + L, K);
      }
      if (!any) return null;
      // the walk went through to the place and a longer word may still cross it
      if (L > m - i && m - i < maxLen) nodes[i] = node;
    }
    p.ok = true;
    return p;
  }

  /** the last segmentations (the usage rules and the speller segment the same runs): do not modify them */
  private segCache = new Map<string, string[]>();

  /** best segmentation of s as words (unigram+bigram Viterbi with back-pointers); the array is shared, read only */
  segment(s: string): string[] {
    const hit = this.segCache.get(s);
    if (hit) return hit;
    const out = this.segmentUncached(s);
    if (this.segCache.size >= 256) this.segCache.clear();
    this.segCache.set(s, out);
    return out;
  }

  private segmentUncached(s: string): string[] {
    const n = s.length;
    const best = new Float64Array(n + 1).fill(Infinity);
    const back = new Int32Array(n + 1);
    const lastId = new Int32Array(n + 1).fill(-1);
    best[0] = 0;
    for (let i = 0; i < n; i++) {
      if (best[i] === Infinity) continue;
      let any = false;
      for (let L = 1, node = 0; L <= Math.min(this.maxLen, n - i); L++) {
        node = this.trie.child(node, s.charCodeAt(i + L - 1));
        if (node < 0) break;
        const id = this.trie.word[node];
        if (id < 0) continue;
        any = true;
        const c = best[i] + (lastId[i] < 0 ? this.uni(id) : this.bi(lastId[i], id));
        if (c < best[i + L]) {
          best[i + L] = c;
          back[i + L] = i;
          lastId[i + L] = id;
        }
      }
      if (!any && best[i] + OOV_COST < best[i + 1]) {
        best[i + 1] = best[i] + OOV_COST;
        back[i + 1] = i;
        lastId[i + 1] = -1;
      }
    }
    const out: string[] = [];
    for (let e = n; e > 0; e = back[e]) out.push(s.slice(back[e], e));
    return out.reverse();
  }
}

/**
 * Words as a character trie: children found by open addressing on (node, UTF-16 unit), word[node] = the word's
 * id or -1 for a node that only begins longer words. Cheaper than hashing a new substring per step.
 */
class CharTrie {
  /** per node: word id or -1 */
  word = new Int32Array(1 << 16).fill(-1);
  private nodes = 1;
  private parent = new Int32Array(1 << 17).fill(-1);
  private code = new Uint16Array(1 << 17);
  private next = new Int32Array(1 << 17);

  /** saves the trie in its compact form (see FrozenTrie) */
  save(w: ImageWriter, p: string) {
    // children per node, sorted by unit
    const kids: Array<Array<[number, number]>> = Array.from({ length: this.nodes }, () => []);
    for (let h = 0; h < this.parent.length; h++)
      if (this.parent[h] >= 0) kids[this.parent[h]].push([this.code[h], this.next[h]]);
    // breadth first: a node's children get consecutive numbers
    const first = new Uint32Array(this.nodes + 1);
    const code = new Uint16Array(this.nodes);
    const word = new Int32Array(this.nodes).fill(-1);
    const queue = [0];
    let n = 1;
    for (let q = 0; q < queue.length; q++) {
      const old = queue[q];
      word[q] = this.word[old];
      first[q] = n;
      for (const [c, child] of kids[old].sort((x, y) => x[0] - y[0])) {
        code[n++] = c;
        queue.push(child);
      }
    }
    first[this.nodes] = n;
    const root = new Int32Array(65536).fill(-1);
    for (let k = first[0]; k < first[1]; k++) root[code[k]] = k;
    w.put(`${p}.first`, first);
    w.put(`${p}.code`, code);
    w.put(`${p}.word`, word);
    w.put(`${p}.root`, root);
  }

  child(node: number, c: number): number {
    const mask = this.parent.length - 1;
    for (let h = slotOf(node, c) & mask; ; h = (h + 1) & mask) {
      const p = this.parent[h];
      if (p < 0) return -1;
      if (p === node && this.code[h] === c) return this.next[h];
    }
  }

  add(w: string, id: number) {
    let node = 0;
    for (let k = 0; k < w.length; k++) {
      const c = w.charCodeAt(k);
      let n = this.child(node, c);
      if (n < 0) {
        n = this.nodes++;
        if (n >= this.word.length) {
          const g = new Int32Array(this.word.length * 2).fill(-1);
          g.set(this.word);
          this.word = g;
        }
        if (2 * this.nodes > this.parent.length) this.grow();
        this.put(node, c, n);
      }
      node = n;
    }
    this.word[node] = id;
  }

  private put(node: number, c: number, n: number) {
    const mask = this.parent.length - 1;
    let h = slotOf(node, c) & mask;
    while (this.parent[h] >= 0) h = (h + 1) & mask;
    this.parent[h] = node;
    this.code[h] = c;
    this.next[h] = n;
  }

  private grow() {
    const { parent, code, next } = this;
    this.parent = new Int32Array(parent.length * 2).fill(-1);
    this.code = new Uint16Array(parent.length * 2);
    this.next = new Int32Array(parent.length * 2);
    for (let h = 0; h < parent.length; h++) if (parent[h] >= 0) this.put(parent[h], code[h], next[h]);
  }
}

/**
 * A CharTrie as an engine image holds it: nodes numbered breadth first, so a node's children are the consecutive
 * nodes [first[node], first[node + 1]), each with the unit that leads to it (code, sorted); the root's children
 * also by unit directly. A third of the hash table's size.
 */
class FrozenTrie {
  private first: Uint32Array<ArrayBufferLike>;
  private code: Uint16Array<ArrayBufferLike>;
  private root: Int32Array<ArrayBufferLike>;
  readonly word: Int32Array<ArrayBufferLike>;
  constructor(r: ImageReader, p: string) {
    this.first = r.u32(`${p}.first`);
    this.code = r.u16(`${p}.code`);
    this.word = r.i32(`${p}.word`);
    this.root = r.i32(`${p}.root`);
  }

  child(node: number, c: number): number {
    if (node === 0) return this.root[c];
    let lo = this.first[node],
      hi = this.first[node + 1] - 1;
    const code = this.code;
    while (lo <= hi) {
      const m = (lo + hi) >> 1;
      const x = code[m];
      if (x < c) lo = m + 1;
      else if (x > c) hi = m - 1;
      else return m;
    }
    return -1;
  }
}

/**
 * A filter (HashFilter's bits and words) of the pairs (a, b[k]), k in [row[a], row[a + 1]): a's pairs get a stretch
 * of words of their own, placed as row places a's entries. The lattice asks about one context's pairs many times over
 * (every candidate at a place follows the same words): they share a few cache lines instead of one line each.
 */
export class RowFilter {
  constructor(
    private row: Uint32Array<ArrayBufferLike>,
    readonly bits: Uint32Array<ArrayBufferLike>,
  ) {}

  static build(row: Uint32Array<ArrayBufferLike>, b: Uint32Array<ArrayBufferLike>): RowFilter {
    const f = new RowFilter(row, new Uint32Array(Math.floor((row[row.length - 1] * 3) / 8) + 1));
    for (let a = 0; a + 1 < row.length; a++)
      for (let k = row[a]; k < row[a + 1]; k++) {
        const h = mix32(b[k]);
        f.bits[f.wordOf(a, h)] |= filterMask(h);
      }
    return f;
  }

  /** the word of pair (a, b) with hash h of b: twelve bits, three eighths of a word, per entry of a's row */
  private wordOf(a: number, h: number): number {
    const lo = Math.floor((this.row[a] * 3) / 8),
      n = Math.max(1, Math.floor((this.row[a + 1] * 3) / 8) - lo);
    return lo + filterWord(h, n);
  }

  has(a: number, b: number): boolean {
    const h = mix32(b);
    const m = filterMask(h);
    return (this.bits[this.wordOf(a, h)] & m) === m;
  }
}

/** hash of a trie edge (node, UTF-16 unit) */
function slotOf(node: number, c: number): number {
  return (Math.imul(node, 0x9e3779b1) ^ Math.imul(c + 0x632be5ab, 0x85ebca6b)) >>> 0;
}

/**
 * How much likelier the language models find s with s[start, end) replaced by repl, over up to W Chinese
 * characters on each side (the window stops at anything else): the smallest gain in nats over the models.
 */
export function contextGain(lms: LanguageModel[], s: string, start: number, end: number, repl: string, W = 4): number {
  const han = (k: number) => {
    const c = s.charCodeAt(k);
    return c >= 0x4e00 && c <= 0x9fff;
  };
  let lo = start,
    hi = end;
  while (lo > 0 && start - lo < W && han(lo - 1)) lo--;
  while (hi < s.length && hi - end < W && han(hi)) hi++;
  const L = s.slice(lo, start),
    R = s.slice(end, hi),
    orig = s.slice(start, end);
  let g = Infinity;
  for (const m of lms) g = Math.min(g, m.score(L + orig + R) - m.score(L + repl + R));
  return g;
}

/** a lattice kept by LanguageModel.prefixAt */
interface Prefix {
  s: string | null;
  from: number;
  m: number;
  K: number;
  ok: boolean;
  cnt: Uint8Array;
  nodes: Int32Array;
  costs: Float64Array;
  lasts: Int32Array;
  prevs: Int32Array;
}
function newPrefix(): Prefix {
  const size = 16;
  return {
    s: null,
    from: 0,
    m: 0,
    K: 0,
    ok: false,
    cnt: new Uint8Array(size),
    nodes: new Int32Array(size),
    costs: new Float64Array(size * 2),
    lasts: new Int32Array(size * 2),
    prevs: new Int32Array(size * 2),
  };
}

/** scratch buffers of LanguageModel.score (single-threaded: one set per process) */
const scratch = {
  costs: new Float64Array(256),
  lasts: new Int32Array(256),
  prevs: new Int32Array(256),
  cnt: new Uint8Array(128),
};

/**
 * adds state (c, id, prev) to position at's beam of K: the same last word keeps the cheaper; a full beam replaces its
 * worst
 */
function pushState(
  cs: Float64Array,
  ls: Int32Array,
  ps: Int32Array,
  cnt: Uint8Array,
  at: number,
  K: number,
  c: number,
  id: number,
  prev: number,
) {
  const b = at * K;
  const m = cnt[at];
  for (let k = b; k < b + m; k++) {
    if (ls[k] === id) {
      if (c < cs[k]) {
        cs[k] = c;
        ps[k] = prev;
      }
      return;
    }
  }
  if (m < K) {
    cs[b + m] = c;
    ls[b + m] = id;
    ps[b + m] = prev;
    cnt[at] = m + 1;
    return;
  }
  let worst = b;
  for (let k = b + 1; k < b + m; k++) if (cs[k] > cs[worst]) worst = k;
  if (c < cs[worst]) {
    cs[worst] = c;
    ls[worst] = id;
    ps[worst] = prev;
  }
}

/**
 * Word bigram language model (derived from sunpinyin-data, CC BY-SA 3.0; see NOTICE.md)
 * with a Viterbi segmenter used to score short windows of text.
 * Costs are -ln P (smaller is better).
 */
import { readFileSync, existsSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const dataDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'lexicon');

export const OOV_COST = 19;

export class LanguageModel {
  readonly vocab: string[];
  readonly ids = new Map<string, number>();
  readonly maxLen: number;
  private row: Uint32Array;
  private col: Uint32Array;
  private uniPr: Uint8Array;
  private uniBow: Int8Array;
  private biPr: Uint8Array;

  /** files: the unigram/bigram level, its vocabulary and the trigram level (lexicon/ names) */
  constructor(files: { bin: string; vocab: string; tri: string } = { bin: 'lm.bin.gz', vocab: 'lm-vocab.txt.gz', tri: 'lm3.bin.gz' }) {
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
    const aligned = off % 4 === 0 ? null : Buffer.from(buf.subarray(16));
    if (aligned) throw new Error('unaligned lm buffer');
    this.row = take((o) => new Uint32Array(ab, o, V + 1), (V + 1) * 4);
    this.col = take((o) => new Uint32Array(ab, o, NB), NB * 4);
    this.uniPr = take((o) => new Uint8Array(ab, o, V), V);
    this.uniBow = take((o) => new Int8Array(ab, o, V), V);
    this.biPr = take((o) => new Uint8Array(ab, o, NB), NB);
    this.vocab = gunzipSync(readFileSync(path.join(dataDir, files.vocab))).toString('utf8').split('\n');
    let maxLen = 1;
    for (let i = 0; i < this.vocab.length; i++) {
      const w = this.vocab[i];
      if (w && this.uniPr[i] > 0) {
        this.ids.set(w, i);
        this.addLex(w, i);
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
      const take3 = <T>(ctor: (o: number) => T, bytes: number): T => { const t = ctor(o); o += bytes + ((8 - (bytes % 8)) % 8); return t; };
      this.triKeys = take3((x) => new Float64Array(ab3, x, C), C * 8);
      this.triStart = take3((x) => new Uint32Array(ab3, x, C + 1), (C + 1) * 4);
      this.triW = take3((x) => new Uint32Array(ab3, x, T), T * 4);
      this.triBow = take3((x) => new Int8Array(ab3, x, C), C);
      this.triPr = take3((x) => new Uint8Array(ab3, x, T), T);
      // one-hash bit filter over the contexts: most (u, v) pairs have no trigram, skip their search
      const bits = new Uint8Array(1 << 21);
      const us = new Int32Array(C), vs = new Int32Array(C);
      for (let i = 0; i < C; i++) {
        const key = this.triKeys[i];
        vs[i] = key % this.shift;
        us[i] = (key - vs[i]) / this.shift;
        const h = ctxHash(us[i], vs[i]);
        bits[h >>> 3] |= 1 << (h & 7);
      }
      this.triBits = bits;
      // open addressing over the contexts (load <= 1/2): a probe or two instead of a binary search
      let size = 1;
      while (size < 2 * C) size <<= 1;
      const slots = new Int32Array(size).fill(-1);
      const mask = size - 1;
      for (let i = 0; i < C; i++) {
        let h = ctxSlot(us[i], vs[i]) & mask;
        while (slots[h] >= 0) h = (h + 1) & mask;
        slots[h] = i;
      }
      this.triSlots = slots;
    }
  }
  private triSlots!: Int32Array;

  private triKeys: Float64Array | null = null;
  private shift = 131072;
  private triBits!: Uint8Array;
  private triStart!: Uint32Array;
  private triW!: Uint32Array;
  private triBow!: Int8Array;
  private triPr!: Uint8Array;

  /** -ln P(w | u v): the trigram when stored, else the context's back-off plus the bigram */
  tri(u: number, v: number, w: number): number {
    const keys = this.triKeys;
    if (!keys || u < 0 || (this.V && (u >= this.V || v >= this.V || w >= this.V))) return this.bi(v, w);
    const key = u * this.shift + v;
    const h = ctxHash(u, v);
    if ((this.triBits[h >>> 3] & (1 << (h & 7))) === 0) return this.bi(v, w);
    const slots = this.triSlots;
    const mask = slots.length - 1;
    for (let s = ctxSlot(u, v) & mask; ; s = (s + 1) & mask) {
      const m = slots[s];
      if (m < 0) return this.bi(v, w);
      if (keys[m] === key) {
        for (let t = this.triStart[m]; t < this.triStart[m + 1]; t++) if (this.triW[t] === w) return this.triPr[t] / 10;
        return this.triBow[m] / 20 + this.bi(v, w);
      }
    }
  }

  private V = 0;
  /** the lattice's lookup: a character trie over the vocabulary (node -> word id or -1) */
  private trie = new CharTrie();

  private addLex(w: string, id: number) {
    this.trie.add(w, id);
  }
  private extraCost: number[] = [];

  /**
   * Adds words the LM does not know (e.g. dictionary words with counts) as unigram-only entries
   * with the given cost; contexts back off to their unigram.
   */
  addWords(words: Array<[string, number]>) {
    if (this.V === 0) this.V = this.vocab.length;
    this.segCache.clear();
    this.charCost.fill(NaN);
    for (const [w, cost] of words) {
      if (this.ids.has(w) || w.length > this.maxLen) continue;
      this.ids.set(w, this.V + this.extraCost.length);
      this.addLex(w, this.V + this.extraCost.length);
      this.extraCost.push(cost);
    }
  }

  /** -ln P(w) */
  uni(w: number): number {
    if (this.V && w >= this.V) return this.extraCost[w - this.V];
    return this.uniPr[w] / 10;
  }

  /** -ln P(w | p) with back-off */
  bi(p: number, w: number): number {
    if (this.V && (p >= this.V || w >= this.V)) return (p >= this.V ? 0 : this.uniBow[p] / 20) + this.uni(w);
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

  /** the word is in the LM's own vocabulary (not one added with addWords) */
  inBase(word: string): boolean {
    const id = this.ids.get(word);
    return id !== undefined && (this.V === 0 || id < this.V);
  }

  has(word: string): boolean {
    return this.ids.has(word);
  }

  /** unigram cost of a word or Infinity */
  wordCost(word: string): number {
    if (word.length === 1) {
      // single characters, the speller's hot case: looked up once each
      const c = word.charCodeAt(0);
      const v = this.charCost[c];
      if (v === v) return v;
      const id = this.ids.get(word);
      return (this.charCost[c] = id === undefined ? Infinity : this.uni(id));
    }
    const id = this.ids.get(word);
    return id === undefined ? Infinity : this.uni(id);
  }
  /** wordCost of single UTF-16 units (NaN = not looked up yet) */
  private charCost = new Float64Array(65536).fill(NaN);

  /**
   * Best segmentation cost of s[from, to) (bigram Viterbi, beam of K states per position).
   * Characters with no lexicon entry cost OOV_COST each.
   */
  score(s: string, from = 0, to = s.length, K = 2): number {
    const n = to - from;
    if (n <= 0) return 0;
    // states of prefix length i live at [i*K, i*K + cnt[i]): cost, last word id (-1 = OOV/boundary), the word before
    const need = (n + 1) * K;
    if (scratch.costs.length < need) {
      const m = Math.max(need, scratch.costs.length * 2);
      scratch.costs = new Float64Array(m); scratch.lasts = new Int32Array(m); scratch.prevs = new Int32Array(m);
    }
    if (scratch.cnt.length < n + 1) scratch.cnt = new Uint8Array(Math.max(n + 1, scratch.cnt.length * 2));
    const { costs, lasts, prevs, cnt } = scratch;
    cnt.fill(0, 0, n + 1);
    costs[0] = 0; lasts[0] = -1; prevs[0] = -1; cnt[0] = 1;
    const maxLen = this.maxLen;
    const trie = this.trie;
    for (let i = 0; i < n; i++) {
      const pn = cnt[i];
      if (pn === 0) continue;
      const pb = i * K;
      let any = false;
      const lim = Math.min(maxLen, n - i);
      for (let L = 1, node = 0; L <= lim; L++) {
        node = trie.child(node, s.charCodeAt(from + i + L - 1));
        if (node < 0) break;
        const id = trie.word[node];
        if (id < 0) continue;
        any = true;
        let best = Infinity;
        let bestPrev = -1;
        for (let k = pb; k < pb + pn; k++) {
          const c = costs[k] + (lasts[k] < 0 ? this.uni(id) : this.tri(prevs[k], lasts[k], id));
          if (c < best) { best = c; bestPrev = lasts[k]; }
        }
        pushState(costs, lasts, prevs, cnt, i + L, K, best, id, bestPrev);
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
        if (c < best[i + L]) { best[i + L] = c; back[i + L] = i; lastId[i + L] = id; }
      }
      if (!any && best[i] + OOV_COST < best[i + 1]) { best[i + 1] = best[i] + OOV_COST; back[i + 1] = i; lastId[i + 1] = -1; }
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
        if (n >= this.word.length) { const g = new Int32Array(this.word.length * 2).fill(-1); g.set(this.word); this.word = g; }
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
    this.parent[h] = node; this.code[h] = c; this.next[h] = n;
  }

  private grow() {
    const { parent, code, next } = this;
    this.parent = new Int32Array(parent.length * 2).fill(-1);
    this.code = new Uint16Array(parent.length * 2);
    this.next = new Int32Array(parent.length * 2);
    for (let h = 0; h < parent.length; h++) if (parent[h] >= 0) this.put(parent[h], code[h], next[h]);
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
  const han = (k: number) => { const c = s.charCodeAt(k); return c >= 0x4e00 && c <= 0x9fff; };
  let lo = start, hi = end;
  while (lo > 0 && start - lo < W && han(lo - 1)) lo--;
  while (hi < s.length && hi - end < W && han(hi)) hi++;
  const L = s.slice(lo, start), R = s.slice(end, hi), orig = s.slice(start, end);
  let g = Infinity;
  for (const m of lms) g = Math.min(g, m.score(L + orig + R) - m.score(L + repl + R));
  return g;
}

/** 24-bit hash of a trigram context (u, v), for the bit filter */
function ctxHash(u: number, v: number): number {
  return (Math.imul(u, 0x9e3779b1) ^ Math.imul(v + 0x7f4a7c15, 0x85ebca6b)) >>> 8;
}

/** 32-bit hash of a trigram context (u, v) for the open-addressing table (independent of ctxHash's bits) */
function ctxSlot(u: number, v: number): number {
  return (Math.imul(v, 0xcc9e2d51) ^ Math.imul(u + 0x1b873593, 0x2545f491) ^ (v >>> 7)) >>> 0;
}

/** scratch buffers of LanguageModel.score (single-threaded: one set per process) */
const scratch = { costs: new Float64Array(256), lasts: new Int32Array(256), prevs: new Int32Array(256), cnt: new Uint8Array(128) };

/** adds state (c, id, prev) to position at's beam of K: the same last word keeps the cheaper; a full beam replaces its worst */
function pushState(cs: Float64Array, ls: Int32Array, ps: Int32Array, cnt: Uint8Array, at: number, K: number, c: number, id: number, prev: number) {
  const b = at * K;
  const m = cnt[at];
  for (let k = b; k < b + m; k++) {
    if (ls[k] === id) {
      if (c < cs[k]) { cs[k] = c; ps[k] = prev; }
      return;
    }
  }
  if (m < K) { cs[b + m] = c; ls[b + m] = id; ps[b + m] = prev; cnt[at] = m + 1; return; }
  let worst = b;
  for (let k = b + 1; k < b + m; k++) if (cs[k] > cs[worst]) worst = k;
  if (c < cs[worst]) { cs[worst] = c; ls[worst] = id; ps[worst] = prev; }
}

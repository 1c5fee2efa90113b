/**
 * Reader for KenLM *binary* language models ("mmap lm http://kheafield.com/code format version 5"),
 * model type QUANT_ARRAY_TRIE (= 5: trie search, SeparatelyQuantize'd probabilities/back-offs,
 * ArrayBhiksha-compressed next pointers), and a dumper that writes every n-gram as text.
 *
 * Written for engine data derivation from Debian's libime-data-language-model
 * (/usr/lib/x86_64-linux-gnu/libime/zh_CN.lm, a Chinese word trigram model built by libime's
 * data/CMakeLists.txt with `slm_build_binary -s -a 22 -q 8 trie`, i.e. the KenLM bundled in fcitx/libime;
 * the model data is LGPL-2.1-or-later). The runtime never reads .lm files.
 *
 * Things to know about the values: unigram probabilities/back-offs are exact float32; higher orders
 * are quantised to 2^prob_bits / 2^backoff_bits levels (8 bits each in zh_CN.lm), so they carry
 * quantisation error. KenLM also stores middle-order "blank" n-grams it had to add for contexts that
 * the ARPA file pruned (their probability is the backed-off estimate); they are dumped like the others.
 * zh_CN.lm has no <s> / </s> (built with -s), so distributions sum to somewhat less than 1.
 *
 * Usage: npx tsx engine/tools/kenlm-dump.ts IN.lm OUT.tsv.gz
 *   writes gzip'd lines `order<TAB>w1 w2 ...<TAB>log10prob<TAB>log10backoff`
 *   (back-off 0 where there is none and for the highest order), unigrams first, then bigrams, ...;
 *   within an order, n-grams come out in trie order, i.e. KenLM's suffix order: sorted by the LAST word's
 *   id, then by the word before it, and so on (see "reversed trie" below).
 *
 * Other scripts can `import { readKenlm } from './kenlm-dump'`.
 *
 * File layout (all little-endian; references are to kpu/kenlm sources):
 *  - lm/binary_format.cc  Sanity struct: 56-byte magic (53 bytes incl. two NULs, ALIGN8), floats 0, 1, -0.5,
 *    uint32 1, uint32 0xffffffff, uint32 padding, uint64 1  (88 bytes);
 *    FixedWidthParameters: uchar order, float probing_multiplier, int model_type, bool has_vocabulary,
 *    uint search_version (20 bytes with C padding); uint64 counts[order]; padded to 8 bytes.
 *  - lm/vocab.cc  SortedVocabulary: uint64 number of words excluding <unk>, then counts[0] uint64 slots
 *    holding that many sorted MurmurHash64A hashes (one spare slot); word id = index in sorted order + 1,
 *    <unk> = 0.
 *  - lm/search_trie.cc  TrieSearch::SetupMemory: quantiser tables, unigram array, one BitPackedMiddle
 *    per order 2..N-1, then BitPackedLongest.
 *  - lm/quantize.cc  SeparatelyQuantize (version 2): 8-byte header {version, prob_bits, backoff_bits},
 *    then per middle order a prob table (2^prob_bits floats) and a back-off table (2^backoff_bits
 *    floats, entries 0/1 reserved for -0.0 "no extension" / +0.0 "extension"), then the longest-order
 *    prob table.
 *  - lm/trie.hh  Unigram: (counts[0] + 2) records {float prob, float backoff, uint64 next}; the children
 *    of unigram w are [next(w), next(w+1)) in the bigram array.
 *  - The trie is REVERSED (lm/model.cc ScoreExceptBackoff looks up the new word, then the preceding
 *    words right to left; lm/trie_sort.hh sorts by SuffixOrder): a unigram node is the LAST word of an
 *    n-gram, its children are the possible PRECEDING words, and so on. A node reached by the path
 *    w_n -> w_(n-1) -> ... -> w_1 stores log10 P(w_n | w_1 .. w_(n-1)) and the back-off of w_1 .. w_n.
 *    Children of a node are sorted by word id.
 *  - lm/trie.cc, lm/bhiksha.cc  BitPackedMiddle: ArrayBhiksha block {uint8 version 0, uint8
 *    pointer_bhiksha_bits, pad to 8; uint64 offsets[]; +7 slack}, then (count + 1) bit-packed records
 *    {word id: RequiredBits(counts[0]) | backoff: backoff_bits | prob: prob_bits | low bits of next}
 *    (+8 bytes slack). The high bits of next(i) are the largest k with offsets[k] <= i.
 *    BitPackedLongest: records {word id | prob: prob_bits}.
 *  - util/bit_packing.hh  a field at bit offset b is read as (uint64 at byte b>>3) >> (b & 7).
 *  - After the search structure: the vocabulary strings, NUL-terminated, in word-id order ("<unk>" first).
 */
import { readFileSync, createWriteStream } from 'node:fs';
import { createGzip } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One level of the (reversed) trie: all n-grams of one order, in trie order (suffix order). */
export interface KenlmLevel {
  order: number;
  count: number;
  /**
   * Word id added by this trie level, i.e. the FIRST (oldest) word of each n-gram, since the trie is
   * reversed (for unigrams simply the index).
   */
  word: Uint32Array;
  /**
   * Index, in the previous level, of the (n-1)-gram suffix (the n-gram without its first word);
   * null for unigrams.
   */
  parent: Uint32Array | null;
  /** log10 probability. */
  prob: Float32Array;
  /** log10 back-off weight; 0 where there is none (and always 0 at the highest order). */
  backoff: Float32Array;
  /**
   * For orders below the highest: length count + 1; the children of entry i (n-grams extending it by one
   * word on the LEFT) are entries [childBegin[i], childBegin[i + 1]) of the next level. Null at the top.
   */
  childBegin: Uint32Array | null;
  /**
   * Below the highest order: 1 where KenLM flagged the n-gram as the context (prefix) of some longer
   * n-gram, i.e. its stored back-off is non-zero or +0.0 (kExtensionBackoff) rather than -0.0
   * (kNoExtensionBackoff, lm/blank.hh). Kept for checking; the back-off values above are normalised.
   */
  flaggedContext: Uint8Array | null;
}

export interface KenlmNgram {
  order: number;
  /** Word ids, oldest first. */
  words: number[];
  prob: number;
  backoff: number;
}

export interface KenlmModel {
  order: number;
  /** n-gram counts per order, from the header (index 0 = unigrams, including <unk>). */
  counts: number[];
  /** Word strings by word id (vocab[0] = "<unk>"). */
  vocab: string[];
  /** The sorted vocabulary hashes (MurmurHash64A, seed 0) as stored: hashes[i] belongs to word id i + 1. */
  vocabHashes: BigUint64Array;
  probBits: number;
  backoffBits: number;
  pointerBhikshaBits: number;
  /** levels[n - 1] holds the n-grams. */
  levels: KenlmLevel[];
  /** Word ids of n-gram `index` of order `order`, oldest first. */
  wordsOf(order: number, index: number): number[];
  /** Every n-gram: unigrams first, then bigrams, ...; trie (suffix) order within an order. */
  ngrams(): IterableIterator<KenlmNgram>;
}

const MAGIC = 'mmap lm http://kheafield.com/code format version 5\n\0';
const SANITY_SIZE = 88;
const FIXED_PARAMS_SIZE = 20;
const QUANT_ARRAY_TRIE = 5;
const TRIE_SEARCH_VERSION = 1;
const QUANTIZE_VERSION = 2;
const BHIKSHA_VERSION = 0;

const align8 = (n: number) => Math.ceil(n / 8) * 8;

/** arrays for one trie level; only levels below the highest have children and context flags */
function emptyLevel(order: number, count: number, middle: boolean): KenlmLevel {
  return {
    order,
    count,
    word: new Uint32Array(count),
    parent: new Uint32Array(count),
    prob: new Float32Array(count),
    backoff: new Float32Array(count),
    childBegin: middle ? new Uint32Array(count + 1) : null,
    flaggedContext: middle ? new Uint8Array(count) : null,
  };
}

/** util::RequiredBits: bits needed to store integers up to maxValue. */
function requiredBits(maxValue: number): number {
  let bits = 0;
  while (maxValue >= 1) {
    bits++;
    maxValue = Math.floor(maxValue / 2);
  }
  return bits;
}

/** ArrayBhiksha ChopBits (lm/bhiksha.cc): how many high bits of a next pointer go to the offsets array. */
function chopBits(maxOffset: number, maxNext: number, configuredBits: number): number {
  const required = requiredBits(maxNext);
  let best = 0;
  let lowest = Infinity;
  for (let chop = 0; chop <= Math.min(required, configuredBits); chop++) {
    const change = Math.floor(maxNext / 2 ** (required - chop)) * 64 - maxOffset * chop;
    if (change < lowest) {
      lowest = change;
      best = chop;
    }
  }
  return best;
}

/** Read an unsigned field of `len` <= 25 bits at absolute bit offset `bit` of `buf` (util::ReadInt25/57). */
function readBits(buf: Uint8Array, bit: number, len: number): number {
  const byte = Math.floor(bit / 8);
  const shift = bit % 8;
  // shift + len <= 32, so four bytes suffice.
  const v = (buf[byte] | (buf[byte + 1] << 8) | (buf[byte + 2] << 16) | (buf[byte + 3] << 24)) >>> 0;
  return (v >>> shift) & ((1 << len) - 1);
}

class Cursor {
  constructor(private view: DataView) {}
  u8(off: number) {
    return this.view.getUint8(off);
  }
  u32(off: number) {
    return this.view.getUint32(off, true);
  }
  f32(off: number) {
    return this.view.getFloat32(off, true);
  }
  /** uint64 as a JS number; throws beyond 2^53. */
  u64(off: number) {
    const v = this.view.getBigUint64(off, true);
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`uint64 at ${off} too large: ${v}`);
    return Number(v);
  }
}

function fail(msg: string): never {
  throw new Error(`kenlm: ${msg}`);
}

export function readKenlm(file: string): KenlmModel {
  const buf: Uint8Array = readFileSync(file);
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const c = new Cursor(view);

  // ---- Header (lm/binary_format.cc) ----
  const magic = Buffer.from(buf.subarray(0, MAGIC.length)).toString('latin1');
  if (magic !== MAGIC) fail(`${file} is not a KenLM binary file of format version 5`);
  if (
    c.f32(56) !== 0 ||
    c.f32(60) !== 1 ||
    c.f32(64) !== -0.5 ||
    c.u32(68) !== 1 ||
    c.u32(72) !== 0xffffffff ||
    c.u64(80) !== 1
  ) {
    fail('sanity values do not match (file built on a different architecture?)');
  }
  let p = SANITY_SIZE;
  const order = c.u8(p);
  const modelType = c.u32(p + 8);
  const hasVocabulary = c.u8(p + 12) !== 0;
  const searchVersion = c.u32(p + 16);
  if (modelType !== QUANT_ARRAY_TRIE)
    fail(`model type ${modelType}, only ${QUANT_ARRAY_TRIE} (QUANT_ARRAY_TRIE) is supported`);
  if (searchVersion !== TRIE_SEARCH_VERSION)
    fail(`trie search version ${searchVersion}, expected ${TRIE_SEARCH_VERSION}`);
  if (!hasVocabulary) fail('file has no vocabulary strings');
  if (order < 2) fail(`order ${order}`);
  p += FIXED_PARAMS_SIZE;
  const counts: number[] = [];
  for (let i = 0; i < order; i++, p += 8) counts.push(c.u64(p));
  const headerSize = align8(SANITY_SIZE + FIXED_PARAMS_SIZE + 8 * order);

  // ---- SortedVocabulary (lm/vocab.cc): uint64 size (excluding <unk>), then counts[0] hash slots ----
  const vocabStart = headerSize;
  const storedVocab = c.u64(vocabStart);
  if (storedVocab + 1 !== counts[0])
    fail(`vocabulary holds ${storedVocab} words + <unk> but there are ${counts[0]} unigrams`);
  const vocabHashes = new BigUint64Array(storedVocab);
  for (let i = 0; i < storedVocab; i++) vocabHashes[i] = view.getBigUint64(vocabStart + 8 + 8 * i, true);
  const searchStart = vocabStart + 8 + 8 * counts[0];

  // ---- SeparatelyQuantize (lm/quantize.cc) ----
  let q = searchStart;
  const quantVersion = c.u8(q);
  const probBits = c.u8(q + 1);
  const backoffBits = c.u8(q + 2);
  if (quantVersion !== QUANTIZE_VERSION) fail(`quantization version ${quantVersion}, expected ${QUANTIZE_VERSION}`);
  if (probBits < 1 || probBits > 25 || backoffBits < 1 || backoffBits > 25)
    fail(`bad quantization bits ${probBits}/${backoffBits}`);
  q += 8;
  const readTable = (bits: number) => {
    const t = new Float32Array(1 << bits);
    for (let i = 0; i < t.length; i++, q += 4) t[i] = c.f32(q);
    return t;
  };
  const middleTables: Array<{ prob: Float32Array; backoff: Float32Array }> = [];
  for (let n = 2; n < order; n++) middleTables.push({ prob: readTable(probBits), backoff: readTable(backoffBits) });
  const longestTable = readTable(probBits);
  // MakeBins (lm/quantize.cc) fills each table in ascending order; back-off tables start with the two
  // reserved zeros -0.0 (no extension) and +0.0 (extension). Anything else means a layout error.
  const ascending = (t: Float32Array, from: number) => t.subarray(from).every((v, i, a) => i === 0 || a[i - 1] <= v);
  for (const t of [...middleTables.map((m) => m.prob), longestTable])
    if (!ascending(t, 0)) fail('probability table not sorted');
  for (const { backoff: t } of middleTables) {
    if (!Object.is(t[0], -0) || !Object.is(t[1], 0) || !ascending(t, 2))
      fail('back-off table does not start with -0, +0 or is not sorted');
  }

  // ---- Unigrams (lm/trie.hh): (counts[0] + 2) x {float prob, float backoff, uint64 next} ----
  const unigramStart = q;
  const nUni = counts[0];
  const uni: KenlmLevel = {
    order: 1,
    count: nUni,
    word: new Uint32Array(nUni),
    parent: null,
    prob: new Float32Array(nUni),
    backoff: new Float32Array(nUni),
    childBegin: new Uint32Array(nUni + 1),
    flaggedContext: new Uint8Array(nUni),
  };
  for (let w = 0; w <= nUni; w++) {
    const r = unigramStart + 16 * w;
    if (w < nUni) {
      uni.word[w] = w;
      uni.prob[w] = c.f32(r);
      // -0.0 (kNoExtensionBackoff) and +0.0 (kExtensionBackoff) both mean "no back-off".
      const backoff = c.f32(r + 4);
      uni.flaggedContext![w] = Object.is(backoff, -0) ? 0 : 1;
      uni.backoff[w] = backoff || 0;
    }
    uni.childBegin![w] = c.u64(r + 8);
  }
  let pos = unigramStart + 16 * (nUni + 2);

  const levels: KenlmLevel[] = [uni];
  const wordBits = requiredBits(counts[0]);
  let pointerBhikshaBits = -1;

  // ---- Middle orders (lm/trie.cc BitPackedMiddle<ArrayBhiksha>) ----
  for (let n = 2; n < order; n++) {
    const count = counts[n - 1];
    const maxNext = counts[n];
    // ArrayBhiksha block.
    const bhikshaBase = pos;
    if (c.u8(bhikshaBase) !== BHIKSHA_VERSION)
      fail(`array pointer compression version ${c.u8(bhikshaBase)} at order ${n}`);
    const configured = c.u8(bhikshaBase + 1);
    pointerBhikshaBits = configured;
    // Memory is mmapped from file offset 0 (or written from 8-aligned buffers), so address alignment = file offset
    // alignment.
    const aligned = align8(bhikshaBase);
    const chop = chopBits(count + 1, maxNext, configured);
    const inlineBits = requiredBits(maxNext) - chop;
    const arrayCount = Math.floor(maxNext / 2 ** inlineBits) + 1;
    const offsets = new Float64Array(arrayCount);
    for (let k = 0; k < arrayCount; k++) offsets[k] = c.u64(aligned + 8 + 8 * k);
    if (offsets[0] !== 0) fail(`order ${n}: offsets[0] = ${offsets[0]}`);
    pos = bhikshaBase + 8 * (1 + arrayCount) + 7;

    // Bit-packed records: word | backoff | prob | next (low bits); count + 1 records (the last holds only next).
    const tables = middleTables[n - 2];
    const totalBits = wordBits + backoffBits + probBits + inlineBits;
    const base = pos;
    if (inlineBits > 25) fail(`order ${n}: ${inlineBits} inline pointer bits not supported`);
    const level = emptyLevel(n, count, true);
    let high = 0; // largest k with offsets[k] <= i
    for (let i = 0; i <= count; i++) {
      const bit = base * 8 + i * totalBits;
      while (high + 1 < arrayCount && offsets[high + 1] <= i) high++;
      level.childBegin![i] =
        high * 2 ** inlineBits + readBits(buf, bit + wordBits + backoffBits + probBits, inlineBits);
      if (i === count) break;
      level.word[i] = readBits(buf, bit, wordBits);
      const backoffIndex = readBits(buf, bit + wordBits, backoffBits);
      level.flaggedContext![i] = backoffIndex === 0 ? 0 : 1; // index 0 = kNoExtensionQuant
      level.backoff[i] = tables.backoff[backoffIndex] || 0; // -0.0/+0.0 -> 0
      level.prob[i] = tables.prob[readBits(buf, bit + wordBits + backoffBits, probBits)];
    }
    pos = base + Math.floor(((1 + count) * totalBits + 7) / 8) + 8;
    levels.push(level);
  }

  // ---- Longest order (BitPackedLongest): word | prob ----
  {
    const n = order;
    const count = counts[n - 1];
    const totalBits = wordBits + probBits;
    const base = pos;
    const level = emptyLevel(n, count, false);
    for (let i = 0; i < count; i++) {
      const bit = base * 8 + i * totalBits;
      level.word[i] = readBits(buf, bit, wordBits);
      level.prob[i] = longestTable[readBits(buf, bit + wordBits, probBits)];
    }
    pos = base + Math.floor(((1 + count) * totalBits + 7) / 8) + 8;
    levels.push(level);
  }

  // ---- Link children to parents, checking that the child ranges tile each level exactly ----
  for (let n = 1; n < order; n++) {
    const lo = levels[n - 1];
    const hi = levels[n];
    const cb = lo.childBegin!;
    if (cb[0] !== 0 || cb[lo.count] !== hi.count)
      fail(`order ${n + 1}: child ranges cover [${cb[0]}, ${cb[lo.count]}) of ${hi.count}`);
    for (let i = 0; i < lo.count; i++) {
      const b = cb[i],
        e = cb[i + 1];
      if (e < b) fail(`order ${n}: entry ${i} has child range [${b}, ${e})`);
      for (let j = b; j < e; j++) hi.parent![j] = i;
    }
  }

  // ---- Vocabulary strings, right after the search structure ----
  const vocabStringsStart = pos;
  const tail = buf.subarray(vocabStringsStart);
  if (Buffer.from(tail.subarray(0, 6)).toString('latin1') !== '<unk>\0')
    fail(`vocabulary strings not found at offset ${vocabStringsStart}`);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const vocab: string[] = [];
  let s = 0;
  for (let i = 0; i < tail.length; i++) {
    if (tail[i] === 0) {
      vocab.push(decoder.decode(tail.subarray(s, i)));
      s = i + 1;
    }
  }
  if (s !== tail.length) fail('vocabulary strings do not end with NUL');
  if (vocab.length !== counts[0]) fail(`${vocab.length} vocabulary strings for ${counts[0]} unigrams`);

  // Walk from the node up to the root: the node's own word is the first word of the n-gram, its
  // parent's word the second, ..., the unigram at the root the last.
  const wordsOf = (n: number, index: number): number[] => {
    const out = new Array<number>(n);
    for (let k = n; k >= 1; k--) {
      const lv = levels[k - 1];
      out[n - k] = lv.word[index];
      if (k > 1) index = lv.parent![index];
    }
    return out;
  };

  function* ngrams(): IterableIterator<KenlmNgram> {
    for (const lv of levels) {
      for (let i = 0; i < lv.count; i++) {
        yield { order: lv.order, words: wordsOf(lv.order, i), prob: lv.prob[i], backoff: lv.backoff[i] };
      }
    }
  }

  return { order, counts, vocab, vocabHashes, probBits, backoffBits, pointerBhikshaBits, levels, wordsOf, ngrams };
}

/** Shortest decimal that reads back as the same float32 (values are stored as float32). */
function formatFloat32(x: number): string {
  if (x === 0) return '0';
  if (!Number.isFinite(x)) return String(x);
  for (let p = 1; p < 9; p++) {
    const v = Number(x.toPrecision(p));
    if (Math.fround(v) === x) return String(v);
  }
  return String(Number(x.toPrecision(9)));
}

/** Write the dump described in the header comment. Resolves when the gzip file is complete. */
export async function dumpKenlm(model: KenlmModel, outFile: string): Promise<void> {
  const gz = createGzip({ level: 6 });
  const out = createWriteStream(outFile);
  gz.pipe(out);
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', () => resolve());
    out.on('error', reject);
    gz.on('error', reject);
  });
  const cache = new Map<number, string>();
  const fmt = (x: number) => {
    let s = cache.get(x);
    if (s === undefined) {
      s = formatFloat32(x);
      cache.set(x, s);
    }
    return s;
  };
  const { vocab, levels } = model;
  let chunk = '';
  const flush = async () => {
    if (!gz.write(chunk)) await new Promise<void>((r) => gz.once('drain', () => r()));
    chunk = '';
  };
  for (const lv of levels) {
    for (let i = 0; i < lv.count; i++) {
      const words =
        lv.order === 1
          ? vocab[i]
          : model
              .wordsOf(lv.order, i)
              .map((w) => vocab[w])
              .join(' ');
      chunk += `${lv.order}\t${words}\t${fmt(lv.prob[i])}\t${fmt(lv.backoff[i])}\n`;
      if (chunk.length > 1 << 20) await flush();
    }
  }
  await flush();
  gz.end();
  await done;
}

async function main() {
  const [inFile, outFile] = process.argv.slice(2);
  if (!inFile || !outFile) {
    console.error('usage: npx tsx engine/tools/kenlm-dump.ts IN.lm OUT.tsv.gz');
    process.exit(2);
  }
  const t0 = Date.now();
  const model = readKenlm(inFile);
  console.log(
    `order ${model.order}, counts ${model.counts.join(' / ')}, quantization ` +
      `${model.probBits}/${model.backoffBits} bits, ` +
      `pointer bhiksha bits ${model.pointerBhikshaBits}; read in ${Date.now() - t0} ms`,
  );
  await dumpKenlm(model, outFile);
  console.log(`wrote ${outFile} in ${Date.now() - t0} ms`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}

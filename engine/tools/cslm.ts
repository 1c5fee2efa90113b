/**
 * Encoders of the two language-model files LanguageModel (lm.ts) reads, shared by the build tools
 * (build-lm.ts, build-lm3.ts, build-lm-libime.ts). Values arrive quantised: costs -ln P in tenths
 * (0 = absent), back-offs in twentieths.
 */

const pad = (b: Buffer, to: number) => Buffer.concat([b, Buffer.alloc((to - (b.length % to)) % to)]);

/**
 * CSLM (unigrams and bigrams): header, then CSR rows/columns of the bigrams, the unigram costs and back-offs,
 * the bigram costs, each padded to 4 bytes. `bigrams` = [previous id, word id, cost], sorted by both ids.
 */
export function encodeBigramLevel(
  V: number,
  bigrams: Array<[number, number, number, ...number[]]>,
  uniPr: Uint8Array,
  uniBow: Int8Array,
): Buffer {
  const NB = bigrams.length;
  const row = new Uint32Array(V + 1);
  const col = new Uint32Array(NB);
  const pr = new Uint8Array(NB);
  for (let i = 0; i < NB; i++) {
    row[bigrams[i][0] + 1]++;
    col[i] = bigrams[i][1];
    pr[i] = bigrams[i][2];
  }
  for (let i = 0; i < V; i++) row[i + 1] += row[i];
  const header = Buffer.alloc(16);
  header.write('CSLM', 0, 'latin1');
  header.writeUInt32LE(1, 4);
  header.writeUInt32LE(V, 8);
  header.writeUInt32LE(NB, 12);
  return Buffer.concat([header, ...[row, col, uniPr, uniBow, pr].map((a) => pad(Buffer.from(a.buffer), 4))]);
}

/**
 * CSL3 (trigrams): header (version 1: context key u * 131072 + v; version 2: u * 262144 + v), then the sorted
 * context keys, each context's first trigram, the trigrams' words, the contexts' back-offs and the trigram
 * costs, each padded to 8 bytes. `trigrams` = [context key, word id, cost], sorted by key and word;
 * `bowOf(key)` = the context's quantised back-off.
 */
export function encodeTrigramLevel(
  version: 1 | 2,
  trigrams: Array<[number, number, number]>,
  bowOf: (key: number) => number,
): Buffer {
  const ctxKeys: number[] = [];
  for (const t of trigrams) if (ctxKeys.length === 0 || ctxKeys[ctxKeys.length - 1] !== t[0]) ctxKeys.push(t[0]);
  const C = ctxKeys.length;
  const T = trigrams.length;
  const keys = new Float64Array(ctxKeys);
  const start = new Uint32Array(C + 1);
  const bow = new Int8Array(C);
  const w = new Uint32Array(T);
  const pr = new Uint8Array(T);
  let c = -1;
  for (let i = 0; i < T; i++) {
    if (c < 0 || keys[c] !== trigrams[i][0]) {
      c++;
      start[c] = i;
      bow[c] = bowOf(trigrams[i][0]);
    }
    w[i] = trigrams[i][1];
    pr[i] = trigrams[i][2];
  }
  start[C] = T;
  const header = Buffer.alloc(16);
  header.write('CSL3', 0, 'latin1');
  header.writeUInt32LE(version, 4);
  header.writeUInt32LE(C, 8);
  header.writeUInt32LE(T, 12);
  return Buffer.concat([header, ...[keys, start, w, bow, pr].map((a) => pad(Buffer.from(a.buffer), 8))]);
}

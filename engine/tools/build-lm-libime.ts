/**
 * Derives the second language model, engine/lexicon/lm2.bin.gz + lm2-vocab.txt.gz + lm2-3.bin.gz,
 * from Debian's libime-data-language-model (zh_CN.lm: a KenLM word trigram model, LGPL-2.1-or-later;
 * see NOTICE.md), in the same formats as lm.bin.gz / lm3.bin.gz (costs -ln P quantised to 0.1,
 * back-offs to 0.05). The runtime never reads the .lm file, the package or this script.
 *
 *   apt-get download libime-data-language-model && dpkg -x libime-data-language-model_*.deb /tmp/lime
 *   npx tsx engine/tools/build-lm-libime.ts [/tmp/lime/usr/lib/x86_64-linux-gnu/libime/zh_CN.lm]
 */
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readKenlm } from './kenlm-dump';

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.resolve(here, '..', 'lexicon');
const file = process.argv[2] ?? '/usr/lib/x86_64-linux-gnu/libime/zh_CN.lm';
const SHIFT = 262144; // trigram context key u * SHIFT + v (CSL3 version 2)
const LN10 = Math.log(10);
const qPr = (log10p: number) => Math.max(1, Math.min(255, Math.round(-log10p * LN10 * 10))); // 0 = absent
const qBow = (log10b: number) => Math.max(-127, Math.min(127, Math.round(-log10b * LN10 * 20)));

const m = readKenlm(file);
if (m.order !== 3) throw new Error(`expected a trigram model, got order ${m.order}`);
const V = m.vocab.length;
if (V >= SHIFT) throw new Error('vocabulary too large for the context key');
const [L1, L2, L3] = m.levels;
const uniPr = new Uint8Array(V);
const uniBow = new Int8Array(V);
for (let i = 1; i < V; i++) { uniPr[i] = qPr(L1.prob[i]); uniBow[i] = qBow(L1.backoff[i]); }

// bigrams (u, w): level 2 entry i has word = u (the first word) and parent = w's unigram index
const bi: Array<[number, number, number]> = [];
const biBow = new Map<number, number>();
for (let i = 0; i < L2.count; i++) {
  const u = L2.word[i], w = L2.parent![i];
  bi.push([u, w, qPr(L2.prob[i])]);
  if (L2.backoff[i] !== 0) biBow.set(u * SHIFT + w, L2.backoff[i]);
}
bi.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
const NB = bi.length;
const row = new Uint32Array(V + 1);
const col = new Uint32Array(NB);
const pr = new Uint8Array(NB);
for (let i = 0; i < NB; i++) { row[bi[i][0] + 1]++; col[i] = bi[i][1]; pr[i] = bi[i][2]; }
for (let i = 0; i < V; i++) row[i + 1] += row[i];
const pad4 = (b: Buffer) => Buffer.concat([b, Buffer.alloc((4 - (b.length % 4)) % 4)]);
const h1 = Buffer.alloc(16);
h1.write('CSLM', 0, 'latin1'); h1.writeUInt32LE(1, 4); h1.writeUInt32LE(V, 8); h1.writeUInt32LE(NB, 12);
const body1 = Buffer.concat([h1, pad4(Buffer.from(row.buffer)), pad4(Buffer.from(col.buffer)), pad4(Buffer.from(uniPr.buffer)), pad4(Buffer.from(uniBow.buffer)), pad4(Buffer.from(pr.buffer))]);
writeFileSync(path.join(outDir, 'lm2.bin.gz'), gzipSync(body1, { level: 9 }));
writeFileSync(path.join(outDir, 'lm2-vocab.txt.gz'), gzipSync(Buffer.from(m.vocab.join('\n'), 'utf8'), { level: 9 }));

// trigrams (u, v, w): level 3 entry i has word = u, parent = the level-2 entry (v, w)
const tris: Array<[number, number, number]> = [];
for (let i = 0; i < L3.count; i++) {
  const p = L3.parent![i];
  const v = L2.word[p], w = L2.parent![p];
  tris.push([L3.word[i] * SHIFT + v, w, qPr(L3.prob[i])]);
}
tris.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
const keys: number[] = [];
for (const t of tris) if (!keys.length || keys[keys.length - 1] !== t[0]) keys.push(t[0]);
const C = keys.length, T = tris.length;
const start = new Uint32Array(C + 1), bow = new Int8Array(C), tw = new Uint32Array(T), tpr = new Uint8Array(T);
let c = -1;
for (let i = 0; i < T; i++) {
  if (c < 0 || keys[c] !== tris[i][0]) { c++; start[c] = i; bow[c] = qBow(biBow.get(tris[i][0]) ?? 0); }
  tw[i] = tris[i][1]; tpr[i] = tris[i][2];
}
start[C] = T;
const pad8 = (b: Buffer) => Buffer.concat([b, Buffer.alloc((8 - (b.length % 8)) % 8)]);
const h3 = Buffer.alloc(16);
h3.write('CSL3', 0, 'latin1'); h3.writeUInt32LE(2, 4); h3.writeUInt32LE(C, 8); h3.writeUInt32LE(T, 12);
const body3 = Buffer.concat([h3, pad8(Buffer.from(new Float64Array(keys).buffer)), pad8(Buffer.from(start.buffer)), pad8(Buffer.from(tw.buffer)), pad8(Buffer.from(bow.buffer)), pad8(Buffer.from(tpr.buffer))]);
writeFileSync(path.join(outDir, 'lm2-3.bin.gz'), gzipSync(body3, { level: 9 }));
console.log(`vocab ${V}, bigrams ${NB}, trigram contexts ${C}, trigrams ${T}`);

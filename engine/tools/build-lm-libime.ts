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
import { encodeBigramLevel, encodeTrigramLevel } from './cslm';

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
for (let i = 1; i < V; i++) {
  uniPr[i] = qPr(L1.prob[i]);
  uniBow[i] = qBow(L1.backoff[i]);
}

// bigrams (u, w): level 2 entry i has word = u (the first word) and parent = w's unigram index
const bi: Array<[number, number, number]> = [];
const biBow = new Map<number, number>();
for (let i = 0; i < L2.count; i++) {
  const u = L2.word[i],
    w = L2.parent![i];
  bi.push([u, w, qPr(L2.prob[i])]);
  if (L2.backoff[i] !== 0) biBow.set(u * SHIFT + w, L2.backoff[i]);
}
bi.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
const body1 = encodeBigramLevel(V, bi, uniPr, uniBow);
writeFileSync(path.join(outDir, 'lm2.bin.gz'), gzipSync(body1, { level: 9 }));
writeFileSync(path.join(outDir, 'lm2-vocab.txt.gz'), gzipSync(Buffer.from(m.vocab.join('\n'), 'utf8'), { level: 9 }));

// trigrams (u, v, w): level 3 entry i has word = u, parent = the level-2 entry (v, w)
const tris: Array<[number, number, number]> = [];
for (let i = 0; i < L3.count; i++) {
  const p = L3.parent![i];
  const v = L2.word[p],
    w = L2.parent![p];
  tris.push([L3.word[i] * SHIFT + v, w, qPr(L3.prob[i])]);
}
tris.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
const body3 = encodeTrigramLevel(2, tris, (key) => qBow(biBow.get(key) ?? 0));
writeFileSync(path.join(outDir, 'lm2-3.bin.gz'), gzipSync(body3, { level: 9 }));
console.log(`vocab ${V}, bigrams ${bi.length}, trigram contexts ${body3.readUInt32LE(8)}, trigrams ${tris.length}`);

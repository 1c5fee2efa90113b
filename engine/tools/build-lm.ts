/**
 * Derives engine/data/lm.bin.gz + engine/data/lm-vocab.txt.gz from Debian's sunpinyin-data
 * (word trigram language model, CC BY-SA 3.0). Needs `apt-get install sunpinyin-data sunpinyin-utils`
 * (for `tslminfo`). Only the unigram and bigram levels are kept (quantised).
 * The runtime never needs this script, the packages or the tools.
 *
 * Usage: npx tsx engine/tools/build-lm.ts
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeBigramLevel } from './cslm';

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.resolve(here, '..', 'lexicon');
const dataDir = process.env.SUNPINYIN_DATA ?? '/usr/lib/x86_64-linux-gnu/sunpinyin/data';

function readVocab(): string[] {
  const d = readFileSync(path.join(dataDir, 'pydict_sc.bin'));
  const wc = d.readUInt32LE(0);
  let p = d.readUInt32LE(8);
  const words: string[] = [];
  for (let i = 0; i < wc; i++) {
    let j = p;
    const cps: number[] = [];
    while (d.readUInt32LE(j) !== 0) {
      cps.push(d.readUInt32LE(j));
      j += 4;
    }
    words.push(String.fromCodePoint(...cps));
    p = j + 4;
  }
  return words;
}

const qPr = (x: number) => Math.max(1, Math.min(255, Math.round(x * 10))); // 0 = absent
const qBow = (x: number) => Math.max(-127, Math.min(127, Math.round(x * 20)));

async function main() {
  execFileSync('sh', ['-c', 'command -v tslminfo'], { stdio: 'ignore' }); // fails loudly when tools are missing
  const vocab = readVocab();
  const V = vocab.length;
  const uniPr = new Uint8Array(V);
  const uniBow = new Int8Array(V);
  const bi: Array<[number, number, number, number]> = [];
  const child = spawn('tslminfo', ['-v', path.join(dataDir, 'lm_sc.t3g')]);
  const rl = createInterface({ input: child.stdout });
  let level = -1;
  for await (const line of rl) {
    if (line.startsWith('\\')) {
      level = Number(line[1]);
      continue;
    }
    const f = line.trim().split(/\s+/);
    if (level === 1) {
      const id = Number(f[0]);
      uniPr[id] = qPr(Number(f[1]));
      uniBow[id] = qBow(Number(f[2]));
    } else if (level === 2) {
      const pr = Number(f[2]);
      bi.push([Number(f[0]), Number(f[1]), pr === 0 ? 0 : qPr(pr), qBow(Number(f[3]))]);
    } else if (level === 3) break;
  }
  child.kill();
  bi.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  // keep only bigrams that carry a probability
  const kept = bi.filter((b) => b[2] !== 0);
  const body = encodeBigramLevel(V, kept, uniPr, uniBow);
  writeFileSync(path.join(outDir, 'lm.bin.gz'), gzipSync(body, { level: 9 }));
  writeFileSync(path.join(outDir, 'lm-vocab.txt.gz'), gzipSync(Buffer.from(vocab.join('\n'), 'utf8'), { level: 9 }));
  console.log(`vocab ${V}, bigrams ${kept.length} (of ${bi.length}), bytes ${body.length}`);
}
main();

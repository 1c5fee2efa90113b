/**
 * Derives engine/lexicon/lm3.bin.gz, the trigram level of Debian's sunpinyin-data word model
 * (CC BY-SA 3.0; same vocabulary ids as lm.bin): for every trigram context (u, v) its back-off
 * weight and the trigrams (u, v, w) with -ln P(w | u v), quantised.
 * Needs `apt-get install sunpinyin-data sunpinyin-utils` (tslminfo); the runtime does not.
 *
 * Usage: npx tsx engine/tools/build-lm3.ts
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeTrigramLevel } from './cslm';

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.resolve(here, '..', 'lexicon');
const dataDir = process.env.SUNPINYIN_DATA ?? '/usr/lib/x86_64-linux-gnu/sunpinyin/data';
const SHIFT = 131072; // > vocabulary size

const qPr = (x: number) => Math.max(0, Math.min(255, Math.round(x * 10)));
const qBow = (x: number) => Math.max(-127, Math.min(127, Math.round(x * 20)));

async function main() {
  const bows = new Map<number, number>();
  const tris: Array<[number, number, number]> = []; // ctx key, w, q
  const child = spawn('tslminfo', ['-v', path.join(dataDir, 'lm_sc.t3g')]);
  const rl = createInterface({ input: child.stdout });
  let level = -1;
  for await (const line of rl) {
    if (line.startsWith('\\')) {
      level = Number(line[1]);
      continue;
    }
    const f = line.trim().split(/\s+/);
    if (level === 2) {
      const bow = Number(f[3]);
      if (bow !== 0) bows.set(Number(f[0]) * SHIFT + Number(f[1]), bow);
    } else if (level === 3) {
      tris.push([Number(f[0]) * SHIFT + Number(f[1]), Number(f[2]), qPr(Number(f[3]))]);
    }
  }
  tris.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const body = encodeTrigramLevel(1, tris, (key) => qBow(bows.get(key) ?? 0));
  const gz = gzipSync(body, { level: 9 });
  writeFileSync(path.join(outDir, 'lm3.bin.gz'), gz);
  console.log(`contexts ${body.readUInt32LE(8)}, trigrams ${tris.length}, bytes ${body.length}, gz ${gz.length}`);
}
main();

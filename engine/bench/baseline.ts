/**
 * The 60-line unigram prototype the engine is measured against (../shared/docs/ENGINE.md, "Where the field
 * stands"): same-sound candidates from pinyin-pro, each scored by re-segmenting the text around it (four
 * characters each side) with jieba's unigram counts; a candidate replaces the character when it makes that
 * text clearly likelier.
 * Reads sentences (one per line) on stdin, writes the corrected sentences. Used by `npm run bench` only.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createInterface } from 'node:readline';
import { pinyin } from 'pinyin-pro';
import { dataDir } from '../lm';

const freq = new Map<string, number>();
let total = 0;
for (const line of gunzipSync(readFileSync(path.join(dataDir, 'jieba-dict.txt.gz')))
  .toString('utf8')
  .split('\n')) {
  const [w, f] = line.split(' ');
  if (w && Number(f) > 0) {
    freq.set(w, Number(f));
    total += Number(f);
  }
}
const logTotal = Math.log(total);
const maxLen = 8;
// toneless syllable -> the dictionary's single characters that read so
const bySound = new Map<string, string[]>();
const sounds = (ch: string) => pinyin(ch, { toneType: 'none', multiple: true, type: 'array' });
for (const w of freq.keys()) {
  if (w.length !== 1 || !/[\u4e00-\u9fff]/.test(w)) continue;
  for (const s of sounds(w)) bySound.set(s, [...(bySound.get(s) ?? []), w]);
}

/** -log P of the best segmentation into dictionary words (unknown characters cost as a count of 0.5) */
function cost(s: string): number {
  const best = new Float64Array(s.length + 1).fill(Infinity);
  best[0] = 0;
  for (let i = 0; i < s.length; i++) {
    for (let L = 1; L <= Math.min(maxLen, s.length - i); L++) {
      const f = freq.get(s.slice(i, i + L)) ?? (L === 1 ? 0.5 : 0);
      if (f > 0) best[i + L] = Math.min(best[i + L], best[i] + logTotal - Math.log(f));
    }
  }
  return best[s.length];
}

function correct(s: string): string {
  let out = s;
  for (let i = 0; i < s.length; i++) {
    if (!/[\u4e00-\u9fff]/.test(s[i])) continue;
    const a = Math.max(0, i - 4),
      L = out.slice(a, i),
      R = out.slice(i + 1, i + 5);
    let best = s[i],
      bestCost = cost(L + s[i] + R) - 6;
    for (const syl of sounds(s[i])) {
      for (const c of bySound.get(syl) ?? []) {
        const k = c === s[i] ? Infinity : cost(L + c + R);
        if (k < bestCost) {
          best = c;
          bestCost = k;
        }
      }
    }
    out = out.slice(0, i) + best + out.slice(i + 1);
  }
  return out;
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) process.stdout.write(correct(line) + '\n');

/**
 * Derives engine/data/pinyin.txt (character -> readings with tone numbers) for every single
 * CJK character of the language-model vocabulary, using pinyin-pro (MIT).
 * Usage: npx tsx engine/tools/build-pinyin.ts   (after build-lm.ts)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pinyin } from 'pinyin-pro';

const here = path.dirname(fileURLToPath(import.meta.url));
const dataDir = path.resolve(here, '..', 'lexicon');
const vocab = gunzipSync(readFileSync(path.join(dataDir, 'lm-vocab.txt.gz')))
  .toString('utf8')
  .split('\n');
const chars = new Set<string>();
for (const w of vocab) if (w.length === 1 && /[\u4e00-\u9fff]/.test(w)) chars.add(w);
// jieba single-character words too
const jieba = gunzipSync(readFileSync(path.resolve(here, '..', 'lexicon', 'jieba-dict.txt.gz'))).toString('utf8');
for (const line of jieba.split('\n')) {
  for (const ch of line.split(' ')[0] ?? '') if (/[\u4e00-\u9fff]/.test(ch)) chars.add(ch);
}
const out: string[] = [];
for (const ch of [...chars].sort()) {
  const r = pinyin(ch, { toneType: 'num', multiple: true, type: 'array' }) as string[];
  const rs = r.filter((x) => /^[a-zü]+[0-5]$/.test(x.replace('v', 'ü')));
  if (rs.length) out.push(ch + ' ' + rs.map((x) => x.replace('ü', 'v')).join(' '));
}
writeFileSync(path.join(dataDir, 'pinyin.txt'), out.join('\n') + '\n');
console.log(`pinyin for ${out.length} characters`);

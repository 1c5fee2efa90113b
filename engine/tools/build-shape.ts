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
const G = 24;
const WORDS = (G * G) / 32;
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

function raster(ch: string): Uint32Array {
  const g = font.glyphForCodePoint(ch.codePointAt(0)!);
  const polys = polygons(g.path.commands);
  const bits = new Uint32Array(WORDS);
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

const pop = (x: number) => {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0xf0f0f0f) * 0x1010101) >>> 24;
};
const maps = chars.map(raster);
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

/**
 * A page read by OCR in strips, side by side. Tesseract spends nearly all of a page's time in its LSTM, line by line
 * (about 130 ms for a line of 36 Chinese characters on this machine), and one page runs on one thread: an A4 page of
 * 30 lines took 4 s on one core while the other idled. The page is therefore cut along blank rows (or, for two
 * columns, along the blank gutter) into one strip per heavy worker, each strip is read by its own worker, and the
 * strips' text is joined in reading order. Glyphs far larger than tesseract's model was trained on are scaled down
 * on the way: they are read as well or better, and the page's pictures take less time to process.
 *
 * Pure functions over 8-bit grey pixels: the heavy pool's tasks (heavy/tasks.ts) draw, cut and encode.
 */
import { crc32, deflateSync } from 'node:zlib';
import type { OcrText } from './tesseract';

/**
 * Resolution scanned pages are drawn at for OCR. Measured on A4 pages of 10-12 pt Chinese (1,600 characters, on 2
 * busy cores): 200 dpi read them with 0.2-0.3 % errors in 11-13 s, 300 dpi with 0.4-1.8 % in 13-15 s. Tesseract's
 * model is trained on glyphs of about the size 200 dpi gives; larger ones are read worse, not better.
 */
export const OCR_DPI = 200;

/** A picture's 8-bit grey levels, row by row. */
export interface GreyImage {
  width: number;
  height: number;
  pixels: Uint8Array;
}

/** Grey levels of RGBA pixels (ITU-R BT.601 weights), transparent pixels on white paper. */
export function greyOfRgba(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): GreyImage {
  const pixels = new Uint8Array(width * height);
  for (let i = 0, j = 0; i < pixels.length; i++, j += 4) {
    const alpha = rgba[j + 3];
    const grey = (rgba[j] * 77 + rgba[j + 1] * 150 + rgba[j + 2] * 29) >> 8;
    pixels[i] = alpha === 255 ? grey : (grey * alpha + 255 * (255 - alpha)) / 255;
  }
  return { width, height, pixels };
}

/** A part of a page, in the page's pixels. */
export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface StripPlan {
  /** the strips in reading order (one, the whole page, when it cannot be cut) */
  strips: Rect[];
  /** the median height of the bands of ink across the page (its lines), or null when it has none */
  lineHeight: number | null;
  /** the median height of the bands that look like printed lines, or null when none does */
  printHeight: number | null;
}

/**
 * Height of a line of Chinese text tesseract reads best (pixels): its model was trained on glyphs of about the size
 * a 12 pt line has at 200 dpi. A 300 dpi A4 page scaled down to it was read with fewer errors, in 15 % less time.
 */
export const OCR_LINE_HEIGHT = 36;
/** Lines up to this height are left as they are: scaling small differences down gains nothing. */
const SCALE_ABOVE = 48;
/** A page with fewer lines than this is read whole: a strip's start-up would cost more than it saves. */
const MIN_LINES_TO_CUT = 6;
/** The share of a band's pixels ink may cover for the band to count as a line of print. */
const MAX_PRINT_DENSITY = 0.45;

/** The grey level that separates ink from paper (Otsu's method): pixels at or below it are ink. */
export function inkThreshold(pixels: Uint8Array): number {
  const histogram = new Array<number>(256).fill(0);
  for (let i = 0; i < pixels.length; i += 3) histogram[pixels[i]]++;
  let total = 0;
  let sum = 0;
  for (let v = 0; v < 256; v++) {
    total += histogram[v];
    sum += v * histogram[v];
  }
  let below = 0;
  let belowSum = 0;
  let best = 0;
  let threshold = 128;
  for (let v = 0; v < 256; v++) {
    below += histogram[v];
    if (!below) continue;
    const above = total - below;
    if (!above) break;
    belowSum += v * histogram[v];
    const between = below * above * (belowSum / below - (sum - belowSum) / above) ** 2;
    if (between > best) {
      best = between;
      threshold = v;
    }
  }
  return threshold;
}

/** Runs of indices whose count is over `blank`, as [start, end) pairs. */
function runs(counts: Uint32Array, blank: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = -1;
  for (let i = 0; i <= counts.length; i++) {
    const inked = i < counts.length && counts[i] > blank;
    if (inked && start < 0) start = i;
    else if (!inked && start >= 0) {
      out.push([start, i]);
      start = -1;
    }
  }
  return out;
}

/** The middle of `runs`' widest gap whose middle lies between `from` and `to`, or null. */
function widestGap(bands: Array<[number, number]>, from: number, to: number): number | null {
  let best: number | null = null;
  let width = 0;
  for (let i = 1; i < bands.length; i++) {
    const gap = bands[i][0] - bands[i - 1][1];
    const middle = bands[i - 1][1] + (gap >> 1);
    if (middle > from && middle < to && gap > width) {
      width = gap;
      best = middle;
    }
  }
  return best;
}

/**
 * Where to cut a page of `width` × `height` grey pixels into at most `parts` strips. Two columns of text (a blank
 * gutter running down the middle third of the page) are cut at the gutter, left column first; otherwise the page is
 * cut along the blank rows between lines nearest to equal shares of its lines' height, so each strip takes about as
 * long.
 */
export function planStrips(pixels: Uint8Array, width: number, height: number, parts: number): StripPlan {
  const whole: StripPlan = { strips: [{ left: 0, top: 0, width, height }], lineHeight: null, printHeight: null };
  if (width < 1 || height < 1 || pixels.length < width * height) return whole;
  const threshold = inkThreshold(pixels);
  // light text on a dark ground: the ink is the lighter side of the threshold
  let dark = 0;
  for (let i = 0; i < pixels.length; i += 7) if (pixels[i] <= threshold) dark++;
  const light = dark * 7 > pixels.length / 2;
  const isInk = light ? (v: number) => v > threshold : (v: number) => v <= threshold;
  const rows = new Uint32Array(height);
  const columns = new Uint32Array(width);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let count = 0;
    for (let x = 0; x < width; x++) {
      if (isInk(pixels[row + x])) {
        count++;
        columns[x]++;
      }
    }
    rows[y] = count;
  }
  // a few specks of scanner noise do not make a row or a column ink
  const lines = runs(rows, Math.max(1, Math.floor(width * 0.002))).filter(([a, b]) => b - a >= 6);
  const median = (bands: Array<[number, number]>) =>
    bands.map(([a, b]) => b - a).sort((a, b) => a - b)[bands.length >> 1];
  // the print's size comes from bands that look like lines of text: a glyph's strokes cover a fifth to a third of
  // its box, a photograph or a solid block far more; and none that fills the picture
  const printed = lines.filter(([a, b]) => {
    let ink = 0;
    for (let y = a; y < b; y++) ink += rows[y];
    return ink <= (b - a) * width * MAX_PRINT_DENSITY;
  });
  const size = printed.length ? median(printed) : 0;
  const plan: StripPlan = {
    strips: whole.strips,
    lineHeight: lines.length ? median(lines) : null,
    printHeight: size && size <= height / 2 ? size : null,
  };
  const lineHeight = plan.lineHeight;
  if (lineHeight === null || parts < 2 || lines.length < MIN_LINES_TO_CUT) return plan;

  const inked = runs(columns, Math.max(1, Math.floor(height * 0.002)));
  const gutter = widestGap(inked, width / 3, (width * 2) / 3);
  if (gutter !== null && gutterIsWide(inked, gutter, lineHeight)) {
    return {
      ...plan,
      strips: [
        { left: 0, top: 0, width: gutter, height },
        { left: gutter, top: 0, width: width - gutter, height },
      ],
    };
  }

  // Columns under a heading that spans them leave no gutter down the whole page, and a cut across them would read
  // the top halves of both columns before the bottom halves: no cut where a line near it has a gap in its middle.
  const split = lines.map((band) => splitLine(pixels, width, isInk, band, lineHeight));
  const total = lines.reduce((n, [a, b]) => n + (b - a), 0);
  const cuts: number[] = [];
  let seen = 0;
  let next = 1;
  for (let i = 0; i < lines.length - 1 && next < parts; i++) {
    seen += lines[i][1] - lines[i][0];
    if (seen < (total * next) / parts) continue;
    if (split.slice(Math.max(0, i - 2), i + 4).some(Boolean)) continue;
    cuts.push(lines[i][1] + ((lines[i + 1][0] - lines[i][1]) >> 1));
    next++;
  }
  const edges = [0, ...cuts, height];
  return {
    ...plan,
    strips: edges.slice(1).map((bottom, i) => ({ left: 0, top: edges[i], width, height: bottom - edges[i] })),
  };
}

/** The line `band` has a blank gap at least a line's height wide across the middle third of the page. */
function splitLine(
  pixels: Uint8Array,
  width: number,
  isInk: (v: number) => boolean,
  [top, bottom]: [number, number],
  lineHeight: number,
): boolean {
  const columns = new Uint32Array(width);
  for (let y = top; y < bottom; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) if (isInk(pixels[row + x])) columns[x]++;
  }
  const inked = runs(columns, 0);
  const gap = widestGap(inked, width / 3, (width * 2) / 3);
  return gap !== null && gutterIsWide(inked, gap, lineHeight);
}

/** The gap around `at` between inked column runs is at least a line's height wide (not a space between glyphs). */
function gutterIsWide(inked: Array<[number, number]>, at: number, lineHeight: number): boolean {
  for (let i = 1; i < inked.length; i++) {
    if (inked[i - 1][1] <= at && inked[i][0] >= at) return inked[i][0] - inked[i - 1][1] >= lineHeight;
  }
  return false;
}

/** The scale a page whose printed lines are `printHeight` pixels high is read at (at most 1: never enlarged). */
export function ocrScale(printHeight: number | null): number {
  if (!printHeight || printHeight <= SCALE_ABOVE) return 1;
  return OCR_LINE_HEIGHT / printHeight;
}

/** An 8-bit greyscale PNG of `width` × `height` pixels (what tesseract reads fastest: no colour to drop). */
export function greyPng(pixels: Uint8Array, width: number, height: number): Uint8Array {
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width + 1)] = 0;
    raw.set(pixels.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  }
  const chunk = (type: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(body.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])), 0);
    return Buffer.concat([head, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 1 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A strip as read: its text with boxes in the strip's (scaled) pixels, and where the strip lies on the page. */
export interface StripRead {
  read: OcrText;
  rect: Rect;
  /** the strip was read at this scale of the page */
  scale: number;
}

/** The strips' text joined in order (a line break between two), with boxes back in the page's pixels. */
export function joinStrips(strips: StripRead[]): OcrText {
  const out: OcrText = { text: '', boxes: [], confidences: [] };
  for (const { read, rect, scale } of strips) {
    if (!read.text) continue;
    if (out.text) {
      out.text += '\n';
      out.boxes.push(0, 0, 0, 0);
      out.confidences.push(100);
    }
    out.text += read.text;
    for (let i = 0; i < read.boxes.length; i += 4) {
      const [x, y, w, h] = read.boxes.slice(i, i + 4);
      // line breaks and spaces have no box and keep none
      if (!w && !h) out.boxes.push(0, 0, 0, 0);
      else out.boxes.push(x / scale + rect.left, y / scale + rect.top, w / scale, h / scale);
    }
    // (a loop: spreading a long page's confidences into one call overflows the stack)
    for (const confidence of read.confidences) out.confidences.push(confidence);
  }
  return out;
}

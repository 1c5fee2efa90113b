// Scanned PDF pages read by OCR, end to end on the real server: a page of Chinese drawn with a CJK font and stored as
// an image only is read by tesseract in the heavy pool, checked like a text page, and its finding carries boxes on
// the drawn characters (in points); a page of specks gives no findings (a blank scan: pdf-checks.test.ts). The pieces
// that keep OCR noise out of the findings (Chinese joined back without tesseract's spaces, unsure characters) are
// tested alone.
import { existsSync } from 'node:fs';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PdfProgressData, ServerMessage } from '../../openapi/socket-protocol';
import { isPdfProgress } from '../../openapi/socket-protocol';
import { allUnsure, unsureRanges, withoutUnsure } from '../../server/formats/pdf/checks';
import { fromBlocks, joinCjk } from '../../server/formats/ocr/tesseract';
import { makePdf } from '../fixtures/pdf';
import { call, CLIENT_HEADERS, form, register, startTestApp, type TestApp } from './helpers';
import { listen, SocketClient } from './proofread-support';

const FONT = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc',
  '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc',
].find((f) => existsSync(f));

const SENTENCE = '请各部门认真研究群众反映的问提，切实解决实际困难。';
/** A4 scanned at 150 dpi */
const W = 1240;
const H = 1754;
const PX_PER_PT = 150 / 72;
const FONT_PX = 40;
const LEFT = 100;
const BASELINE = 400;

/** Grayscale pixels of a white A4 page, drawn on by `draw`. */
function scan(draw: (ctx: ReturnType<ReturnType<typeof createCanvas>['getContext']>) => void): Buffer {
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, W, H);
  ctx.fillStyle = '#000000';
  draw(ctx);
  const rgba = ctx.getImageData(0, 0, W, H).data;
  const pixels = Buffer.alloc(W * H);
  for (let i = 0; i < pixels.length; i++) pixels[i] = rgba[i * 4];
  return pixels;
}

/** Edit distance over UTF-16 units. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length];
}

let t: TestApp;
let base: string;
let token: string;

beforeAll(async () => {
  t = await startTestApp();
  base = await listen(t);
  token = await register(t, '13566664001');
}, 60_000);
afterAll(async () => t.close());

async function upload(filename: string, data: Buffer) {
  const { payload, contentType } = form([{ name: 'file', filename, data }]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/misscut/v2/pdf_check/upload',
    headers: { ...CLIENT_HEADERS, authorization: `Bearer ${token}`, 'content-type': contentType },
    payload,
  });
  return res.json();
}

async function untilEnded(socket: SocketClient, id: number): Promise<PdfProgressData> {
  for (;;) {
    const m: ServerMessage = await socket.next(90_000);
    if (m.index !== undefined) socket.send({ type: 1, cmd: 2, index: m.index });
    if (isPdfProgress(m) && m.data.id === id && ['done', 'failed', 'cancelled'].includes(m.data.status)) return m.data;
  }
}

describe('PDF checks of scanned pages', () => {
  it.skipIf(!FONT)(
    'reads a scanned page by OCR and reports its typo on the drawn characters; speckles give nothing',
    async () => {
      GlobalFonts.registerFromPath(FONT!, 'OcrTest');
      let typoLeft = 0;
      let typoWidth = 0;
      const text = scan((ctx) => {
        ctx.font = `${FONT_PX}px OcrTest`;
        ctx.fillText(SENTENCE, LEFT, BASELINE);
        const at = SENTENCE.indexOf('问提') + 1;
        typoLeft = LEFT + ctx.measureText(SENTENCE.slice(0, at)).width;
        typoWidth = ctx.measureText('提').width;
      });
      // specks in a band, as dust on a scanner glass (a fixed sequence, so every run sees the same): tesseract reads
      // them as text, with some quotes and commas it is sure of that the checker would flag
      let seed = 7;
      const speckles = scan((ctx) => {
        for (let i = 0; i < 600; i++) {
          seed = (seed * 1103515245 + 12345) % 2 ** 31;
          const x = seed % W;
          seed = (seed * 1103515245 + 12345) % 2 ** 31;
          ctx.fillRect(x, 900 + (seed % 400), 2 + (seed % 7), 2 + (seed % 11));
        }
      });
      const pdf = makePdf([
        { kind: 'text', lines: ['第一页是文字。'] },
        { kind: 'scan', width: W, height: H, pixels: text },
        { kind: 'scan', width: W, height: H, pixels: speckles },
      ]);
      const socket = await SocketClient.open(base, token);
      const started = Date.now();
      const id = (await upload('扫描件.pdf', pdf)).result.id;
      const end = await untilEnded(socket, id);
      await socket.close();
      expect(end).toMatchObject({ status: 'done', pages_done: 3 });
      console.info(`3 pages, 2 of them OCR (first with tesseract's start): ${Date.now() - started} ms`);

      const result = (await call(t.app, 'GET', `/misscut/v2/pdf_check/result?id=${id}`, undefined, token)).json.result;
      const [first, second, third] = result.pages;
      expect(first).toMatchObject({ ocr: false, text: '第一页是文字。' });
      expect(first.unsure).toBeUndefined();

      expect(second.ocr).toBe(true);
      expect(Array.isArray(second.unsure)).toBe(true);
      const read = second.text.replace(/\s+/g, '');
      const cer = distance(read, SENTENCE) / SENTENCE.length;
      console.info(`OCR read ${JSON.stringify(second.text)}, character error rate ${(cer * 100).toFixed(1)} %`);
      expect(cer).toBeLessThanOrEqual(0.1);
      expect(second.text).toContain('问提');
      // no space was left between the Chinese characters
      expect(second.text).not.toMatch(/[\u4e00-\u9fff] [\u4e00-\u9fff]/);

      const typo = second.issues.find((i: { original: string }) => i.original === '提');
      expect(typo).toMatchObject({ suggestions: ['题'] });
      expect(second.text.slice(typo.start, typo.end)).toBe('提');
      // the box lies on the drawn character: the page image spans the A4 page, 150 px per inch
      const [[x, y, w, h]] = typo.rects;
      const size = FONT_PX / PX_PER_PT;
      expect(Math.abs(x + w / 2 - (typoLeft + typoWidth / 2) / PX_PER_PT)).toBeLessThan(size / 3);
      expect(w).toBeGreaterThan(size / 3);
      expect(w).toBeLessThan(size * 1.5);
      expect(y).toBeGreaterThan(BASELINE / PX_PER_PT - size * 1.2);
      expect(y + h).toBeLessThan(BASELINE / PX_PER_PT + size * 0.5);

      // the speckles are read as lines of stray marks, all unsure, and nothing is reported on them
      expect(third.ocr).toBe(true);
      expect(third.text.trim()).not.toBe('');
      const unsure = third.unsure.reduce((n: number, [a, b]: number[]) => n + b - a, 0);
      expect(unsure).toBeGreaterThan(third.text.replace(/\s/g, '').length / 2);
      expect(third.issues).toEqual([]);
      expect(result.issue_count).toBe(second.issues.length);
    },
    180_000,
  );

  it('joins Chinese that tesseract spaced out, keeping boxes and confidences aligned', () => {
    // each character's confidence and box x are its index in the spaced text, so where it came from shows after
    const spaced = '根 据 GB/T 9704 标 准 ， “ 通 知 ” ok';
    const page = { text: spaced, boxes: [] as number[], confidences: [] as number[] };
    [...spaced].forEach((c, i) => {
      page.boxes.push(...(c === ' ' ? [0, 0, 0, 0] : [i, 0, 10, 20]));
      page.confidences.push(c === ' ' ? 100 : i);
    });
    const joined = joinCjk(page);
    expect(joined.text).toBe('根据 GB/T 9704 标准，“通知” ok');
    expect(joined.boxes).toHaveLength(joined.text.length * 4);
    expect(joined.confidences).toHaveLength(joined.text.length);
    [...joined.text].forEach((c, i) => {
      if (c === ' ') return expect(joined.boxes.slice(i * 4, i * 4 + 4)).toEqual([0, 0, 0, 0]);
      const from = joined.confidences[i];
      expect(spaced[from], `${c} at ${i}`).toBe(c);
      expect(joined.boxes.slice(i * 4, i * 4 + 4)).toEqual([from, 0, 10, 20]);
    });
  });

  it('builds text from the block tree: a line per line, spaces between words, the lower confidence', () => {
    const bbox = (x0: number) => ({ x0, y0: 5, x1: x0 + 10, y1: 25 });
    const word = (text: string, x0: number, confidence: number, symbols = [...text]) => ({
      text,
      confidence,
      bbox: bbox(x0),
      symbols: symbols.map((s, i) => ({ text: s, confidence: 90, bbox: bbox(x0 + i * 10) })),
    });
    const blocks = [
      {
        paragraphs: [
          {
            lines: [
              { words: [word('问提', 0, 30), word('，切实解决', 20, 95)] },
              { words: [word('Hi', 0, 95), word('𠀀', 30, 95)] },
            ],
          },
        ],
      },
    ];
    const read = joinCjk(fromBlocks(blocks as Parameters<typeof fromBlocks>[0]));
    expect(read.text).toBe('问提，切实解决\nHi 𠀀');
    expect(read.confidences).toEqual([30, 30, 90, 90, 90, 90, 90, 100, 90, 90, 100, 90, 90]);
    expect(read.boxes.slice(0, 8)).toEqual([0, 5, 10, 20, 10, 5, 10, 20]);
    // a character beyond the BMP (two UTF-16 units) has its box on both
    expect(read.boxes.slice(-8)).toEqual([30, 5, 10, 20, 30, 5, 10, 20]);
    expect(unsureRanges(read.text, read.confidences)).toEqual([[0, 2]]);
  });

  it('drops the findings that touch a character OCR was unsure of; a line mostly unsure is unsure whole', () => {
    // specks read as text: the comma tesseract is sure of goes with its line
    expect(unsureRanges('a ， c\n好', [10, 100, 90, 100, 10, 100, 95])).toEqual([[0, 5]]);
    // a scan of nothing but such lines has no text to check (the PDF fails as pdf.no_text if no page has any)
    expect(allUnsure('a ， c\n好', [[0, 5]])).toBe(false);
    expect(allUnsure(' a ， c\n', [[1, 6]])).toBe(true);
    const ranges = unsureRanges('abcdef', [90, 20, 30, 90, 90, 10]);
    expect(ranges).toEqual([
      [1, 3],
      [5, 6],
    ]);
    const issues = [
      { start: 0, end: 1 },
      { start: 0, end: 2 },
      { start: 2, end: 4 },
      { start: 3, end: 5 },
      { start: 3, end: 3 },
      { start: 5, end: 5 },
    ];
    expect(withoutUnsure(issues, ranges)).toEqual([
      { start: 0, end: 1 },
      { start: 3, end: 5 },
      { start: 3, end: 3 },
    ]);
  });
});

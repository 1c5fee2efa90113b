/**
 * Media benchmark (`npm run bench:media`). Offline, one run, prints figures; asserts nothing about time.
 *
 *   npx tsx server/bench/media.ts [--images 60] [--pdf-pages 100] [--scan-pages 4] [--video-seconds 60] [--pdf-only]
 *
 *  1. OCR character error rate on generated images of known text (correct sentences of the engine's bench sets):
 *     sizes 10.5, 12 and 16 pt at 300 dpi, the CJK fonts this machine has, slight rotation (±1.5°) and slight
 *     speckle noise; then 12 pt under heavy speckle noise apart;
 *  2. OCR time per A4 page (300 dpi, 12 pt, about 30 lines);
 *  3. text-PDF pages per second: reading `--pdf-pages` pages with their character boxes (pdf.js), then the whole
 *     PDF check on the real server (upload to done) beside poppler's `pdftotext` of the same file (when installed),
 *     first in a fresh process and then again on other text, and the check of a PDF of `--scan-pages` scanned A4
 *     pages (`--pdf-only`: the text PDFs alone);
 *  4. a scanned page: drawing it and reading it by OCR;
 *  5. frames to subtitles for a `--video-seconds` video with burned-in subtitles (ffmpeg frame sampling + OCR);
 *  6. false alarms per 1,000 OCR'd characters of correct text (findings left after the 识别存疑 filter), next to the
 *     engine's own on the same sentences as typed (what OCR adds is the difference).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';
import { check, loadEngine } from '../../engine/index';
import { makePdf } from '../../tests/fixtures/pdf';
import { buildApp } from '../app';
import { recognise, type OcrText } from '../formats/ocr/tesseract';
import { cutForOcr, decodeGrey } from '../formats/ocr/cut';
import { joinStrips } from '../formats/ocr/strips';
import { ocrParts, readStrips } from '../formats/ocr/read';
import { HeavyPool } from '../workers/heavy/pool';
import { loadConfig } from '../config';
import { readPdfPages, renderPdfPage } from '../formats/pdf/pdfjs';
import { unsureRanges, withoutUnsure } from '../formats/pdf/checks';
import { burnedSubtitles } from '../formats/media/burned';
import { benchOption, correctSentences } from './support';
import { checkerPool } from '../workers/checker/pool';

const IMAGES = benchOption('images', 60);
/** pages of the scanned PDF checked end to end */
const SCAN_PAGES = benchOption('scan-pages', 4);
const PDF_PAGES = benchOption('pdf-pages', 100);
const PDF_ONLY = process.argv.includes('--pdf-only');
const VIDEO_SECONDS = benchOption('video-seconds', 60);

const FONT_FILES: Array<[string, string]> = [
  ['Noto Sans CJK', '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc'],
  ['Noto Serif CJK', '/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc'],
  ['WenQuanYi Zen Hei', '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc'],
];

/** A PNG read as an uploaded image is, in this thread: decoded, scaled and cut as the server does, strip by strip. */
async function readAsUploaded(png: Uint8Array): Promise<OcrText> {
  const grey = decodeGrey(png, 40_000_000);
  if (!grey) throw new Error('bench image not decoded');
  const cut = cutForOcr(grey, 1);
  const reads = [];
  for (const strip of cut.strips)
    reads.push({ read: await recognise(strip.png), rect: strip.rect, scale: strip.scale });
  return joinStrips(reads);
}

const ms = (t: number) => `${(performance.now() - t).toFixed(0)} ms`;
const strip = (s: string) => s.replace(/\s+/g, '');

/** Levenshtein distance over code points. */
function distance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++)
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[y.length];
}

let seed = 20261127;
const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;

/** A line image of `text` at `pt` points and 300 dpi, in `family`, turned by `degrees`, with speckles. */
async function lineImage(text: string, pt: number, family: string, degrees: number, noise: number) {
  const px = Math.round((pt / 72) * 300);
  const width = Math.round(px * (text.length + 4));
  const height = Math.round(px * 3);
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  context.translate(width / 2, height / 2);
  context.rotate((degrees * Math.PI) / 180);
  context.fillStyle = '#111111';
  context.font = `${px}px "${family}"`;
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  context.fillText(text, 0, 0);
  context.setTransform(1, 0, 0, 1, 0, 0);
  const specks = Math.round(width * height * noise);
  context.fillStyle = '#555555';
  for (let i = 0; i < specks; i++) context.fillRect(Math.floor(rand() * width), Math.floor(rand() * height), 1, 1);
  return canvas.encode('png');
}

/** The A4 page drawn for OCR as a scan (grey levels of its pixels). */
function scanOf(page: SKRSContext2D) {
  const gray = Buffer.alloc(2480 * 3508);
  const rgba = page.getImageData(0, 0, 2480, 3508).data;
  for (let i = 0; i < gray.length; i++) gray[i] = rgba[i * 4];
  return { kind: 'scan' as const, width: 2480, height: 3508, pixels: gray };
}

interface CheckedPdf {
  ms: number;
  /** CPU time of the whole process (every thread) from upload to done, in ms */
  cpuMs: number;
  status: string;
  found: number;
}

/** A real server on temporary data, signed in: `checkPdf` uploads a PDF and follows it to its end. */
async function benchServer(): Promise<{
  checkPdf: (pdf: Buffer, name: string) => Promise<CheckedPdf>;
  close(): Promise<void>;
}> {
  const dataDir = mkdtempSync(join(tmpdir(), 'wb-bench-media-'));
  const app = await buildApp({
    logger: false,
    dataDir,
    config: { spaDir: join(dataDir, 'no-spa'), adminPhone: '13800000000', adminPassword: 'bench-password-1' },
  });
  const close = async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await app.ready();
    await checkerPool().ready();
  } catch (error) {
    await close();
    throw error;
  }
  const login = await app.inject({
    method: 'POST',
    url: '/user/login',
    headers: { cid: 'bench', endpoint: '1' },
    payload: { phone: '13800000000', password: 'bench-password-1' },
  });
  const auth = { cid: 'bench', endpoint: '1', authorization: `Bearer ${login.json().result.token}` };
  /** a PDF uploaded for checking, followed to its end: the time from upload, the status and the findings */
  const checkPdf = async (pdf: Buffer, name: string): Promise<CheckedPdf> => {
    const boundary = 'benchboundary';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
          'Content-Type: application/pdf\r\n\r\n',
      ),
      pdf,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const started = performance.now();
    const cpu = process.cpuUsage();
    const up = await app.inject({
      method: 'POST',
      url: '/misscut/v2/pdf_check/upload',
      headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    const id = up.json().result.id;
    for (;;) {
      const res = await app.inject({ method: 'GET', url: `/misscut/v2/pdf_check/page?num=1&size=5`, headers: auth });
      const row = res.json().result.list.find((r: { id: number }) => r.id === id);
      if (row.status !== 'queued' && row.status !== 'running') {
        const { user, system } = process.cpuUsage(cpu);
        const ms = performance.now() - started;
        return { ms, cpuMs: (user + system) / 1000, status: row.status as string, found: row.issue_count as number };
      }
      // polled often: the whole check takes about a second
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { checkPdf, close };
}

/** poppler's `pdftotext` of `file`, best of 3 runs in ms; null when it is not installed. */
function pdftotext(file: string): number | null {
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const run = spawnSync('pdftotext', [file, `${file}.txt`]);
    if (run.error || run.status !== 0) return null;
    runs.push(performance.now() - t);
  }
  return Math.min(...runs);
}

/**
 * A text PDF of PDF_PAGES pages, 30 lines each, read with boxes, then checked on the server (upload to done) beside
 * `pdftotext`: first in this process (the engine's code still cold), then a second PDF of other lines (no result
 * comes from the cache).
 */
async function textPdfs(sentences: string[], checkPdf: (pdf: Buffer, name: string) => Promise<CheckedPdf>) {
  const textPdf = (mark: string) =>
    makePdf(
      Array.from({ length: PDF_PAGES }, (_, p) => ({
        kind: 'text' as const,
        lines: Array.from({ length: 30 }, (_, l) => mark + sentences[(p * 30 + l) % sentences.length].slice(0, 34)),
      })),
    );
  const pdf = textPdf('');
  const t = performance.now();
  const read = await readPdfPages(pdf, 1, PDF_PAGES);
  const readMs = performance.now() - t;
  const chars = read.reduce((n, p) => n + p.text.length, 0);
  console.log(
    `text PDF, ${PDF_PAGES} pages (${chars} characters): read with character boxes in ${readMs.toFixed(0)} ms ` +
      `(${(PDF_PAGES / (readMs / 1000)).toFixed(0)} pages/s)`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'wb-bench-pdftotext-'));
  try {
    const file = join(dir, 'bench.pdf');
    writeFileSync(file, pdf);
    const poppler = pdftotext(file);
    if (poppler === null) console.log('pdftotext: not installed (apt-get install poppler-utils), not compared');
    else console.log(`pdftotext of the same ${PDF_PAGES} pages: ${poppler.toFixed(0)} ms (best of 3)`);
    const vs = (ms: number) => (poppler === null ? '' : `, ${(ms / poppler).toFixed(1)}× pdftotext`);
    for (const [run, data] of [
      ['first in this process', pdf],
      ['again, other text', textPdf('又')],
    ] as const) {
      const text = await checkPdf(data, 'bench.pdf');
      console.log(
        `PDF check of ${PDF_PAGES} text pages (${run}), upload to ${text.status}: ${text.ms.toFixed(0)} ms ` +
          `(${(PDF_PAGES / (text.ms / 1000)).toFixed(1)} pages/s, ${text.found} findings${vs(text.ms)}; CPU ` +
          `${text.cpuMs.toFixed(0)} ms, ${((text.cpuMs * 1000) / chars).toFixed(0)} µs per character)`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const fonts = FONT_FILES.filter(([, file]) => existsSync(file));
  if (!fonts.length) throw new Error('no CJK font: apt-get install fonts-noto-cjk');
  for (const [family, file] of fonts) GlobalFonts.registerFromPath(file, family);
  // correct sentences only: whatever the checker reports on their OCR'd text is a false alarm
  const sentences = correctSentences().filter((s) => s.length >= 10 && s.length <= 26);
  loadEngine();
  console.log(`media benchmark: fonts ${fonts.map(([f]) => f).join(', ')}`);
  if (PDF_ONLY) {
    const bench = await benchServer();
    try {
      await textPdfs(sentences, bench.checkPdf);
    } finally {
      await bench.close();
    }
    await checkerPool().close();
    process.exit(0);
  }

  // 1. OCR character error rate, 6. false alarms on correct text
  let t = performance.now();
  await recognise(await lineImage('预热', 12, fonts[0][0], 0, 0));
  console.log(`OCR ready (tesseract worker and chi_sim data): ${ms(t)}`);
  const sizes = [10.5, 12, 16];
  const perSize = new Map<number, { errors: number; chars: number; ms: number; n: number }>();
  let checkedChars = 0;
  let alarms = 0;
  let typedChars = 0;
  let typedAlarms = 0;
  for (let i = 0; i < IMAGES; i++) {
    const truth = sentences[Math.floor(rand() * sentences.length)];
    const pt = sizes[i % sizes.length];
    const [family] = fonts[i % fonts.length];
    const degrees = (rand() - 0.5) * 3;
    // slight noise: a dark speck per 5,000 pixels (the heavy case is measured apart below)
    const image = await lineImage(truth, pt, family, degrees, 0.0002);
    t = performance.now();
    const ocr = await readAsUploaded(image);
    const took = performance.now() - t;
    const read = strip(ocr.text);
    const row = perSize.get(pt) ?? { errors: 0, chars: 0, ms: 0, n: 0 };
    row.errors += distance(read, strip(truth));
    row.chars += [...strip(truth)].length;
    row.ms += took;
    row.n++;
    perSize.set(pt, row);
    const unsure = unsureRanges(ocr.text, ocr.confidences);
    alarms += withoutUnsure(check(ocr.text, { mode: 3 }), unsure).length;
    checkedChars += [...strip(ocr.text)].length;
    // the same sentence as typed: what the engine says of it without any OCR
    typedAlarms += check(truth, { mode: 3 }).length;
    typedChars += [...strip(truth)].length;
  }
  for (const [pt, row] of [...perSize].sort((a, b) => a[0] - b[0]))
    console.log(
      `OCR CER at ${pt} pt, 300 dpi: ${((row.errors / row.chars) * 100).toFixed(2)} % ` +
        `(${row.n} images, ${row.chars} characters, ${(row.ms / row.n).toFixed(0)} ms per image)`,
    );
  console.log(
    `false alarms on OCR'd correct text: ${((alarms / checkedChars) * 1000).toFixed(2)} per 1,000 characters ` +
      `(${alarms} in ${checkedChars}); on the same sentences as typed: ` +
      `${((typedAlarms / typedChars) * 1000).toFixed(2)} (${typedAlarms} in ${typedChars}); OCR adds the difference ` +
      '(negative: the 识别存疑 filter drops more than misreading adds)',
  );
  // heavy speckle (a dark speck per 500 pixels, like a dirty photocopy) at 12 pt
  let heavyErrors = 0;
  let heavyChars = 0;
  for (let i = 0; i < Math.min(20, IMAGES); i++) {
    const truth = sentences[Math.floor(rand() * sentences.length)];
    const ocr = await readAsUploaded(await lineImage(truth, 12, fonts[i % fonts.length][0], (rand() - 0.5) * 3, 0.002));
    heavyErrors += distance(strip(ocr.text), strip(truth));
    heavyChars += [...strip(truth)].length;
  }
  console.log(`OCR CER at 12 pt with heavy speckle noise: ${((heavyErrors / heavyChars) * 100).toFixed(2)} %`);

  // 2. OCR time per A4 page
  const a4 = createCanvas(2480, 3508);
  const page = a4.getContext('2d');
  page.fillStyle = '#ffffff';
  page.fillRect(0, 0, 2480, 3508);
  page.fillStyle = '#111111';
  page.font = `50px "${fonts[0][0]}"`;
  page.textBaseline = 'top';
  const a4Lines: string[] = [];
  for (let y = 300; a4Lines.length < 30; y += 100) {
    let line = '';
    while (line.length < 36) line += sentences[Math.floor(rand() * sentences.length)];
    line = line.slice(0, 36);
    a4Lines.push(line);
    page.fillText(line, 300, y);
  }
  const a4Png = await a4.encode('png');
  const a4Truth = strip(a4Lines.join(''));
  const cer = (read: OcrText) => `CER ${((distance(strip(read.text), a4Truth) / a4Truth.length) * 100).toFixed(2)} %`;
  t = performance.now();
  const a4Whole = await recognise(a4Png);
  console.log(`OCR of an A4 page (300 dpi, 12 pt, 30 lines) whole, in one thread: ${ms(t)}, ${cer(a4Whole)}`);
  // as an uploaded image is read: cut in a heavy task, its strips read side by side by the pool's workers
  const heavy = new HeavyPool(loadConfig().heavy, loadConfig().tools);
  const parts = ocrParts(heavy);
  const readImage = async () => {
    const cut = await heavy.run('imageOcrCut', { data: a4Png, parts });
    return { cut, read: await readStrips(heavy, cut, {}) };
  };
  await readImage(); // each worker starts its tesseract once and keeps it
  const a4Runs: number[] = [];
  let last: Awaited<ReturnType<typeof readImage>> | null = null;
  for (let i = 0; i < 3; i++) {
    t = performance.now();
    last = await readImage();
    a4Runs.push(performance.now() - t);
  }
  const scaleShown = last!.cut.strips[0].scale.toFixed(2);
  console.log(
    `OCR time per A4 page (300 dpi, 12 pt, 30 lines) as the server reads it: ${Math.min(...a4Runs).toFixed(0)} ms ` +
      `(best of 3; ${a4Runs.map((n) => n.toFixed(0)).join(', ')}), ${last!.cut.strips.length} strips on ${parts} ` +
      `workers, scaled ${scaleShown}, ${cer(last!.read)}`,
  );

  // 3. text PDFs
  const scanPage = scanOf(page);
  const bench = await benchServer();
  try {
    await textPdfs(sentences, bench.checkPdf);
    // scanned pages of a batch are read side by side, one per heavy worker
    const scans = await bench.checkPdf(makePdf(Array.from({ length: SCAN_PAGES }, () => scanPage)), 'scans.pdf');
    console.log(
      `PDF check of ${SCAN_PAGES} scanned A4 pages, upload to ${scans.status}: ${scans.ms.toFixed(0)} ms ` +
        `(${(scans.ms / SCAN_PAGES).toFixed(0)} ms per page, ${scans.found} findings)`,
    );
  } finally {
    await bench.close();
  }

  // 4. a scanned page
  const scan = makePdf([scanPage]);
  t = performance.now();
  await renderPdfPage(scan, 1, 200);
  const drawMs = performance.now() - t;
  t = performance.now();
  const scanCut = await heavy.run('pdfOcrCut', { data: scan, page: 1, parts });
  const cutMs = performance.now() - t;
  const scanned = await readStrips(heavy, scanCut, {});
  console.log(
    `scanned A4 page: drawn at 200 dpi in ${drawMs.toFixed(0)} ms; drawn and cut in the pool in ` +
      `${cutMs.toFixed(0)} ms, read in ${ms(t)} (${[...strip(scanned.text)].length} characters, ${cer(scanned)})`,
  );
  await heavy.close();

  // 5. burned-in subtitles of a video
  const video = await burnedSubtitles.benchVideo(VIDEO_SECONDS, fonts[0][1]);
  try {
    t = performance.now();
    const pool = new HeavyPool(loadConfig().heavy, loadConfig().tools);
    const segments = await burnedSubtitles
      .read(video.file, { seconds: VIDEO_SECONDS, heavy: pool })
      .finally(() => pool.close());
    const found = segments.filter((s) => video.lines.some((l) => strip(s.text).includes(strip(l).slice(0, 6))));
    console.log(
      `burned-in subtitles, ${VIDEO_SECONDS} s video: ${segments.length} segments in ${ms(t)} ` +
        `(${found.length} of ${video.lines.length} subtitle lines found)`,
    );
  } finally {
    rmSync(video.dir, { recursive: true, force: true });
  }
  await checkerPool().close();
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

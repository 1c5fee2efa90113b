/**
 * OCR with tesseract.js, used only inside the heavy pool's worker threads (heavy/tasks.ts): each heavy worker starts
 * one tesseract worker (simplified Chinese, LSTM) the first time it has a scan to read and keeps it for the next
 * ones. Everything is local: the language data comes from the @tesseract.js-data packages, nothing is
 * downloaded or cached on disk.
 */
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Worker as NodeWorker } from 'node:worker_threads';
import type Tesseract from 'tesseract.js';

const require = createRequire(import.meta.url);

/**
 * Simplified Chinese alone. Its model reads the Latin words, numbers, addresses and URLs of Chinese pages as well as
 * chi_sim+eng did (measured on mixed lines: the same text but one space), while English as a second language made
 * tesseract read every doubtful word twice: an A4 page took 7.5 s instead of 4.3 s.
 */
const LANGUAGES = ['chi_sim'];
/** tesseract.js's OEM.LSTM_ONLY: the language packages' best_int data holds only the LSTM model. */
const OEM_LSTM_ONLY = 1;
/** An idle tesseract worker is stopped after this long: it holds a few hundred MB of WebAssembly memory. */
const IDLE_MS = 120_000;

export interface OcrText {
  /** lines joined with '\n' */
  text: string;
  /** [x, y, width, height] in image pixels per UTF-16 unit of `text` (0, 0, 0, 0 for line breaks and spaces) */
  boxes: number[];
  /** 0-100 per UTF-16 unit of `text` (100 for line breaks and spaces) */
  confidences: number[];
}

interface Engine {
  worker: Tesseract.Worker;
  /** rejects when the tesseract thread fails or exits: a recognition waiting on it would otherwise never end */
  lost: Promise<never>;
}

let engine: Promise<Engine> | null = null;
let busy = 0;
let idle: NodeJS.Timeout | undefined;

const dataFile = (lang: string) =>
  join(dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`)), '4.0.0_best_int', `${lang}.traineddata.gz`);

/**
 * A folder holding every language's data. tesseract.js reads all languages from one `langPath`, and each data
 * package has its own folder; the `[{code, data}]` form that would avoid this is broken in 7.0.0. Links, not copies,
 * and only until the worker has read them.
 */
function languageFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'workbench-ocr-'));
  try {
    for (const lang of LANGUAGES) {
      const file = dataFile(lang);
      if (!existsSync(file)) throw new Error(`OCR language data missing: ${file}`);
      symlinkSync(file, join(folder, `${lang}.traineddata.gz`));
    }
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  return folder;
}

async function start(): Promise<Engine> {
  const { createWorker } = (await import('tesseract.js')).default;
  const folder = languageFolder();
  try {
    const worker = await createWorker(LANGUAGES.join('+'), OEM_LSTM_ONLY, {
      langPath: folder,
      cacheMethod: 'none',
      gzip: true,
      // A failed job rejects its own promise as well; without a handler tesseract.js throws from an event
      // listener, which would end the whole heavy worker.
      errorHandler: () => {},
    });
    let fail: (error: Error) => void = () => {};
    const lost = new Promise<never>((_, reject) => (fail = reject));
    lost.catch(() => {});
    // tesseract.js sets `onerror` on the thread, which a Node worker never calls: listen for its end here
    if ('worker' in worker && worker.worker instanceof NodeWorker) {
      worker.worker.on('error', fail);
      worker.worker.on('exit', (code) => fail(new Error(`tesseract worker exited with code ${code}`)));
    }
    return { worker, lost };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Stops the tesseract worker once no page has needed it for a while. */
function releaseLater(): void {
  clearTimeout(idle);
  idle = setTimeout(() => {
    const current = engine;
    if (busy > 0 || !current) return;
    engine = null;
    void current.then((e) => e.worker.terminate()).catch(() => {});
  }, IDLE_MS);
  idle.unref();
}

/** Han characters and the full-width punctuation and forms of Chinese text. */
const CJK = /[\p{Script=Han}\u3000-\u303f\uff00-\uffef]/u;
/** Punctuation Chinese text shares with English: it joins Chinese when Chinese stands on its other side. */
const SHARED = /[\u2018\u2019\u201c\u201d\u2026\u2014\u00b7]/;

/** The space at `i` of `text` stands between two Chinese characters (tesseract separates them; the page did not). */
function isCjkGap(text: string, i: number): boolean {
  const before = text[i - 1] ?? '';
  const after = text[i + 1] ?? '';
  const wide = (c: string) => CJK.test(c) || SHARED.test(c);
  return wide(before) && wide(after) && (CJK.test(before) || CJK.test(after));
}

/** Removes the spaces between Chinese characters, keeping `boxes` (4 per unit) and `confidences` aligned. */
export function joinCjk(page: OcrText): OcrText {
  let text = '';
  const boxes: number[] = [];
  const confidences: number[] = [];
  for (let i = 0; i < page.text.length; i++) {
    if (page.text[i] === ' ' && isCjkGap(page.text, i)) continue;
    text += page.text[i];
    boxes.push(...page.boxes.slice(i * 4, i * 4 + 4));
    confidences.push(page.confidences[i]);
  }
  return { text, boxes, confidences };
}

/** Text, boxes and confidences from tesseract's block tree (symbols within words within lines). */
export function fromBlocks(blocks: Tesseract.Block[] | null): OcrText {
  const out: OcrText = { text: '', boxes: [], confidences: [] };
  const put = (s: string, box: number[], confidence: number) => {
    out.text += s;
    for (let i = 0; i < s.length; i++) out.boxes.push(...box);
    for (let i = 0; i < s.length; i++) out.confidences.push(confidence);
  };
  for (const block of blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const words = line.words.filter((w) => w.symbols.some((s) => s.text.trim()));
        if (!words.length) continue;
        if (out.text) put('\n', [0, 0, 0, 0], 100);
        words.forEach((word, n) => {
          if (n > 0) put(' ', [0, 0, 0, 0], 100);
          for (const symbol of word.symbols) {
            const chars = [...symbol.text.trim()];
            const { x0, y0, x1, y1 } = symbol.bbox;
            const step = (x1 - x0) / Math.max(1, chars.length);
            // A misread character usually keeps a high confidence of its own while its word's drops (measured on
            // A4 pages: misreads at 65-98 as symbols, mostly 0-45 as words): the lower of the two marks it.
            const confidence = Math.min(symbol.confidence, word.confidence);
            chars.forEach((c, i) => put(c, [x0 + i * step, y0, step, y1 - y0], confidence));
          }
        });
      }
    }
  }
  return out;
}

/** The text of an image (PNG), with a box and a confidence per UTF-16 unit. */
export async function recognise(png: Uint8Array): Promise<OcrText> {
  busy++;
  clearTimeout(idle);
  try {
    if (!engine) {
      const starting = start();
      engine = starting;
      // a worker that failed to start or has stopped is forgotten: the next page starts another
      const forget = () => {
        if (engine === starting) engine = null;
      };
      starting.then((e) => e.lost).catch(forget);
    }
    const { worker, lost } = await engine;
    const image = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
    const result = await Promise.race([worker.recognize(image, {}, { text: false, blocks: true }), lost]);
    return joinCjk(fromBlocks(result.data.blocks));
  } finally {
    busy--;
    if (busy === 0) releaseLater();
  }
}

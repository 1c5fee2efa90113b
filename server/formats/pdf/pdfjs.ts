/**
 * PDF reading and rendering with pdf.js (legacy build) in the heavy pool's workers: each page's text with a box per
 * character (top-left origin, PDF points), pages without text found as scans, and pages drawn as PNG through
 * @napi-rs/canvas with a CJK font registered (non-embedded Chinese fonts otherwise draw as boxes).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { badRequest } from '../../errors';
import { toolSettings } from '../tools';
import type { Canvas } from '@napi-rs/canvas';
import { greyOfRgba, type GreyImage } from '../ocr/strips';

const require = createRequire(import.meta.url);
const root = dirname(require.resolve('pdfjs-dist/package.json'));
// Local cMaps and standard fonts, as plain paths: pdf.js reads them with fs in Node (a file: URL is not read, and
// then non-embedded CJK fonts extract as ""). Nothing may download.
const CMAPS = join(root, 'cmaps') + '/';
const FONTS = join(root, 'standard_fonts') + '/';

/** Normalises Kangxi radicals and CJK radical supplements some PDFs use for ordinary characters. */
export const normalisePdfText = (s: string) => s.replace(/[\u2f00-\u2fdf]/g, (c) => c.normalize('NFKC'));

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;

let pdfjs: Promise<PdfJs> | null = null;

/** Opens a PDF; 400 `document.pdf_unreadable` (or `pdf.encrypted`) when it cannot be read. */
const loadPdfJs = () => (pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs'));

export async function openPdf(data: Uint8Array): Promise<PdfDocument> {
  const lib = await loadPdfJs();
  try {
    return await lib.getDocument({
      // pdf.js takes the buffer over: a copy, so the caller's bytes stay usable
      data: new Uint8Array(data),
      cMapUrl: CMAPS,
      cMapPacked: true,
      standardFontDataUrl: FONTS,
      useSystemFonts: false,
      isEvalSupported: false,
      verbosity: 0,
    }).promise;
  } catch (error) {
    if (error instanceof Error && error.name === 'PasswordException') throw badRequest('pdf.encrypted');
    throw badRequest('document.pdf_unreadable');
  }
}

export interface PdfPageText {
  /** 1-based */
  page: number;
  width: number;
  height: number;
  /** the page's text, one line per text line */
  text: string;
  /** [x, y, width, height] per UTF-16 unit of `text` (line breaks get an empty box), flattened */
  boxes: number[];
  /**
   * a scan with a little text over it (a stamped page number): pictures cover at least half the page and the text
   * is under SCAN_TEXT_MAX characters, so the page is read by OCR like one without text
   */
  scan: boolean;
}

/** the most characters (not counting spaces) a page may hold as text and still be taken for a scan */
const SCAN_TEXT_MAX = 40;
/** the share of the page pictures must cover for it to be a scan */
const SCAN_COVER = 0.5;

/**
 * The share of the page the painted pictures cover (their unit squares through the current transformation, summed;
 * overlaps count twice, which matters little for a scan drawn once across the page).
 */
async function pictureCover(page: Awaited<ReturnType<PdfDocument['getPage']>>, lib: PdfJs): Promise<number> {
  const { fnArray, argsArray } = await page.getOperatorList();
  const { OPS } = lib;
  const images = new Set<number>([
    OPS.paintImageXObject,
    OPS.paintInlineImageXObject,
    OPS.paintImageMaskXObject,
    OPS.paintImageXObjectRepeat,
  ]);
  let ctm = [1, 0, 0, 1, 0, 0];
  const stack: number[][] = [];
  let area = 0;
  for (let k = 0; k < fnArray.length; k++) {
    const fn = fnArray[k];
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() ?? [1, 0, 0, 1, 0, 0];
    else if (fn === OPS.transform) {
      const [a, b, c, d, e, f] = argsArray[k] as number[];
      const [A, B, C, D, E, F] = ctm;
      ctm = [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F];
    } else if (images.has(fn)) area += Math.abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]);
  }
  const [x0, y0, x1, y1] = page.view;
  return area / Math.max(1, Math.abs((x1 - x0) * (y1 - y0)));
}

/**
 * The PDF the last readPdfPages opened, kept open a moment: a check reads a PDF a batch of pages at a time, and
 * opening it again would parse its fonts and CMaps again (tens of milliseconds, more than reading a page).
 */
interface KeptPdf {
  data: Uint8Array;
  doc: Promise<PdfDocument>;
  users: number;
  timer?: NodeJS.Timeout;
}
let kept: KeptPdf | null = null;
/** how long an unused PDF stays open */
const KEEP_MS = 5_000;

const sameBytes = (a: Uint8Array, b: Uint8Array) =>
  a.byteLength === b.byteLength &&
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

function closeKept(entry: KeptPdf): void {
  if (kept === entry) kept = null;
  clearTimeout(entry.timer);
  if (entry.users === 0) void entry.doc.then((doc) => doc.destroy()).catch(() => {});
}

/** Text and character boxes of pages `from`..`to` (1-based, inclusive). */
export async function readPdfPages(data: Uint8Array, from: number, to: number): Promise<PdfPageText[]> {
  if (!kept || !sameBytes(kept.data, data)) {
    if (kept) closeKept(kept);
    kept = { data, doc: openPdf(data), users: 0 };
  }
  const entry = kept;
  entry.users++;
  clearTimeout(entry.timer);
  try {
    const doc = await entry.doc;
    const pages: PdfPageText[] = [];
    for (let n = from; n <= Math.min(to, doc.numPages); n++) {
      const page = await doc.getPage(n);
      const viewport = page.getViewport({ scale: 1 });
      const content = await page.getTextContent();
      let text = '';
      const boxes: number[] = [];
      const newline = () => {
        if (text && !text.endsWith('\n')) {
          text += '\n';
          boxes.push(0, 0, 0, 0);
        }
      };
      for (const item of content.items) {
        if (!('str' in item)) continue;
        const str = normalisePdfText(item.str);
        if (str) {
          const [a, b, c, d, e, f] = item.transform as number[];
          const size = Math.hypot(c, d) || Math.hypot(a, b) || item.height;
          const [x, baseline] = viewport.convertToViewportPoint(e, f);
          const width = item.width || size * str.length;
          // runs are split evenly: exact for the fixed-width CJK glyphs that matter here
          const step = width / str.length;
          for (let i = 0; i < str.length; i++) boxes.push(x + i * step, baseline - size * 0.88, step, size);
          text += str;
        }
        if (item.hasEOL) newline();
      }
      // only a page with little text is looked at for pictures (reading its operators costs a parse of the page)
      const scan =
        text.replace(/\s/g, '').length < SCAN_TEXT_MAX && (await pictureCover(page, await loadPdfJs())) >= SCAN_COVER;
      pages.push({
        page: n,
        width: viewport.width,
        height: viewport.height,
        text: text.replace(/\n$/, ''),
        boxes,
        scan,
      });
      page.cleanup();
    }
    return pages;
  } catch (error) {
    // a PDF that cannot be read is not kept
    if (kept === entry) kept = null;
    throw error;
  } finally {
    entry.users--;
    if (kept !== entry) closeKept(entry);
    else if (entry.users === 0) entry.timer = setTimeout(() => closeKept(entry), KEEP_MS).unref();
  }
}

/** How many pages the PDF has (400 when it cannot be read). */
export async function pdfPageCount(data: Uint8Array): Promise<number> {
  const doc = await openPdf(data);
  try {
    return doc.numPages;
  } finally {
    await doc.destroy();
  }
}

const CJK_FONTS = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc',
  '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc',
  '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc',
  '/usr/share/fonts/truetype/arphic/uming.ttc',
];
let fontsRegistered = false;

/** Registers a CJK font under the generic families pdf.js falls back to (once per worker). */
async function registerCjkFonts(): Promise<void> {
  if (fontsRegistered) return;
  fontsRegistered = true;
  const { GlobalFonts } = await import('@napi-rs/canvas');
  const extra = toolSettings().cjkFontPath;
  for (const file of [...(extra ? [extra] : []), ...CJK_FONTS]) {
    if (!existsSync(file)) continue;
    for (const family of ['serif', 'sans-serif']) GlobalFonts.registerFromPath(file, family);
    return;
  }
}

/** A 2D context with the canvas API pdf.js draws with. */
function isCanvasContext(value: unknown): value is CanvasRenderingContext2D {
  return typeof value === 'object' && value !== null && 'drawImage' in value && 'fillText' in value;
}

/** The page drawn as PNG at `dpi` (72 = one pixel per point). */
export async function renderPdfPage(
  data: Uint8Array,
  pageNumber: number,
  dpi: number,
): Promise<{ png: Uint8Array; width: number; height: number }> {
  return drawPdfPage(data, pageNumber, dpi, async (canvas) => ({
    png: await canvas.encode('png'),
    width: canvas.width,
    height: canvas.height,
  }));
}

/** Page `pageNumber` of a PDF drawn at `dpi`, as grey pixels (what OCR reads). */
export async function renderPdfPageGrey(data: Uint8Array, pageNumber: number, dpi: number): Promise<GreyImage> {
  return drawPdfPage(data, pageNumber, dpi, async (canvas) => {
    const { data: rgba } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    return greyOfRgba(rgba, canvas.width, canvas.height);
  });
}

async function drawPdfPage<T>(
  data: Uint8Array,
  pageNumber: number,
  dpi: number,
  take: (canvas: Canvas) => Promise<T>,
): Promise<T> {
  await registerCjkFonts();
  const { createCanvas } = await import('@napi-rs/canvas');
  const doc = await openPdf(data);
  try {
    if (pageNumber < 1 || pageNumber > doc.numPages) throw badRequest('pdf.unknown_page');
    const page = await doc.getPage(pageNumber);
    const viewport = page.getViewport({ scale: dpi / 72 });
    const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    // pdf.js draws on any 2D context of the canvas API (@napi-rs/canvas is the one it uses in Node itself)
    if (!isCanvasContext(context)) throw new Error('no 2D canvas context');
    await page.render({ canvas: null, canvasContext: context, viewport }).promise;
    page.cleanup();
    return await take(canvas);
  } finally {
    await doc.destroy();
  }
}

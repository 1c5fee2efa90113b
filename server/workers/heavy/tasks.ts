import { AppError, badRequest } from '../../errors';
import type { UploadedFile } from '../../formats/documents/upload';
import type { RawRow, toXlsx } from '../../domain/dictionaries/import';
import { compareParagraphs, type CompareResult } from '../../formats/diff/compare';
import type { Fix, Ignored, StoredIssue } from '../../formats/documents/content';
import type { TrackedOptions } from '../../formats/documents/docx-export';
import type { ExtractedDocument } from '../../formats/documents/extract';
import type { DocKind, HtmlResult } from '../../formats/documents/load';
import type { UploadKind } from '../../formats/documents/read';
import { checkFormat, type FormatReport } from '../../formats/format/check';
import type { FormatTemplate } from '../../formats/format/template-store';
import type { PageText } from '../../formats/web/extract';
import type { PdfPageText } from '../../formats/pdf/pdfjs';
import type { AnnotatedPage } from '../../formats/pdf/annotate';
import { recognise, type OcrText } from '../../formats/ocr/tesseract';
import { checkedImageSize, MAX_PIXELS } from '../../formats/media/image-read';
import { cutForOcr, decodeGrey, type OcrCut } from '../../formats/ocr/cut';
import { OCR_DPI } from '../../formats/ocr/strips';
import { greyPixels, samePicture } from '../../formats/media/frames';

// The libraries behind most tasks (exceljs, mammoth, docx, pdf.js, pdf-lib, linkedom, Readability) took most of a
// worker's start, two seconds of CPU, and a worker seldom runs every kind of task: each loads with the first task
// that needs it.
const dictImport = () => import('../../domain/dictionaries/import');
const documentLoad = () => import('../../formats/documents/load');
const documentRead = () => import('../../formats/documents/read');
const formatResolver = () => import('../../formats/format/resolver');
const pdfjs = () => import('../../formats/pdf/pdfjs');
const documentContent = () => import('../../formats/documents/content');
const docxExport = () => import('../../formats/documents/docx-export');
const documentExtract = () => import('../../formats/documents/extract');
const webExtract = () => import('../../formats/web/extract');
const pdfAnnotate = () => import('../../formats/pdf/annotate');

/**
 * Every piece of heavy work the server does, by name. These run only inside the heavy worker pool
 * (worker-body.ts), never on the event loop: the main thread imports this module for its types alone.
 * Inputs and outputs cross the thread boundary by structured clone, so Buffers arrive as Uint8Arrays.
 */

/** A file part as it crosses to a worker. */
export interface FileInput {
  filename: string;
  data: Uint8Array;
}

const asFile = (f: FileInput): UploadedFile => ({
  filename: f.filename,
  mimetype: '',
  data: Buffer.from(f.data.buffer, f.data.byteOffset, f.data.byteLength),
});

/** Deepest element nesting accepted in HTML we parse (real documents stay under a few dozen levels). */
export const MAX_HTML_DEPTH = 200;

/**
 * Refuses HTML nested deeper than MAX_HTML_DEPTH before any recursive parser or writer sees it: a 10,000-level
 * document otherwise overflows their stacks. A linear scan of tag opens and closes; void elements do not nest.
 */
export function checkHtmlDepth(html: string, max = MAX_HTML_DEPTH): void {
  const VOID = /^(area|base|br|col|embed|hr|img|input|link|meta|source|track|wbr)$/i;
  const tag = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)[^>]*?(\/?)>/g;
  let depth = 0;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    if (m[1]) depth = Math.max(0, depth - 1);
    else if (!m[3] && !VOID.test(m[2])) {
      depth++;
      if (depth > max) throw badRequest('document.nested_too_deep', { max });
    }
  }
}

export interface SaveContentInput {
  text?: string;
  html?: string;
  previousHtml: string;
  fixes: Fix[];
}

export const heavyTasks = {
  /** The rows of a dictionary import (.txt, .csv, .xlsx through exceljs). */
  async importFile(input: FileInput): Promise<RawRow[]> {
    const { readImportFile } = await dictImport();
    return readImportFile(asFile(input));
  },

  /** An .xlsx written with exceljs (dictionary exports). */
  async xlsx(input: { sheets: Parameters<typeof toXlsx>[0] }): Promise<Uint8Array> {
    const { toXlsx } = await dictImport();
    return toXlsx(input.sheets);
  },

  /** An uploaded document's content for a document job (mammoth, LibreOffice for .doc/.wps). */
  async read(input: FileInput & { kind: UploadKind }): Promise<{ html: string; text: string }> {
    const { readDocument } = await documentRead();
    const content = await readDocument(asFile(input), input.kind);
    return { html: content.html, text: content.text };
  },

  /** The contract's doc2html: an upload as sanitised HTML. */
  async doc2html(input: FileInput): Promise<HtmlResult> {
    const { documentToHtml } = await documentLoad();
    return documentToHtml(asFile(input));
  },

  /** A .docx written from HTML (html2doc/stream and the clean export). */
  async clean(input: { html: string; title?: string }): Promise<Uint8Array> {
    checkHtmlDepth(input.html);
    const { htmlToDocx } = await docxExport();
    return htmlToDocx(input.html, input.title);
  },

  /**
   * The tracked-changes export of a stored document: its HTML, and its fixes, findings and ignored findings as
   * stored (JSON or null).
   */
  async tracked(input: {
    html: string;
    fixes: string | null;
    issues: string | null;
    ignored: string | null;
    options: TrackedOptions;
  }): Promise<Uint8Array> {
    const [{ openIssues, trackedParagraphs, htmlBlocks }, { buildTrackedDocx }] = await Promise.all([
      documentContent(),
      docxExport(),
    ]);
    const parse = <T>(json: string | null): T[] => (json ? (JSON.parse(json) as T[]) : []);
    const open = openIssues(parse<StoredIssue>(input.issues), parse<Ignored>(input.ignored));
    const paragraphs = trackedParagraphs(htmlBlocks(input.html), parse<Fix>(input.fixes), open);
    return buildTrackedDocx(paragraphs, input.options);
  },

  /** GB/T 9704 format check of a .docx against a template. */
  async formatCheck(input: FileInput & { template: FormatTemplate; lang?: 'cn' | 'en' }): Promise<FormatReport> {
    const [{ detectKind, openDocx }, { parseDocx }] = await Promise.all([documentLoad(), formatResolver()]);
    const file = asFile(input);
    detectKind(file, ['docx']);
    const parts = openDocx(file.data);
    let parsed;
    try {
      parsed = parseDocx(parts);
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw badRequest('document.unreadable');
    }
    return checkFormat(parsed, input.template, input.lang);
  },

  /** The paragraphs of a document to compare (docx, txt, md, pdf). */
  async extract(input: FileInput & { allowed: DocKind[]; maxPages: number }): Promise<ExtractedDocument> {
    const { extractParagraphs } = await documentExtract();
    return extractParagraphs(asFile(input), input.allowed, input.maxPages);
  },

  /** Paragraph alignment and character diff of two extracted documents, with their names (the contract's answer). */
  async compare(input: {
    a: string[];
    b: string[];
    names: [string, string];
  }): Promise<CompareResult & { original_name: string; revised_name: string }> {
    return { original_name: input.names[0], revised_name: input.names[1], ...compareParagraphs(input.a, input.b) };
  },

  /** A fetched web page's readable text (charset, Readability over linkedom), refused when nested too deep. */
  async readPage(input: {
    body: Uint8Array;
    charset: string | null;
    mediaType: string;
    url: string;
  }): Promise<PageText> {
    const { decodePage, extractPage } = await webExtract();
    const source = decodePage(
      Buffer.from(input.body.buffer, input.body.byteOffset, input.body.byteLength),
      input.charset,
    );
    // Readability walks the DOM recursively: a page nested thousands deep would overflow its stack
    if (input.mediaType !== 'text/plain') checkHtmlDepth(source);
    return extractPage(source, input.mediaType, input.url);
  },

  /** How many pages a PDF has (refusing one pdf.js cannot open). */
  async pdfPageCount(input: { data: Uint8Array }): Promise<number> {
    const { pdfPageCount } = await pdfjs();
    return pdfPageCount(input.data);
  },

  /** Text with a box per character of pages `from`..`to` of a PDF. */
  async pdfPages(input: { data: Uint8Array; from: number; to: number }): Promise<PdfPageText[]> {
    const { readPdfPages } = await pdfjs();
    return readPdfPages(input.data, input.from, input.to);
  },

  /**
   * A scanned PDF page drawn at OCR_DPI and cut for OCR in at most `parts` strips (ocr/strips.ts), read by `ocrStrip`
   * side by side.
   */
  async pdfOcrCut(input: { data: Uint8Array; page: number; parts: number }): Promise<OcrCut> {
    const { renderPdfPageGrey } = await pdfjs();
    return cutForOcr(await renderPdfPageGrey(input.data, input.page, OCR_DPI), input.parts);
  },

  /**
   * An uploaded image cut for OCR in at most `parts` strips. PNG and JPEG are decoded here; another format, or a file
   * the decoder refuses, is one strip of the file itself, which the OCR's own reader decodes (or refuses).
   */
  async imageOcrCut(input: { data: Uint8Array; parts: number }): Promise<OcrCut> {
    const size = checkedImageSize(input.data);
    const grey = decodeGrey(input.data, MAX_PIXELS);
    if (grey && grey.width === size.width && grey.height === size.height) return cutForOcr(grey, input.parts);
    return { ...size, strips: [{ png: input.data, rect: { left: 0, top: 0, ...size }, scale: 1, upload: true }] };
  },

  /** A strip of a page (or a whole picture) read by OCR: its text with boxes in its pixels. */
  async ocrStrip(input: { png: Uint8Array; upload?: boolean }): Promise<OcrText> {
    try {
      return await recognise(input.png);
    } catch (error) {
      // a file the OCR's reader cannot decode is the uploader's to hear of; a strip drawn here failing is a fault
      if (input.upload) throw badRequest('image.unreadable');
      throw error;
    }
  },

  /**
   * Frames of a video (the bottom band, greyscale PNG) read by OCR, in order: burned-in subtitles. A frame showing
   * what the one before it showed (`previous` for the first) is not read again: null, the same text. A few frames per
   * task, so one task stays far inside the pool's time limit.
   */
  async ocrFrames(input: { pngs: Uint8Array[]; previous?: Uint8Array }): Promise<Array<OcrText | null>> {
    const out: Array<OcrText | null> = [];
    // compared with the last frame read, so that a slow change never slips through frame by frame
    let read = input.previous ? greyPixels(input.previous) : null;
    for (const png of input.pngs) {
      const pixels = greyPixels(png);
      if (samePicture(pixels, read)) out.push(null);
      else {
        out.push(await recognise(png));
        read = pixels;
      }
    }
    return out;
  },

  /** A PDF page drawn as PNG. */
  async pdfRender(input: {
    data: Uint8Array;
    page: number;
    dpi: number;
  }): Promise<{ png: Uint8Array; width: number; height: number }> {
    const { renderPdfPage } = await pdfjs();
    return renderPdfPage(input.data, input.page, input.dpi);
  },

  /** The checked PDF with a highlight and a comment on each finding. */
  async pdfAnnotate(input: { data: Uint8Array; pages: AnnotatedPage[] }): Promise<Uint8Array> {
    const { annotatePdf } = await pdfAnnotate();
    return annotatePdf(input.data, input.pages);
  },

  /** The editor's save: content rebuilt from the edited text or HTML, fixes checked against it. */
  async saveContent(input: SaveContentInput): Promise<{ html: string; text: string; fixes: Fix[] }> {
    if (input.html !== undefined) checkHtmlDepth(input.html);
    const { contentFromText, contentFromHtml, validateFixes } = await documentContent();
    const content =
      input.text !== undefined ? contentFromText(input.text, input.previousHtml) : contentFromHtml(input.html ?? '');
    return {
      html: content.html,
      text: content.text,
      fixes: content.text.trim() ? validateFixes(content.text, input.fixes) : [],
    };
  },
};

/**
 * The libraries each task loads (above), which its worker loads before the task's time limit starts: the first task of
 * a kind in a new worker would otherwise spend up to a second of its limit on loading code, and a short limit would
 * refuse an ordinary document. Tasks not named here use only what the worker loaded when it started.
 */
export const heavyTaskLibraries: { readonly [K in HeavyTaskName]?: ReadonlyArray<() => Promise<unknown>> } = {
  importFile: [dictImport],
  xlsx: [dictImport],
  read: [documentRead],
  doc2html: [documentLoad],
  clean: [docxExport],
  tracked: [documentContent, docxExport],
  formatCheck: [documentLoad, formatResolver],
  extract: [documentExtract],
  readPage: [webExtract],
  pdfPageCount: [pdfjs],
  pdfPages: [pdfjs],
  pdfOcrCut: [pdfjs],
  pdfRender: [pdfjs],
  pdfAnnotate: [pdfAnnotate],
  saveContent: [documentContent],
};

export type HeavyTasks = typeof heavyTasks;
export type HeavyTaskName = keyof HeavyTasks;
export type HeavyInput<K extends HeavyTaskName> = Parameters<HeavyTasks[K]>[0];
export type HeavyOutput<K extends HeavyTaskName> = Awaited<ReturnType<HeavyTasks[K]>>;

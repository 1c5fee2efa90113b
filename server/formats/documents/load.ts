// jszip and mammoth are loaded on first use: the main thread imports this module for its small helpers
// (extensionOf, detectKind, decodeText) and should not carry the converters it never runs
export const loadJSZip = async () => (await import('jszip')).default;
const loadMammoth = async () => (await import('mammoth')).default;
import { badRequest } from '../../errors';
import type { UploadedFile } from './upload';
import { applyMarkers, markParagraphs } from './docx-format';
import { markdownToHtml } from './markdown';
import { openPptx, pptxToHtml } from './pptx';
import { escapeHtml, sanitize } from './sanitize';
import { DEFAULT_ZIP_LIMITS, isZip, unzip, type ZipLimits } from './zip';

export type DocKind = 'docx' | 'pptx' | 'txt' | 'md' | 'pdf';

const EXTENSIONS: Record<string, DocKind> = {
  docx: 'docx',
  pptx: 'pptx',
  txt: 'txt',
  text: 'txt',
  md: 'md',
  markdown: 'md',
  pdf: 'pdf',
};

export const extensionOf = (name: string) => (/\.([a-z0-9]+)$/i.exec(name)?.[1] ?? '').toLowerCase();

/** The kind a file claims by its name, checked against its first bytes. Throws 400 with a readable message. */
export function detectKind<K extends DocKind>(file: UploadedFile, allowed: readonly K[]): K {
  if (!file || !Buffer.isBuffer(file.data)) throw badRequest('upload.no_file');
  if (file.data.length === 0) throw badRequest('upload.empty_file');
  const ext = extensionOf(file.filename ?? '');
  const claimed = EXTENSIONS[ext];
  if (ext === 'doc' || ext === 'wps') throw badRequest('document.doc_unsupported');
  if (ext === 'ppt') throw badRequest('document.old_ppt');
  const kind = allowed.find((k) => k === claimed);
  if (!kind) throw badRequest('document.type_unsupported', { types: allowed.map((k) => '.' + k).join('、') });
  const d = file.data;
  const head = d.subarray(0, 8);
  if (head[0] === 0x4d && head[1] === 0x5a) throw badRequest('document.executable');
  if (kind === 'docx') {
    if (head.equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])))
      throw badRequest('document.old_doc');
    if (!isZip(d)) throw badRequest('document.not_docx');
  }
  if (kind === 'pptx') {
    if (head.equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])))
      throw badRequest('document.old_ppt');
    if (!isZip(d)) throw badRequest('document.not_pptx');
  }
  if (kind === 'pdf' && d.subarray(0, 5).toString('latin1') !== '%PDF-') throw badRequest('document.not_pdf');
  if ((kind === 'txt' || kind === 'md') && (isZip(d) || d.subarray(0, 5).toString('latin1') === '%PDF-'))
    throw badRequest('document.not_text');
  return kind;
}

/** A .docx's parts, inflated within limits; requires the parts every Word document has. */
export function openDocx(data: Buffer, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Map<string, Buffer> {
  const parts = unzip(data, limits);
  if (!parts.has('[Content_Types].xml') || !parts.has('word/document.xml')) {
    throw badRequest('document.zip_not_docx');
  }
  return parts;
}

/** Text of a .txt/.md file: UTF-8 (BOM or not), UTF-16 with BOM, otherwise GB18030. Binary content is refused. */
export function decodeText(data: Buffer): string {
  let text: string;
  if (data[0] === 0xff && data[1] === 0xfe) text = new TextDecoder('utf-16le').decode(data.subarray(2));
  else if (data[0] === 0xfe && data[1] === 0xff) text = new TextDecoder('utf-16be').decode(data.subarray(2));
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(data);
    } catch {
      text = new TextDecoder('gb18030').decode(data);
    }
  }
  if (/[\u0000-\u0008\u000e-\u001a]/.test(text.slice(0, 65536))) throw badRequest('document.binary_text');
  return text.replace(/\r\n?/g, '\n');
}

const textToHtml = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => `<p>${escapeHtml(line)}</p>`)
    .join('\n');

/** A rebuilt, uncompressed zip of verified parts: whatever mammoth inflates is already size-checked. */
async function storedZip(parts: Map<string, Buffer>): Promise<Buffer> {
  const JSZip = await loadJSZip();
  const zip = new JSZip();
  for (const [name, body] of parts) zip.file(name, body, { binary: true });
  return zip.generateAsync({ type: 'nodebuffer', compression: 'STORE' });
}

export interface HtmlResult {
  name: string;
  html: string;
  word_count: number;
}

/** Counts CJK characters and Latin words (the spec's 字数 for mixed text). */
export function wordCount(text: string): number {
  // One pass over the code units: a document of a million characters costs no array of a million matches.
  let count = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff)) {
      count++;
      inWord = false;
    } else if ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) {
      if (!inWord) count++;
      inWord = true;
    } else inWord = false;
  }
  return count;
}

export async function documentToHtml(file: UploadedFile): Promise<HtmlResult> {
  const kind = detectKind(file, ['docx', 'pptx', 'txt', 'md']);
  let html: string;
  if (kind === 'pptx') {
    html = pptxToHtml(openPptx(file.data));
  } else if (kind === 'docx') {
    const parts = openDocx(file.data);
    try {
      const mammoth = await loadMammoth();
      const result = await mammoth.convertToHtml(
        { buffer: await storedZip(parts) },
        {
          styleMap: ["p[style-name='Title'] => h1:fresh", "p[style-name='Subtitle'] => h2:fresh", 'u => u'],
          // bold, italic, underline, alignment and size of whole paragraphs become classes (docx-format.ts)
          transformDocument: markParagraphs,
        },
      );
      html = applyMarkers(result.value);
    } catch {
      throw badRequest('document.no_convert');
    }
  } else {
    const text = decodeText(file.data);
    html = kind === 'md' ? markdownToHtml(text) : textToHtml(text);
  }
  const clean = sanitize(html);
  const plain = clean.replace(/<[^>]*>/g, '');
  if (!plain.trim() && !/<img /.test(clean)) throw badRequest('document.nothing_readable');
  return { name: file.filename, html: clean, word_count: wordCount(plain) };
}

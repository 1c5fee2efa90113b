import type { UploadedFile } from './upload';
import { badRequest } from '../../errors';
import { parseDocx } from '../format/resolver';
import { decodeText, detectKind, openDocx, type DocKind } from './load';
import { pdfText } from './pdf-text';

/** Characters on one GB/T 9704 page (22 lines × 28 characters), used to estimate pages of flowing text. */
export const CHARS_PER_PAGE = 22 * 28;

export interface ExtractedDocument {
  name: string;
  kind: DocKind;
  paragraphs: string[];
  /** Real page count for PDF, an estimate (characters / 616) otherwise. */
  pages: number;
}

/** Plain paragraphs of a document (.docx incl. table cells, .txt, .md). */
export async function extractParagraphs(
  file: UploadedFile,
  allowed: DocKind[] = ['docx', 'txt', 'md'],
  maxPdfPages = Infinity,
): Promise<ExtractedDocument> {
  const kind = detectKind(file, allowed);
  let paragraphs: string[];
  let pdfPages: number | undefined;
  if (kind === 'docx') {
    const parts = openDocx(file.data);
    try {
      paragraphs = parseDocx(parts).paragraphs.map((p) => p.text);
    } catch {
      throw badRequest('document.unreadable');
    }
  } else if (kind === 'pdf') {
    // Pages beyond the limit are not read: the caller refuses the file by its page count.
    const pdf = await pdfText(file.data, maxPdfPages);
    pdfPages = pdf.pages;
    paragraphs = pdf.lines;
  } else paragraphs = decodeText(file.data).split('\n');
  paragraphs = paragraphs
    .map((p) => p.replace(/[\s\u3000]+$/g, '').replace(/^[\s]+/, ''))
    .filter((p) => p.replace(/[\s\u3000]/g, '') !== '');
  const chars = paragraphs.reduce((n, p) => n + p.length, 0);
  return { name: file.filename, kind, paragraphs, pages: pdfPages ?? Math.max(1, Math.ceil(chars / CHARS_PER_PAGE)) };
}

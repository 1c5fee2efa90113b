/**
 * PDF checks: an uploaded PDF (right 4 charged at upload) is read in batches of pages in the heavy pool (text with a
 * box per character), its pages' text is checked in the shared checker pool with the owner's dictionaries, and the
 * pages are stored with their findings and boxes a batch at a time (check-pages.ts); progress goes to every session
 * of the owner (socket type 2 cmd 7). A check can be cancelled; a failed, cancelled or interrupted check gives the
 * upload back.
 *
 * Checks run as jobs (server/jobs/kinds/pdf.ts).
 */
import { isServerMessageCode, type MessageParams } from '../../../openapi/messages';
import type { components } from '../../../openapi/schema';
import type { PdfCheckRecord } from '../../db/repos/pdf-checks';
import type { PdfPageText } from './pdfjs';

export type PdfSummary = components['schemas']['PdfSummary'];
type Issue = components['schemas']['Issue'];
export type PdfIssue = Issue & { rects: number[][] };

const parse = <T>(json: string | null): T | null => (json ? (JSON.parse(json) as T) : null);

export function pdfSummary(row: PdfCheckRecord): PdfSummary {
  const params = parse<MessageParams>(row.error_params);
  return {
    id: Number(row.id),
    name: row.name,
    size: Number(row.size),
    status: row.status,
    progress: Number(row.progress),
    page_count: Number(row.page_count),
    pages_done: Number(row.pages_done),
    issue_count: Number(row.issue_count),
    created_at: row.created_at,
    ...(row.error !== null && { error: row.error }),
    ...(row.error_code !== null && isServerMessageCode(row.error_code) && { error_code: row.error_code }),
    ...(params && { error_params: params }),
  };
}

/**
 * The boxes of the characters `start`..`end` of a page, merged along each line ([x, y, width, height] in points,
 * top-left origin).
 */
export function rectsOf(page: Pick<PdfPageText, 'boxes'>, start: number, end: number): number[][] {
  const rects: number[][] = [];
  for (let i = start; i < end; i++) {
    const [x, y, w, h] = page.boxes.slice(i * 4, i * 4 + 4);
    if (!w || !h) continue;
    const last = rects.at(-1);
    // the next character of the same line extends the box
    if (last && Math.abs(last[1] - y) < h / 2 && Math.abs(last[0] + last[2] - x) < h) {
      const right = Math.max(last[0] + last[2], x + w);
      last[2] = right - last[0];
      last[3] = Math.max(last[3], h);
    } else rects.push([x, y, w, h].map((v) => Math.round(v * 100) / 100));
  }
  return rects.map((r) => r.map((v) => Math.round(v * 100) / 100));
}

/** Characters OCR read with a confidence (0-100) below this are 识别存疑: never reported as typos on their own. */
export const UNSURE_BELOW = 60;

/**
 * The [start, end) ranges of UTF-16 units of OCR text whose confidence is below UNSURE_BELOW. A line most of whose
 * characters are unsure is unsure as a whole: it is noise read as text (specks, stamps, pictures), and the few
 * characters tesseract is sure of there (quotes, commas) would otherwise give findings of their own.
 */
export function unsureRanges(text: string, confidences: number[], below = UNSURE_BELOW): Array<[number, number]> {
  const unsure = confidences.map((c) => c < below);
  let start = 0;
  for (const line of text.split('\n')) {
    const units: number[] = [];
    for (let i = 0; i < line.length; i++) if (line[i].trim()) units.push(start + i);
    if (units.filter((i) => unsure[i]).length * 2 > units.length) for (const i of units) unsure[i] = true;
    start += line.length + 1;
  }
  const ranges: Array<[number, number]> = [];
  unsure.forEach((u, i) => {
    if (!u || !text[i].trim()) return;
    const last = ranges.at(-1);
    // spaces inside an unsure stretch do not split it
    if (last && !text.slice(last[1], i).trim()) last[1] = i + 1;
    else ranges.push([i, i + 1]);
  });
  return ranges;
}

/** Whether every character of `text` but spaces is in an unsure range. */
export function allUnsure(text: string, unsure: Array<[number, number]>): boolean {
  let at = 0;
  for (const [start, end] of unsure) {
    if (text.slice(at, start).trim()) return false;
    at = end;
  }
  return !text.slice(at).trim();
}

/**
 * The findings that touch no unsure character. OCR noise is the main source of false alarms on scans: a finding on
 * a character the OCR misread would blame the author for the scanner's mistake.
 */
export function withoutUnsure<T extends { start: number; end: number }>(
  issues: T[],
  unsure: Array<[number, number]>,
): T[] {
  // a finding with no characters (a missing one) is judged by the character it stands before
  return issues.filter((i) => !unsure.some(([a, b]) => a < Math.max(i.end, i.start + 1) && i.start < b));
}

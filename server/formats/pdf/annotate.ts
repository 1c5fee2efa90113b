/**
 * The checked PDF with its findings on it: a highlight annotation over each finding's characters with a comment
 * saying the original, the suggestions and why (pdf-lib writes them into the original file, which keeps every byte
 * of its pages). The boxes are in the page as pdf.js shows it (top-left origin, rotation applied); pdf.js turns them
 * back into the page's own coordinates, so rotated and offset pages get their highlights in place.
 */
import { PDFDocument, PDFHexString, PDFString } from 'pdf-lib';
import { openPdf } from './pdfjs';

export interface AnnotatedPage {
  /** 1-based */
  page: number;
  issues: Array<{ rects: number[][]; original: string; suggestions: string[]; message: string }>;
}

/** The comment of a finding: original → suggestions, then the reason. */
export function commentOf(issue: AnnotatedPage['issues'][number]): string {
  const to = issue.suggestions;
  const head = to.length ? `${issue.original} → ${to.map((s) => s || '（删除）').join(' / ')}` : issue.original;
  return `${head}\n${issue.message}`;
}

export async function annotatePdf(data: Uint8Array, pages: AnnotatedPage[]): Promise<Uint8Array> {
  // where each box is in the page's own coordinates, through pdf.js's view of the page
  const quads = new Map<number, Array<{ quad: number[]; rect: number[]; text: string }>>();
  const view = await openPdf(data);
  try {
    for (const p of pages) {
      if (!p.issues.length || p.page < 1 || p.page > view.numPages) continue;
      const page = await view.getPage(p.page);
      const viewport = page.getViewport({ scale: 1 });
      const marks: Array<{ quad: number[]; rect: number[]; text: string }> = [];
      for (const issue of p.issues) {
        const text = commentOf(issue);
        for (const [x, y, w, h] of issue.rects) {
          const [ax, ay] = viewport.convertToPdfPoint(x, y);
          const [bx, by] = viewport.convertToPdfPoint(x + w, y + h);
          const [left, right] = [Math.min(ax, bx), Math.max(ax, bx)];
          const [bottom, top] = [Math.min(ay, by), Math.max(ay, by)];
          marks.push({
            quad: [left, top, right, top, left, bottom, right, bottom],
            rect: [left, bottom, right, top],
            text,
          });
        }
      }
      quads.set(p.page, marks);
      page.cleanup();
    }
  } finally {
    await view.destroy();
  }

  const doc = await PDFDocument.load(data, { updateMetadata: false });
  const now = PDFString.fromDate(new Date());
  const docPages = doc.getPages();
  for (const [number, marks] of quads) {
    const page = docPages[number - 1];
    for (const mark of marks) {
      const annot = doc.context.obj({
        Type: 'Annot',
        Subtype: 'Highlight',
        Rect: mark.rect,
        QuadPoints: mark.quad,
        // amber, see-through: the text under it stays readable in every viewer
        C: [1, 0.76, 0.03],
        CA: 0.45,
        F: 4,
        T: PDFHexString.fromText('校对'),
        Contents: PDFHexString.fromText(mark.text),
        M: now,
      });
      page.node.addAnnot(doc.context.register(annot));
    }
  }
  return doc.save({ useObjectStreams: false });
}

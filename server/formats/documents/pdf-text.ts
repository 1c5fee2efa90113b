import { normalisePdfText, openPdf } from '../pdf/pdfjs';

export interface PdfText {
  pages: number;
  /** One string per text line, in page order. */
  lines: string[];
}

/** Text lines of a PDF (pdfjs-dist legacy build). Scanned pages give no text here (the PDF check reads them). */
export async function pdfText(data: Buffer, maxPages = Infinity): Promise<PdfText> {
  const doc = await openPdf(data);
  try {
    const lines: string[] = [];
    const pages = doc.numPages;
    for (let n = 1; n <= Math.min(pages, maxPages); n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let line = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        line += item.str;
        if (item.hasEOL) {
          lines.push(normalisePdfText(line));
          line = '';
        }
      }
      if (line) lines.push(normalisePdfText(line));
      page.cleanup();
    }
    return { pages, lines };
  } finally {
    await doc.destroy();
  }
}

import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { badRequest } from '../../errors';

const require = createRequire(import.meta.url);
const root = dirname(require.resolve('pdfjs-dist/package.json'));
// Local cMaps and standard fonts: without them non-embedded CJK fonts extract as "" (and nothing may download).
const CMAPS = pathToFileURL(join(root, 'cmaps') + '/').href;
const FONTS = pathToFileURL(join(root, 'standard_fonts') + '/').href;

/** Normalises Kangxi radicals and CJK radical supplements some PDFs use for ordinary characters. */
const normalise = (s: string) => s.replace(/[\u2f00-\u2fdf]/g, (c) => c.normalize('NFKC'));

export interface PdfText {
  pages: number;
  /** One string per text line, in page order. */
  lines: string[];
}

/** Text lines of a PDF (pdfjs-dist legacy build). Scanned pages give no text (OCR is the PDF issue's business). */
export async function pdfText(data: Buffer, maxPages = Infinity): Promise<PdfText> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  let doc;
  try {
    doc = await pdfjs.getDocument({
      data: new Uint8Array(data),
      cMapUrl: CMAPS,
      cMapPacked: true,
      standardFontDataUrl: FONTS,
      useSystemFonts: false,
      isEvalSupported: false,
      verbosity: 0,
    }).promise;
  } catch {
    throw badRequest('document.pdf_unreadable');
  }
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
          lines.push(normalise(line));
          line = '';
        }
      }
      if (line) lines.push(normalise(line));
      page.cleanup();
    }
    return { pages, lines };
  } finally {
    await doc.destroy();
  }
}

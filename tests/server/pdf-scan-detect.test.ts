/**
 * Which PDF pages are scans to read by OCR (server/formats/pdf/pdfjs.ts): a page without text, and a page a picture
 * covers with a little text on it (a stamped page number); not a text page with a small logo.
 */
import { describe, expect, it } from 'vitest';
import { readPdfPages } from '../../server/formats/pdf/pdfjs';
import { makePdf } from '../fixtures/pdf';

const W = 60,
  H = 85;
const grey = Buffer.alloc(W * H, 200);

describe('scanned PDF pages', () => {
  it('takes a picture with a stamped page number for a scan, and a text page with a logo for text', async () => {
    const pdf = makePdf([
      { kind: 'text', lines: ['第一页是文字。', '第二行也是文字。'], logo: true },
      { kind: 'scan', width: W, height: H, pixels: grey },
      { kind: 'scan', width: W, height: H, pixels: grey, stamp: '第3页' },
      { kind: 'text', lines: ['短'] },
    ]);
    const pages = await readPdfPages(pdf, 1, 4);
    expect(pages.map((p) => [p.text.replace(/\s/g, ''), p.scan])).toEqual([
      ['第一页是文字。第二行也是文字。', false],
      ['', true],
      ['第3页', true],
      // little text and no picture: a short page, not a scan
      ['短', false],
    ]);
  });
});

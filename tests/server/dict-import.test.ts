import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, CLIENT_HEADERS, register, startTestApp, tinyPng, type TestApp } from './helpers';
import { http, listen, runCheck, SocketClient } from './proofread-support';
import { checkerPool } from '../../server/workers/checker/pool';
import { listDownloads } from '../../server/domain/accounts/downloads';
import { parseLibrary, wordLibraries } from '../../server/domain/dictionaries/word-libraries';
import { loadUserDictionary } from '../../server/domain/dictionaries/dictionary';
import { Cluster, PG_BIN } from './pg-cluster';

let t: TestApp;
let alice: string;
let bob: string;
beforeAll(async () => {
  t = await startTestApp();
  alice = await register(t, '13900000021');
  bob = await register(t, '13900000022');
});
afterAll(async () => t.close());

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function upload(
  token: string,
  filename: string,
  data: Buffer,
  type = 'text/plain',
  fields: Record<string, string> = {},
  target: TestApp = t,
) {
  const boundary = '----dict-import-boundary';
  const parts = Object.entries(fields).map(([k, v]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
  );
  const payload = Buffer.concat([
    ...parts,
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; ` +
        `filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await target.app.inject({
    method: 'POST',
    url: '/dict/v1/upload_words',
    headers: {
      ...CLIENT_HEADERS,
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload,
  });
  return { status: res.statusCode, json: res.json() };
}

async function download(token: string, url: string, target: TestApp = t) {
  const res = await target.app.inject({
    method: 'GET',
    url,
    headers: { ...CLIENT_HEADERS, authorization: `Bearer ${token}` },
  });
  return { status: res.statusCode, body: res.rawPayload, headers: res.headers, text: res.rawPayload.toString('utf8') };
}

const words = async (token: string) =>
  (
    (await call(t.app, 'GET', '/dict/v1/get_list?size=100', undefined, token)).json.result.list as Array<{
      id: number;
      word: string;
      type: number;
      correct: string | null;
    }>
  )
    .map((w) => `${w.word}|${w.type}|${w.correct ?? ''}`)
    .sort();

async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  rows.forEach((r) => ws.addRow(r));
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe('import /dict/v1/upload_words', () => {
  it(
    'imports good .txt rows, reports each bad row with its reason, and keeps the ' + 'failures for their owner only',
    async () => {
      const text = [
        'word\ttype\tcorrect',
        '萍果\t5\t苹果',
        '敏感甲\t4',
        '\t4',
        '重点乙\t重点词',
        '错丙\t5',
        '同字\t5\t同字',
        '丁\t7',
        `${'长'.repeat(51)}\t4`,
        '萍果\t5\t苹果',
        '',
        '允许丁\tallowed',
      ].join('\n');
      const res = await upload(alice, 'words.txt', Buffer.from(text));
      expect(res.status).toBe(200);
      expect(res.json.result).toMatchObject({ total: 10, added: 4, failed: 6 });
      expect(res.json.result.failures.map((f: { line: number }) => f.line)).toEqual([4, 6, 7, 8, 9, 10]);
      expect(await words(alice)).toEqual(['允许丁|1|', '敏感甲|4|', '萍果|5|苹果', '重点乙|9|']);

      const file = await download(alice, '/dict/down_words_failed_to_upload');
      expect(file.status).toBe(200);
      expect(file.headers['content-type']).toMatch(/^text\/csv/);
      expect(String(file.headers['content-disposition'])).toContain(encodeURIComponent('words-导入失败.csv'));
      const lines = file.text
        .replace(/^\ufeff/, '')
        .trim()
        .split('\r\n');
      expect(lines[0]).toBe('word,type,correct,reason,line');
      expect(lines).toHaveLength(7);
      expect(lines[1]).toMatch(/^,4,,词语为空.*,4$/);
      expect(lines[2]).toMatch(/^错丙,5,,错词缺少正确写法.*,6$/);
      expect(lines[3]).toMatch(/^同字,5,同字,正确写法与错词相同.*,7$/);
      expect(lines[4]).toMatch(/^丁,7,,类型无效：7.*,8$/);
      expect(lines[5]).toMatch(/超过 50 个字.*,9$/);
      expect(lines[6]).toMatch(/^萍果,5,苹果,与第 2 行重复.*,10$/);

      // another user never sees alice's failures
      expect((await download(bob, '/dict/down_words_failed_to_upload')).status).toBe(404);
      expect((await download('', '/dict/down_words_failed_to_upload')).status).toBe(401);

      // re-importing the same file: the good rows are now duplicates of the dictionary; a clean import clears the
      // failures
      const again = await upload(alice, 'words.txt', Buffer.from(text));
      expect(again.json.result).toMatchObject({ added: 0, failed: 10 });
      expect((await download(alice, '/dict/down_words_failed_to_upload')).text).toContain('词库中已有该词');
      expect(
        (await upload(alice, 'ok.txt', Buffer.from('新词一\n新词二\n'), 'text/plain', { type: '9' })).json.result,
      ).toMatchObject({ added: 2, failed: 0 });
      expect((await download(alice, '/dict/down_words_failed_to_upload')).status).toBe(404);
      // without a default type, a row without type fails
      const noType = await upload(alice, 'no-type.txt', Buffer.from('无类型\n'));
      expect(noType.json.result.failures[0].reason).toMatch(/缺少类型/);
      await call(t.app, 'POST', '/dict/v1/delete_all_word', {}, alice);
    },
  );

  it('reads .csv with quotes, CRLF, a BOM or GB18030, and names of types', async () => {
    const csv = '\ufeffword,type,correct\r\n"逗,号",4,\r\n"引""号",敏感词,\r\n按装,错词,安装\r\n\r\n';
    const res = await upload(alice, 'dict.csv', Buffer.from(csv), 'text/csv');
    expect(res.json.result).toMatchObject({ total: 3, added: 3, failed: 0 });
    expect(await words(alice)).toEqual(['引"号|4|', '按装|5|安装', '逗,号|4|']);
    // GB18030 (what Excel on Chinese Windows saves): 错词 as the type name
    const gb = Buffer.from([
      0xc6, 0xbc, 0xb9, 0xfb, 0x2c, 0xb4, 0xed, 0xb4, 0xca, 0x2c, 0xc6, 0xbb, 0xb9, 0xfb, 0x0d, 0x0a,
    ]); // 萍果,错词,苹果 (GBK bytes)
    const gbRes = await upload(alice, 'gbk.csv', gb, 'text/csv');
    expect(gbRes.status).toBe(200);
    expect(gbRes.json.result).toMatchObject({ added: 1, failed: 0 });
    expect(await words(alice)).toContain('萍果|5|苹果');
    expect((await upload(alice, 'bad.csv', Buffer.from('"没闭合,4\n'), 'text/csv')).status).toBe(400);
    await call(t.app, 'POST', '/dict/v1/delete_all_word', {}, alice);
  });

  it('reads .xlsx good and bad rows', async () => {
    const data = await xlsx([
      ['word', 'type', 'correct'],
      ['表格错', 5, '表格对'],
      ['表格敏感', 4],
      ['', 9],
      ['表格坏', 5],
      ['表格允许', '允许词'],
    ]);
    const res = await upload(alice, '词库.xlsx', data, XLSX);
    expect(res.status).toBe(200);
    expect(res.json.result).toMatchObject({ total: 5, added: 3, failed: 2 });
    expect(res.json.result.failures).toEqual([
      expect.objectContaining({ line: 4, word: '', reason: expect.stringMatching(/词语为空/) }),
      expect.objectContaining({ line: 5, word: '表格坏', reason: expect.stringMatching(/错词缺少正确写法/) }),
    ]);
    expect(await words(alice)).toEqual(['表格允许|1|', '表格敏感|4|', '表格错|5|表格对']);
    await call(t.app, 'POST', '/dict/v1/delete_all_word', {}, alice);
  });

  it('refuses corrupt, disguised, unsupported and huge files with a clear 400 / 413 and changes nothing', async () => {
    const before = await words(alice);
    const corrupt = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from('not really a zip file')]);
    const cases: Array<[string, Buffer, number, RegExp]> = [
      ['broken.xlsx', corrupt, 400, /xlsx/],
      ['text.xlsx', Buffer.from('萍果,5,苹果'), 400, /xlsx/],
      ['picture.txt', tinyPng(), 400, /不是文本文件/],
      ['zip.csv', await xlsx([['a', 4]]), 400, /不是文本文件/],
      ['words.doc', Buffer.from('萍果'), 400, /仅支持/],
      ['empty.txt', Buffer.alloc(0), 400, /空/],
      ['huge.txt', Buffer.alloc(2 * 1024 * 1024 + 1, 0x41), 413, /2 MB/],
      ['rows.txt', Buffer.from(Array.from({ length: 10_001 }, (_, i) => `词${i}\t4`).join('\n')), 413, /10000/],
    ];
    for (const [name, data, status, msg] of cases) {
      const res = await upload(alice, name, data);
      expect(res.status, name).toBe(status);
      expect(res.json.code, name).toBe(status);
      expect(res.json.msg, name).toMatch(msg);
    }
    // a docx renamed .xlsx is a zip but not a workbook
    const { htmlToDocx } = await import('../../server/formats/documents/docx-export');
    const docx = await htmlToDocx('<p>文档</p>');
    expect((await upload(alice, 'doc.xlsx', Buffer.from(docx), XLSX)).status).toBe(400);
    expect((await upload(alice, 'x.txt', Buffer.from('词'), 'text/plain', { type: '3' })).status).toBe(400);
    expect(await words(alice)).toEqual(before);
  });
});

describe('export and template', () => {
  it(
    'exports the whole dictionary (.xlsx and .csv), records it in the download ' + 'center, and imports back the same',
    async () => {
      const entries = [
        { word: '萍果', type: 5, correct: '苹果' },
        { word: '=SUM(A1)', type: 4 },
        { word: '重点,项目', type: 9 },
        { word: '允许"词', type: 1 },
      ];
      for (const e of entries) expect((await call(t.app, 'POST', '/dict/v1/add_one', e, alice)).status).toBe(200);
      const original = await words(alice);
      for (const format of ['xlsx', 'csv'] as const) {
        const file = await download(alice, `/dict/v1/export_words?format=${format}`);
        expect(file.status).toBe(200);
        expect(String(file.headers['content-disposition'])).toContain(`.${format}`);
        if (format === 'csv') expect(file.text).toContain(`'=SUM(A1)`);
        expect((await call(t.app, 'POST', '/dict/v1/delete_all_word', {}, alice)).json.result.count).toBe(4);
        const back = await upload(alice, `export.${format}`, file.body, format === 'csv' ? 'text/csv' : XLSX);
        expect(back.json.result, format).toMatchObject({ added: 4, failed: 0 });
        expect(await words(alice)).toEqual(original);
      }
      const uid = (await call(t.app, 'GET', '/user/user_info', undefined, alice)).json.result.uid;
      const saved = await listDownloads(t.app.db, uid, { num: 1, size: 10 });
      expect(saved.list.map((d) => d.name.split('.').pop()).sort()).toEqual(['csv', 'xlsx']);
      // bob's export holds only bob's words
      const bobs = await download(bob, '/dict/v1/export_words?format=csv');
      expect(bobs.text.replace(/^\ufeff/, '').trim()).toBe('word,type,correct');
      expect((await download(alice, '/dict/v1/export_words?format=pdf')).status).toBe(400);
      await call(t.app, 'POST', '/dict/v1/delete_all_word', {}, alice);
    },
  );

  it('serves an import template that imports as it is', async () => {
    for (const format of ['xlsx', 'csv'] as const) {
      const file = await download(bob, `/dict/v1/import_template?format=${format}`);
      expect(file.status).toBe(200);
      const res = await upload(bob, `template.${format}`, file.body, 'application/octet-stream');
      expect(res.json.result, format).toMatchObject({
        total: 5,
        added: format === 'xlsx' ? 5 : 0,
        failed: format === 'xlsx' ? 0 : 5,
      });
    }
    expect(await words(bob)).toEqual(['张三丰|1|', '按装|5|安装', '某敏感词|4|', '萍果|5|苹果', '重点项目|9|']);
    await call(t.app, 'POST', '/dict/v1/delete_all_word', {}, bob);
  });
});

describe('word libraries', () => {
  it('ships five documented, well-formed libraries of a few hundred entries', () => {
    const libs = wordLibraries(undefined);
    expect(libs.map((l) => l.name)).toEqual(['通用', '党政公文', '出版', '医学', '法律']);
    const total = libs.reduce((n, l) => n + l.entries.length, 0);
    expect(total).toBeGreaterThan(300);
    for (const l of libs) {
      expect(l.source).toMatch(/written by the project team/);
      expect(l.entries.filter((e) => e.type === 5).length).toBeGreaterThan(20);
    }
    expect(() => parseLibrary('# id: 9\n# name: x\n# source: y\nword\ttype\tcorrect\n错\t5\t\n')).toThrow(
      /different correct/,
    );
  });

  it('lists, selects (replacing the selection), refuses unknown ids, and keeps users apart', async () => {
    const list = await call(t.app, 'GET', '/user/get_word_library', undefined, alice);
    expect(list.status).toBe(200);
    expect(list.json.result).toHaveLength(5);
    expect(list.json.result[3]).toMatchObject({
      id: 4,
      name: '医学',
      name_en: 'Medicine',
      name_hk: '醫學',
      description_en: expect.stringMatching(/medical/),
      selected: false,
    });
    expect(list.json.result[3].word_count).toBe(list.json.result[3].wrong_count + list.json.result[3].allowed_count);
    expect((await call(t.app, 'POST', '/user/select_word_library', { library_ids: [4, 5] }, alice)).status).toBe(200);
    expect((await call(t.app, 'POST', '/user/select_word_library', { library_ids: [1, 99] }, alice)).status).toBe(404);
    expect((await call(t.app, 'POST', '/user/select_word_library', { library_ids: ['x'] }, alice)).status).toBe(400);
    expect((await call(t.app, 'POST', '/user/select_word_library', {}, alice)).status).toBe(400);
    const selected = (token: string) =>
      call(t.app, 'GET', '/user/get_word_library', undefined, token).then((r) =>
        r.json.result.filter((l: { selected: boolean }) => l.selected).map((l: { id: number }) => l.id),
      );
    expect(await selected(alice)).toEqual([4, 5]);
    expect(await selected(bob)).toEqual([]);
    expect((await call(t.app, 'POST', '/user/select_word_library', { library_ids: [5] }, alice)).status).toBe(200);
    expect(await selected(alice)).toEqual([5]);
    expect((await call(t.app, 'POST', '/user/select_word_library', { library_ids: [] }, alice)).status).toBe(200);
    expect(await selected(alice)).toEqual([]);
    expect((await call(t.app, 'GET', '/user/get_word_library')).status).toBe(401);
  });
});

describe('word libraries change the very next real check', () => {
  let base: string;
  let token: string;
  let client: SocketClient;
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
    base = await listen(app);
    await checkerPool().ready();
    token = await register(app, '13900000023');
    client = await SocketClient.open(base, token);
  }, 60_000);
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  it(
    'selecting 医学 flags 心率失常 and 阿斯匹林 in the next check; a personal allowed word ' +
      'still wins; unselecting removes them',
    async () => {
      const text = '患者出现心率失常，遵医嘱服用阿斯匹林。';
      const flagged = (run: Awaited<ReturnType<typeof runCheck>>, word: string) =>
        run.results[0].issues.find((i) => i.original === word);
      const plain = await runCheck(base, token, client, { text });
      expect(flagged(plain, '心率失常')).toBeUndefined();

      expect((await http(base, 'POST', '/user/select_word_library', token, { library_ids: [4] })).status).toBe(200);
      const withLib = await runCheck(base, token, client, { text });
      // a library's hit names the library, so the results group it under the library's name
      expect(flagged(withLib, '心率失常')).toMatchObject({ suggestions: ['心律失常'], type: 5, library: 4 });
      expect(flagged(withLib, '阿斯匹林')).toMatchObject({ suggestions: ['阿司匹林'], type: 5, library: 4 });

      // a personal allowed word still wins over a library wrong word, like the user's own entries
      expect((await http(base, 'POST', '/dict/v1/add_one', token, { word: '心率失常', type: 1 })).status).toBe(200);
      const allowed = await runCheck(base, token, client, { text });
      expect(flagged(allowed, '心率失常')).toBeUndefined();
      await http(base, 'POST', '/dict/v1/delete_all_word', token, {});

      expect((await http(base, 'POST', '/user/select_word_library', token, { library_ids: [] })).status).toBe(200);
      const after = await runCheck(base, token, client, { text });
      expect(flagged(after, '心率失常')).toBeUndefined();
      expect(flagged(after, '阿斯匹林')).toBeUndefined();
    },
    60_000,
  );
});

describe.skipIf(!PG_BIN)('import, export and word libraries on PostgreSQL', () => {
  const cluster = new Cluster();
  let pg: TestApp;
  beforeAll(async () => {
    pg = await startTestApp({ databaseUrl: await cluster.start() });
  }, 60_000);
  afterAll(async () => {
    await pg?.close();
    await cluster.stop();
  });

  it(
    'imports with duplicates (ON CONFLICT), keeps failures per user, exports, and ' + 'applies a selected library',
    async () => {
      const carol = await register(pg, '13900000024');
      const dave = await register(pg, '13900000025');
      expect((await call(pg.app, 'POST', '/dict/v1/add_one', { word: '已有词', type: 4 }, carol)).status).toBe(200);
      const res = await upload(
        carol,
        'pg.csv',
        Buffer.from('word,type,correct\n已有词,4,\n新错词,5,新对词\n新错词,5,新对词\n'),
        'text/csv',
        {},
        pg,
      );
      expect(res.json.result).toMatchObject({ total: 3, added: 1, failed: 2 });
      expect((await download(carol, '/dict/down_words_failed_to_upload', pg)).text).toContain('词库中已有该词');
      expect((await download(dave, '/dict/down_words_failed_to_upload', pg)).status).toBe(404);
      const exported = await download(carol, '/dict/v1/export_words?format=xlsx', pg);
      expect(exported.status).toBe(200);
      expect((await upload(dave, 'from-carol.xlsx', exported.body, XLSX, {}, pg)).json.result).toMatchObject({
        added: 2,
        failed: 0,
      });

      const uid = (await call(pg.app, 'GET', '/user/user_info', undefined, dave)).json.result.uid;
      const before = await loadUserDictionary(pg.app.db, uid, pg.app.config.paths.wordLibraries);
      expect((await call(pg.app, 'POST', '/user/select_word_library', { library_ids: [5, 4] }, dave)).status).toBe(200);
      const after = await loadUserDictionary(pg.app.db, uid, pg.app.config.paths.wordLibraries);
      expect(after.fingerprint).not.toBe(before.fingerprint);
      expect(after.wrongWords).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ word: '心率失常', correct: '心律失常' }),
          expect.objectContaining({ word: '取保侯审', correct: '取保候审' }),
        ]),
      );
      expect(after.allowedWords).toContain('表见代理');
      expect((await call(pg.app, 'POST', '/user/select_word_library', { library_ids: [] }, dave)).status).toBe(200);
      expect((await loadUserDictionary(pg.app.db, uid, pg.app.config.paths.wordLibraries)).fingerprint).toBe(
        before.fingerprint,
      );
    },
    60_000,
  );
});

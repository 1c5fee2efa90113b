import { Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import JSZip from 'jszip';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentFlagData, ServerMessage } from '../../openapi/socket-protocol';
import { buildApp } from '../../server/app';
import { attachmentName } from '../../src/machines/documentCalls';

import { setDefaultRemaining, rightBalance } from '../../server/domain/rights/ledger';
import { ADMIN, bombZip, call, CLIENT_HEADERS, form, login, register, startTestApp, type TestApp } from './helpers';
import { listen, SocketClient } from './proofread-support';

// LibreOffice is looked up once; pointing it at nothing makes the .doc answer deterministic on any machine.
process.env.SOFFICE_PATH = '/nonexistent/soffice';

const UPLOAD_LIMIT = 3 * 1024 * 1024;
let t: TestApp;
let base: string;
let alice: string;
let bob: string;
let aliceUid: number;

beforeAll(async () => {
  // progress every paragraph (interval 0) so a short document shows several progress messages
  t = await startTestApp({ config: { uploadLimit: UPLOAD_LIMIT }, jobs: { progressIntervalMs: 0 } });
  base = await listen(t);
  alice = await register(t, '13566660001');
  bob = await register(t, '13566660002');
  aliceUid = (await call(t.app, 'GET', '/user/user_info', undefined, alice)).json.result.uid;
}, 60_000);
afterAll(async () => t.close());

async function upload(token: string, filename: string, data: Buffer, fields: Record<string, string> = {}, app = t.app) {
  const { payload, contentType } = form([
    { name: 'file', filename, data },
    ...Object.entries(fields).map(([name, value]) => ({ name, data: value })),
  ]);
  const res = await app.inject({
    method: 'POST',
    url: '/misscut/document/v1/upload',
    headers: { ...CLIENT_HEADERS, authorization: `Bearer ${token}`, 'content-type': contentType },
    payload,
  });
  return { status: res.statusCode, json: res.json() };
}

const get = (token: string | null, id: number, app = t.app) =>
  call(app, 'GET', `/misscut/document/v1/edit_upload_get?id=${id}`, undefined, token ?? undefined);

/** Polls until the job ends (bounded). */
async function settle(token: string, id: number, app = t.app, ms = 90_000) {
  const until = Date.now() + ms;
  for (;;) {
    const res = await get(token, id, app);
    if (res.status !== 200) throw new Error(`edit_upload_get ${res.status}: ${JSON.stringify(res.json)}`);
    if (['done', 'failed', 'cancelled'].includes(res.json.result.status)) return res.json.result;
    if (Date.now() > until) throw new Error(`document ${id} still ${res.json.result.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const TYPO = '我们明天讨论这个问提，请大家准时参加。';
const long = (sentence: string, n: number) => Array.from({ length: n }, () => sentence).join('');

async function docx(paragraphs: Array<string | { heading: string }>): Promise<Buffer> {
  const doc = new Document({
    sections: [
      {
        children: paragraphs.map((p) =>
          typeof p === 'string'
            ? new Paragraph({ children: [new TextRun(p)] })
            : new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun(p.heading)] }),
        ),
      },
    ],
  });
  return Packer.toBuffer(doc);
}

async function unzipXml(data: Buffer) {
  const zip = await JSZip.loadAsync(data);
  const read = async (name: string) => (await zip.file(name)?.async('string')) ?? '';
  return { document: await read('word/document.xml'), comments: await read('word/comments.xml') };
}

function flags(messages: ServerMessage[], id: number): DocumentFlagData[] {
  return messages
    .filter((m) => m.type === 2 && m.cmd === 1 && (m.data as DocumentFlagData).id === id)
    .map((m) => m.data as DocumentFlagData);
}

/** Reads the socket (acknowledging) until the document's job ends. */
async function flagsUntilEnd(client: SocketClient, id: number): Promise<DocumentFlagData[]> {
  const out: DocumentFlagData[] = [];
  for (let i = 0; i < 5000; i++) {
    const m = await client.next(60_000);
    if (m.index !== undefined) client.send({ type: 1, cmd: 2, index: m.index });
    const mine = flags([m], id);
    out.push(...mine);
    if (mine.some((f) => ['done', 'failed', 'cancelled'].includes(f.status))) return out;
  }
  throw new Error('no end of job');
}

describe('upload -> job -> findings', () => {
  it('a .docx is read, checked with progress on the socket, and its findings point into its text', async () => {
    const client = await SocketClient.open(base, alice);
    try {
      const paragraphs = [
        { heading: '关于会议的通知' },
        ...Array.from({ length: 12 }, (_, i) => `第${i + 1}段。${long(TYPO, 9)}`),
      ];
      const res = await upload(alice, '会议通知.docx', await docx(paragraphs));
      expect(res.status).toBe(200);
      const doc = res.json.result;
      expect(doc).toMatchObject({
        name: '会议通知.docx',
        file_type: 'docx',
        status: 'queued',
        progress: 0,
        issue_count: 0,
      });
      const seen = await flagsUntilEnd(client, doc.id);
      expect(seen[0]).toMatchObject({ id: doc.id, status: 'running', progress: 0 });
      const last = seen[seen.length - 1];
      expect(last).toMatchObject({ status: 'done', progress: 100 });
      const running = seen.filter((f) => f.status === 'running' && f.progress > 0);
      expect(running.length).toBeGreaterThan(2);
      // progress only grows
      for (let i = 1; i < seen.length; i++) expect(seen[i].progress).toBeGreaterThanOrEqual(seen[i - 1].progress);
      expect(last.paragraphs_done).toBe(last.paragraphs);

      const detail = await settle(alice, doc.id);
      expect(detail.status).toBe('done');
      expect(detail.issue_count).toBe(last.issue_count);
      expect(detail.issues.length).toBe(detail.issue_count);
      expect(detail.issues.length).toBeGreaterThanOrEqual(12);
      expect(detail.html).toContain('<h1>关于会议的通知</h1>');
      const lines = detail.text.split('\n');
      expect(lines[0]).toBe('关于会议的通知');
      expect(lines).toHaveLength(13);
      for (const issue of detail.issues) expect(detail.text.slice(issue.start, issue.end)).toBe(issue.original);
      expect(detail.issues).toEqual(
        expect.arrayContaining([expect.objectContaining({ original: '提', suggestions: ['题'] })]),
      );
      expect(detail).toMatchObject({ fixes: [], ignored: [], edited: false, share_id: null, read_only: false });
      expect(detail.word_count).toBeGreaterThan(200);
    } finally {
      await client.close();
    }
  }, 120_000);

  it('.txt (GB18030 too) and .md are read; markdown headings stay headings', async () => {
    const txt = await upload(alice, '说明.txt', Buffer.from(`标题\r\n\r\n${TYPO}\r\n第二段。`));
    const md = await upload(alice, 'readme.md', Buffer.from(`# 标题\n\n${TYPO}\n\n- 列表项\n`));
    const gbk = await upload(alice, 'gbk.txt', Buffer.from('d6d0cec4b2e2cad4a1a3', 'hex'));
    expect([txt.status, md.status, gbk.status]).toEqual([200, 200, 200]);
    expect(await settle(alice, gbk.json.result.id)).toMatchObject({ status: 'done', text: '中文测试。' });
    const a = await settle(alice, txt.json.result.id);
    const b = await settle(alice, md.json.result.id);
    expect(a).toMatchObject({ status: 'done', file_type: 'txt', text: `标题\n${TYPO}\n第二段。` });
    expect(b).toMatchObject({ status: 'done', file_type: 'md', text: `标题\n${TYPO}\n列表项` });
    expect(b.html).toContain('<h1>标题</h1>');
    expect(a.issues.find((i: { original: string }) => i.original === '提')).toBeDefined();
    // each finished document counts in the metrics of its owner's team: one event, its characters and findings
    const events = await t.app.db
      .selectFrom('check_events')
      .select(['kind', 'chars', 'issues'])
      .where('kind', '=', 'document')
      .where('chars', '=', [...`标题${TYPO}第二段。`].filter((c) => c.trim()).length)
      .execute();
    expect(events).toEqual([expect.objectContaining({ issues: a.issues.length })]);
  }, 60_000);

  it('the user dictionary applies like in check_text: an allowed word is not flagged', async () => {
    const token = await register(t, '13566660009');
    expect((await call(t.app, 'POST', '/dict/v1/add_one', { word: '问提', type: 1 }, token)).status).toBe(200);
    const res = await upload(token, 'dict.txt', Buffer.from(TYPO));
    const detail = await settle(token, res.json.result.id);
    expect(detail.status).toBe('done');
    expect(detail.issues.find((i: { original: string }) => i.original === '提')).toBeUndefined();
  }, 60_000);
});

describe('bad files', () => {
  it(
    'empty, disguised, unsupported and .doc without LibreOffice are refused at ' + 'upload with a readable 400',
    async () => {
      const before = await rightBalance(t.app.db, aliceUid, 256);
      const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 1)]);
      const cases: Array<[string, Buffer, RegExp]> = [
        ['empty.docx', Buffer.alloc(0), /文件为空/],
        ['virus.docx', exe, /可执行文件/],
        ['notes.txt', Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(50)]), /不是文本文件/],
        ['picture.png', Buffer.from('abc'), /不支持的文件类型/],
        [
          'old.doc',
          Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(100)]),
          /LibreOffice/,
        ],
        ['fake.doc', Buffer.from('plain text'), /不是有效的 \.doc 文件/],
      ];
      for (const [name, data, msg] of cases) {
        const res = await upload(alice, name, data);
        expect(res.status, name).toBe(400);
        expect(res.json.msg, name).toMatch(msg);
      }
      expect(await rightBalance(t.app.db, aliceUid, 256)).toBe(before);
    },
  );

  it(
    'a corrupt .docx and a zip bomb fail their own job with a clear message; ' +
      'another job still completes; uploads are refunded',
    async () => {
      const before = await rightBalance(t.app.db, aliceUid, 256);
      const good = await docx([TYPO]);
      const corrupt = Buffer.concat([good.subarray(0, 400), Buffer.alloc(300, 7)]);
      const notWord = await new JSZip().file('hello.txt', 'hi').generateAsync({ type: 'nodebuffer' });
      const onlySpaces = Buffer.from('   \n\u3000\n');
      const jobs = await Promise.all([
        upload(alice, 'corrupt.docx', corrupt),
        upload(alice, 'bomb.docx', bombZip(300 * 1024 * 1024)),
        upload(alice, 'ok.docx', good),
        upload(alice, 'zip.docx', notWord),
        upload(alice, 'blank.txt', onlySpaces),
      ]);
      for (const j of jobs) expect(j.status).toBe(200);
      const [c, b, ok, z, blank] = await Promise.all(jobs.map((j) => settle(alice, j.json.result.id)));
      expect(c).toMatchObject({ status: 'failed' });
      expect(c.error).toMatch(/损坏/);
      expect(b).toMatchObject({ status: 'failed' });
      expect(b.error).toMatch(/压缩炸弹|过大/);
      expect(z.error).toMatch(/不是有效的 Word 文档/);
      expect(blank.status).toBe('failed');
      expect(blank.error).toMatch(/没有/);
      expect(ok).toMatchObject({ status: 'done' });
      expect(ok.issues.length).toBeGreaterThan(0);
      // four failures refunded, one upload consumed
      expect(await rightBalance(t.app.db, aliceUid, 256)).toBe(before - 1);
    },
    120_000,
  );

  it('a multipart upload over UPLOAD_LIMIT answers 413 and creates nothing', async () => {
    const before = (await call(t.app, 'GET', '/misscut/document/v1/page?num=1&size=1', undefined, alice)).json.result
      .total;
    const res = await upload(alice, 'huge.txt', Buffer.alloc(UPLOAD_LIMIT + 1024, 0x61));
    expect(res.status).toBe(413);
    expect(res.json.code).toBe(413);
    const after = (await call(t.app, 'GET', '/misscut/document/v1/page?num=1&size=1', undefined, alice)).json.result
      .total;
    expect(after).toBe(before);
  });
});

describe('limits from rights', () => {
  it('right 256 (docUploadCount) is consumed per upload; used up -> 402 kind 1', async () => {
    const token = await register(t, '13566660003');
    const uid = (await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result.uid;
    await setDefaultRemaining(t.app.db, uid, 256, 1);
    const first = await upload(token, 'a.txt', Buffer.from(TYPO));
    expect(first.status).toBe(200);
    expect(await rightBalance(t.app.db, uid, 256)).toBe(0);
    const second = await upload(token, 'b.txt', Buffer.from(TYPO));
    expect(second.status).toBe(402);
    expect(second.json).toMatchObject({ code: 402, result: { kind: 1 } });
    expect(second.json.msg).toMatch(/文档上传次数已用完/);
    await settle(token, first.json.result.id);
  }, 60_000);

  it('right 64 (docMaxText): a longer document fails its job saying so (refunded); a longer save is 413', async () => {
    const token = await register(t, '13566660004');
    const uid = (await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result.uid;
    await setDefaultRemaining(t.app.db, uid, 64, 30);
    const before = await rightBalance(t.app.db, uid, 256);
    const big = await upload(token, 'big.txt', Buffer.from(long(TYPO, 3)));
    const failed = await settle(token, big.json.result.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/文档字数超过上限：本文档\d+字，单个文档最多30字/);
    // the reason's code and values travel with it, for the reader's language
    expect(failed).toMatchObject({ error_code: 'document.too_many_chars', error_params: { max: 30 } });
    const listed = (await call(t.app, 'GET', '/misscut/document/v1/page?num=1&size=1', undefined, token)).json.result;
    expect(listed.list[0]).toMatchObject({ id: big.json.result.id, error_code: 'document.too_many_chars' });
    expect(await rightBalance(t.app.db, uid, 256)).toBe(before);
    const small = await upload(token, 'small.txt', Buffer.from(TYPO));
    expect((await settle(token, small.json.result.id)).status).toBe('done');
    const save = await call(
      t.app,
      'POST',
      '/misscut/document/v1/edit_upload_save',
      { id: small.json.result.id, text: long(TYPO, 2) },
      token,
    );
    // the per-check limit, not a spent quota: 413 with the limit and the length, never the quota dialog's 402
    expect(save.status).toBe(413);
    expect(save.json).toMatchObject({ msg_code: 'check.too_long', msg_params: { max: 30 } });
    expect(save.json.result).toEqual({ max: 30, total: save.json.msg_params.total });
    expect(save.json.result.total).toBeGreaterThan(30);
  }, 60_000);

  it('checkMode 4 without right 8192 is refused (403) before anything is consumed', async () => {
    const before = await rightBalance(t.app.db, aliceUid, 256);
    const res = await upload(alice, 'fine.txt', Buffer.from(TYPO), { checkMode: '4' });
    expect(res.status).toBe(403);
    expect(await rightBalance(t.app.db, aliceUid, 256)).toBe(before);
  });
});

describe('list, delete, cancel, ownership', () => {
  it('pages newest first with name, size, status, issue count and dates; keyword filters', async () => {
    const token = await register(t, '13566660005');
    const ids: number[] = [];
    for (const n of ['甲.txt', '乙.txt', '丙_%.txt'])
      ids.push((await upload(token, n, Buffer.from(TYPO))).json.result.id);
    for (const id of ids) await settle(token, id);
    const p1 = await call(t.app, 'GET', '/misscut/document/v1/page?num=1&size=2', undefined, token);
    expect(p1.status).toBe(200);
    expect(p1.json.result).toMatchObject({ total: 3, num: 1, size: 2 });
    expect(p1.json.result.list.map((d: { id: number }) => d.id)).toEqual([ids[2], ids[1]]);
    const row = p1.json.result.list[0];
    expect(row).toMatchObject({
      name: '丙_%.txt',
      file_type: 'txt',
      size: Buffer.byteLength(TYPO),
      status: 'done',
      progress: 100,
    });
    expect(row.issue_count).toBeGreaterThan(0);
    expect(Date.parse(row.created_at)).not.toBeNaN();
    const p2 = await call(t.app, 'GET', '/misscut/document/v1/page?num=2&size=2', undefined, token);
    expect(p2.json.result.list.map((d: { id: number }) => d.id)).toEqual([ids[0]]);
    const filtered = await call(
      t.app,
      'GET',
      `/misscut/document/v1/page?keyword=${encodeURIComponent('_%')}`,
      undefined,
      token,
    );
    expect(filtered.json.result.list.map((d: { id: number }) => d.id)).toEqual([ids[2]]);

    const del = await call(t.app, 'POST', '/misscut/document/v1/delete', { ids: [ids[0], ids[1]] }, token);
    expect(del.status).toBe(200);
    expect(del.json.result).toEqual({ count: 2 });
    expect((await get(token, ids[0])).status).toBe(404);
    const after = await call(t.app, 'GET', '/misscut/document/v1/page', undefined, token);
    expect(after.json.result.total).toBe(1);
  }, 60_000);

  it("another user's ids answer 404 everywhere and nothing changes", async () => {
    const res = await upload(alice, '私密.txt', Buffer.from(TYPO));
    const id = res.json.result.id;
    await settle(alice, id);
    const attempts = [
      await get(bob, id),
      await call(t.app, 'POST', '/misscut/document/v1/edit_upload_save', { id, text: '改掉' }, bob),
      await call(t.app, 'POST', '/misscut/document/v1/delete', { ids: [id] }, bob),
      await call(t.app, 'POST', '/misscut/document/v1/cancel', { id }, bob),
      await call(t.app, 'POST', '/misscut/document/v1/export', { id, mode: 'clean' }, bob),
      await call(t.app, 'GET', `/misscut/document/v1/get_share_id?id=${id}`, undefined, bob),
      await get(bob, 987654),
    ];
    for (const a of attempts) expect(a.status).toBe(404);
    // one unknown id among own ids: nothing is deleted
    const mixed = await call(t.app, 'POST', '/misscut/document/v1/delete', { ids: [id, 987654] }, alice);
    expect(mixed.status).toBe(404);
    const mine = await get(alice, id);
    expect(mine.json.result).toMatchObject({ status: 'done', text: TYPO, edited: false });
    expect((await get(null, id)).status).toBe(401);
    const list = await call(t.app, 'GET', '/misscut/document/v1/page?size=100', undefined, bob);
    expect(list.json.result.list.some((d: { id: number }) => d.id === id)).toBe(false);
  }, 60_000);

  it(
    'cancel stops a running job (status cancelled, message on the socket, upload ' + 'refunded); a done job stays done',
    async () => {
      const token = await register(t, '13566660006');
      const uid = (await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result.uid;
      await setDefaultRemaining(t.app.db, uid, 64, 1_000_000);
      const client = await SocketClient.open(base, token);
      try {
        const before = await rightBalance(t.app.db, uid, 256);
        const text = Array.from({ length: 400 }, (_, i) => `第${i}段${long(TYPO, 9)}`).join('\n');
        const res = await upload(token, 'long.txt', Buffer.from(text));
        const id = res.json.result.id;
        const cancel = await call(t.app, 'POST', '/misscut/document/v1/cancel', { id }, token);
        expect(cancel.status).toBe(200);
        expect(cancel.json).toMatchObject({ msg: '已取消', result: { id, status: 'cancelled' } });
        const seen = await flagsUntilEnd(client, id);
        expect(seen[seen.length - 1]).toMatchObject({
          status: 'cancelled',
          error: '已取消',
          error_code: 'document.cancelled',
        });
        expect(await rightBalance(t.app.db, uid, 256)).toBe(before);
        await new Promise((r) => setTimeout(r, 300));
        expect((await get(token, id)).json.result.status).toBe('cancelled');

        // deleting an unfinished job stops it and gives the upload back too
        const again2 = await upload(token, 'long2.txt', Buffer.from(`再来${text}`));
        const removed = await call(
          t.app,
          'POST',
          '/misscut/document/v1/delete',
          { ids: [again2.json.result.id] },
          token,
        );
        expect(removed.json.result).toEqual({ count: 1 });
        expect(await rightBalance(t.app.db, uid, 256)).toBe(before);
        expect((await get(token, again2.json.result.id)).status).toBe(404);

        const small = await upload(token, 'small.txt', Buffer.from(TYPO));
        await settle(token, small.json.result.id);
        const again = await call(t.app, 'POST', '/misscut/document/v1/cancel', { id: small.json.result.id }, token);
        expect(again.json.result.status).toBe('done');
      } finally {
        await client.close();
      }
    },
    60_000,
  );
});

describe('editor: save, get, export, share', () => {
  let id: number;
  let original: {
    text: string;
    issues: Array<{ start: number; end: number; original: string; suggestions: string[]; message: string }>;
  };

  beforeAll(async () => {
    const res = await upload(
      alice,
      '编辑稿.docx',
      await docx([{ heading: '工作报告' }, TYPO, `他在次来到北京。${TYPO}`]),
    );
    id = res.json.result.id;
    original = await settle(alice, id);
    expect(original.issues.length).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('saves text with an accepted fix and an ignored finding; get returns them after the re-check', async () => {
    const typo = original.issues.find((i) => i.original === '提')!;
    const text = original.text.slice(0, typo.start) + '题' + original.text.slice(typo.end);
    const remaining = original.issues.filter((i) => i !== typo && i.original === '提');
    const ignore = remaining[0];
    const save = await call(
      t.app,
      'POST',
      '/misscut/document/v1/edit_upload_save',
      {
        id,
        text,
        name: '编辑稿（改）.docx',
        fixes: [
          {
            start: typo.start,
            end: typo.start + 1,
            original: '提',
            replacement: '题',
            category: '1',
            message: typo.message,
          },
        ],
        ignored: [{ start: ignore.start, end: ignore.end, original: ignore.original }],
      },
      alice,
    );
    expect(save.status).toBe(200);
    expect(save.json.result).toMatchObject({ id, status: 'queued', edited: true, name: '编辑稿（改）.docx', text });
    // a tracked export right after the save waits for the re-check, so every open finding is a comment
    const right = await call(t.app, 'POST', '/misscut/document/v1/export', { id, mode: 'tracked' }, alice);
    expect(right.status).toBe(200);
    const checked = (await get(alice, id)).json.result;
    expect(checked.status).toBe('done');
    expect(((await unzipXml(right.res.rawPayload)).comments.match(/<w:comment /g) ?? []).length).toBe(
      checked.issues.length,
    );
    const after = await settle(alice, id);
    expect(after.status).toBe('done');
    expect(after.text).toBe(text);
    expect(after.html).toContain('<h1>工作报告</h1>');
    expect(after.fixes).toEqual([
      {
        start: typo.start,
        end: typo.start + 1,
        original: '提',
        replacement: '题',
        category: '1',
        message: typo.message,
      },
    ]);
    expect(after.ignored).toEqual([{ start: ignore.start, end: ignore.end, original: '提' }]);
    // the fixed spot is clean now, the ignored one is not listed, the rest are
    expect(after.issues.some((i: { start: number }) => i.start === typo.start)).toBe(false);
    expect(after.issues.some((i: { start: number }) => i.start === ignore.start)).toBe(false);
    expect(after.issues.length).toBe(original.issues.length - 2);
    expect(after.issue_count).toBe(after.issues.length);
    for (const issue of after.issues) expect(after.text.slice(issue.start, issue.end)).toBe(issue.original);
  }, 60_000);

  it(
    'refuses fixes that do not match the saved text, a missing or empty content, ' + 'and keeps the document as it was',
    async () => {
      const bad = await call(
        t.app,
        'POST',
        '/misscut/document/v1/edit_upload_save',
        { id, text: '短文本。', fixes: [{ start: 0, end: 2, original: 'x', replacement: '不是' }] },
        alice,
      );
      expect(bad.status).toBe(400);
      expect(bad.json.msg).toMatch(/不一致/);
      const neither = await call(t.app, 'POST', '/misscut/document/v1/edit_upload_save', { id }, alice);
      expect(neither.status).toBe(400);
      const notText = await call(t.app, 'POST', '/misscut/document/v1/edit_upload_save', { id, text: 12 }, alice);
      expect(notText.status).toBe(400);
      const blank = await call(
        t.app,
        'POST',
        '/misscut/document/v1/edit_upload_save',
        { id, text: ' \n\u3000 ' },
        alice,
      );
      expect(blank.status).toBe(400);
      expect(blank.json.msg).toMatch(/不能为空/);
      // nothing changed
      expect((await get(alice, id)).json.result.name).toBe('编辑稿（改）.docx');
    },
  );

  it(
    'exports clean and tracked .docx; tracked has w:del/w:ins for the fix and a ' + 'comment per open finding',
    async () => {
      // while a check runs a tracked export would lack the comments: refused (the row is marked running by hand, as
      // another server process's job, which this one neither claims nor waits for)
      await t.app.db.updateTable('documents').set({ status: 'running' }).where('id', '=', id).execute();
      await t.app.db
        .updateTable('jobs')
        .set({ state: 'running', owner: 'another-process' })
        .where('kind', '=', 'document')
        .where('ref', '=', id)
        .execute();
      const early = await call(t.app, 'POST', '/misscut/document/v1/export', { id, mode: 'tracked' }, alice);
      expect(early.status).toBe(409);
      expect(early.json.msg).toMatch(/校对完成后/);
      await t.app.db.updateTable('documents').set({ status: 'done' }).where('id', '=', id).execute();
      await t.app.db
        .updateTable('jobs')
        .set({ state: 'done', owner: null })
        .where('kind', '=', 'document')
        .where('ref', '=', id)
        .execute();
      const current = (await get(alice, id)).json.result;
      const clean = await call(t.app, 'POST', '/misscut/document/v1/export', { id, mode: 'clean' }, alice);
      expect(clean.status).toBe(200);
      expect(clean.res.headers['content-type']).toMatch(/wordprocessingml/);
      expect(String(clean.res.headers['content-disposition'])).toContain(encodeURIComponent('编辑稿（改）.docx'));
      const cleanXml = await unzipXml(clean.res.rawPayload);
      expect(cleanXml.document).toContain('工作报告');
      expect(cleanXml.document).toContain('讨论这个问题');
      expect(cleanXml.document).not.toContain('<w:ins ');
      expect(cleanXml.document).toContain('w:eastAsia');

      const tracked = await call(t.app, 'POST', '/misscut/document/v1/export', { id, mode: 'tracked' }, alice);
      expect(tracked.status).toBe(200);
      expect(String(tracked.res.headers['content-disposition'])).toContain(encodeURIComponent('（修订）'));
      const xml = await unzipXml(tracked.res.rawPayload);
      expect(xml.document).toMatch(/<w:del [^>]*w:author="[^"]+"[^>]*>.*?<w:delText[^>]*>提<\/w:delText>/s);
      expect(xml.document).toMatch(/<w:ins [^>]*>.*?<w:t[^>]*>题<\/w:t>/s);
      const comments = xml.comments.match(/<w:comment /g) ?? [];
      expect(comments.length).toBe(current.issues.length);
      expect(xml.document.match(/<w:commentRangeStart /g)?.length).toBe(current.issues.length);
      expect(xml.comments).toContain(current.issues[0].message.slice(0, 4));
      // the heading stays a heading
      expect(xml.document).toMatch(/<w:pStyle w:val="Heading1"\/>/);
      // both exports are in the owner's download center
      const downloads = await call(t.app, 'GET', '/user/download/page?num=1&size=10', undefined, alice);
      expect(downloads.status).toBe(200);
      const names = downloads.json.result.list.map((d: { name: string }) => d.name);
      expect(names).toEqual(expect.arrayContaining(['编辑稿（改）.docx', '编辑稿（改）（修订）.docx']));
      // the editor's browser download takes the name from this header: the same as the download center's
      expect(attachmentName(String(tracked.res.headers['content-disposition']))).toBe('编辑稿（改）（修订）.docx');
      const saved = downloads.json.result.list.find((d: { name: string }) => d.name === '编辑稿（改）（修订）.docx');
      const file = await call(t.app, 'GET', `/user/download/file?id=${saved.id}`, undefined, alice);
      expect(file.res.rawPayload.equals(tracked.res.rawPayload)).toBe(true);
    },
  );

  it(
    'shares read-only: a stable unguessable share id, public view without login, ' + 'copy into another account',
    async () => {
      const a = await call(t.app, 'GET', `/misscut/document/v1/get_share_id?id=${id}`, undefined, alice);
      const b = await call(t.app, 'GET', `/misscut/document/v1/get_share_id?id=${id}`, undefined, alice);
      expect(a.status).toBe(200);
      const share = a.json.result.share_id;
      expect(share).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(b.json.result.share_id).toBe(share);

      const view = await call(t.app, 'GET', `/misscut/document/v1/get_share_doc?share_id=${share}`);
      expect(view.status).toBe(200);
      const mine = (await get(alice, id)).json.result;
      expect(view.json.result).toMatchObject({
        id,
        read_only: true,
        share_id: share,
        text: mine.text,
        html: mine.html,
      });
      expect(view.json.result.issues).toEqual(mine.issues);
      expect(
        (await call(t.app, 'GET', '/misscut/document/v1/get_share_doc?share_id=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'))
          .status,
      ).toBe(404);
      expect((await call(t.app, 'GET', '/misscut/document/v1/get_share_doc?share_id=bad!')).status).toBe(400);
      // the share id gives no write access
      expect((await call(t.app, 'POST', '/misscut/document/v1/edit_upload_save', { id, text: '改' }, bob)).status).toBe(
        404,
      );

      const copy = await call(t.app, 'GET', `/misscut/document/v1/share_save?share_id=${share}`, undefined, bob);
      expect(copy.status).toBe(200);
      expect(copy.json.result.id).not.toBe(id);
      expect(copy.json.result).toMatchObject({ status: 'done', name: mine.name });
      const bobs = (await get(bob, copy.json.result.id)).json.result;
      expect(bobs).toMatchObject({ text: mine.text, share_id: null, read_only: false });
      expect(bobs.fixes).toEqual(mine.fixes);
      expect((await call(t.app, 'GET', `/misscut/document/v1/share_save?share_id=${share}`)).status).toBe(401);
      // deleting the original ends the share
      await call(t.app, 'POST', '/misscut/document/v1/delete', { ids: [id] }, alice);
      expect((await call(t.app, 'GET', `/misscut/document/v1/get_share_doc?share_id=${share}`)).status).toBe(404);
      expect((await get(bob, copy.json.result.id)).status).toBe(200);
    },
  );
});

describe('restart', () => {
  it('a job unfinished when the server stops completes after a new start on the same data dir', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wb-docs-restart-'));
    const config = { adminPhone: ADMIN.phone, adminPassword: ADMIN.password, spaDir: join(dataDir, 'no-spa') };
    try {
      const first = await buildApp({ logger: false, dataDir, config, jobs: { concurrency: { document: 1 } } });
      const token = await login(first, ADMIN.phone, ADMIN.password);
      const text = Array.from({ length: 300 }, (_, i) => `重启测试第${i}段。${long(TYPO, 9)}`).join('\n');
      const ids: number[] = [];
      for (let i = 0; i < 3; i++)
        ids.push((await upload(token, `r${i}.txt`, Buffer.from(`${i}${text}`), {}, first)).json.result.id);
      const states = await Promise.all(ids.map(async (id) => (await get(token, id, first)).json.result.status));
      expect(states.filter((s) => s === 'queued' || s === 'running').length).toBeGreaterThan(0);
      await first.close();

      const second = await buildApp({ logger: false, dataDir, config });
      try {
        // a stop is not a crash: no job lost an attempt; a job that already crashed the server 3 times is failed
        const rows = await second.db
          .selectFrom('jobs')
          .select(['ref', 'attempts'])
          .where('kind', '=', 'document')
          .where('ref', 'in', ids)
          .orderBy('ref')
          .execute();
        expect(rows.map((r) => Number(r.attempts))).toEqual([0, 0, 0]);
        await second.db
          .updateTable('jobs')
          .set({ attempts: 3 })
          .where('kind', '=', 'document')
          .where('ref', '=', ids[2])
          .execute();
        await second.ready();
        const token2 = await login(second, ADMIN.phone, ADMIN.password);
        const ends = [];
        for (const id of ids) ends.push(await settle(token2, id, second, 120_000));
        for (const s of ends.slice(0, 2)) {
          expect(s.status).toBe('done');
          expect(s.issues.length).toBeGreaterThan(300);
        }
        expect(ends[2].status).toBe('failed');
        expect(ends[2].error).toMatch(/多次中断/);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});

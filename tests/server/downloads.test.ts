import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, register, startTestApp, type TestApp } from './helpers';
import { cleanupExpiredDownloads, recordDownload } from '../../server/domain/accounts/downloads';

let t: TestApp;
let alice: string;
let bob: string;
let aliceUid: number;
let bobUid: number;
beforeAll(async () => {
  t = await startTestApp();
  alice = await register(t, '13900000501');
  bob = await register(t, '13900000502');
  aliceUid = (await call(t.app, 'GET', '/user/user_info', undefined, alice)).json.result.uid;
  bobUid = (await call(t.app, 'GET', '/user/user_info', undefined, bob)).json.result.uid;
});
afterAll(async () => t.close());

const filesOnDisk = () => (existsSync(join(t.dataDir, 'downloads')) ? readdirSync(join(t.dataDir, 'downloads')) : []);

describe('download center', () => {
  it('is empty for a new user', async () => {
    const page = await call(t.app, 'GET', '/user/download/page', undefined, alice);
    expect(page.status).toBe(200);
    expect(page.json.result).toEqual({ total: 0, num: 1, size: 20, list: [] });
  });

  it('lists a recorded file for its owner and serves the same bytes with its name', async () => {
    const bytes = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 1, 2, 3, 255]);
    const before = Date.now();
    const row = await recordDownload(t.app.db, t.dataDir, aliceUid, {
      name: '校对报告 (final).docx',
      mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      data: bytes,
    });
    expect(row).toMatchObject({ name: '校对报告 (final).docx', size: bytes.length });
    const ttl = Date.parse(row.expires_at) - Date.parse(row.created_at);
    expect(ttl).toBe(7 * 86_400_000);
    expect(Date.parse(row.created_at)).toBeGreaterThanOrEqual(before - 1000);

    const page = await call(t.app, 'GET', '/user/download/page', undefined, alice);
    expect(page.json.result.total).toBe(1);
    expect(page.json.result.list).toEqual([row]);

    const file = await call(t.app, 'GET', `/user/download/file?id=${row.id}`, undefined, alice);
    expect(file.status).toBe(200);
    expect(file.res.rawPayload.equals(bytes)).toBe(true);
    expect(file.res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(file.res.headers['content-disposition']).toBe(
      `attachment; filename="____ (final).docx"; filename*=UTF-8''${encodeURIComponent('校对报告 ')}%28final%29.docx`,
    );
  });

  it('never shows or serves a file to another user, and answers 404 for unknown ids', async () => {
    const row = await recordDownload(t.app.db, t.dataDir, aliceUid, {
      name: 'words.txt',
      mime: 'text/plain; charset=utf-8',
      data: '错词\t正确\n',
    });
    const theirs = await call(t.app, 'GET', `/user/download/file?id=${row.id}`, undefined, bob);
    expect(theirs.status).toBe(404);
    expect(theirs.json).toEqual({ code: 404, msg: '文件不存在或已过期', msg_code: 'download.unknown', result: null });
    expect((await call(t.app, 'GET', '/user/download/page', undefined, bob)).json.result.total).toBe(0);
    expect((await call(t.app, 'GET', '/user/download/file?id=999999', undefined, alice)).status).toBe(404);
    const mine = await call(t.app, 'GET', `/user/download/file?id=${row.id}`, undefined, alice);
    expect(mine.status).toBe(200);
    expect(mine.res.payload).toBe('错词\t正确\n');
  });

  it('rejects bad input and anonymous callers', async () => {
    expect((await call(t.app, 'GET', '/user/download/file?id=abc', undefined, alice)).status).toBe(400);
    expect((await call(t.app, 'GET', '/user/download/file', undefined, alice)).status).toBe(400);
    expect((await call(t.app, 'GET', '/user/download/file?id=0', undefined, alice)).status).toBe(400);
    expect((await call(t.app, 'GET', '/user/download/page?size=1000', undefined, alice)).status).toBe(400);
    expect((await call(t.app, 'GET', '/user/download/page')).status).toBe(401);
    expect((await call(t.app, 'GET', '/user/download/file?id=1')).status).toBe(401);
    await expect(
      recordDownload(t.app.db, t.dataDir, aliceUid, { name: 'x.txt', mime: 'text/plain', data: 'x', ttlDays: 0 }),
    ).rejects.toMatchObject({ msgCode: 'download.bad_ttl', msgParams: { max: 30 } });
    await expect(
      recordDownload(t.app.db, t.dataDir, aliceUid, { name: 'x.txt', mime: 'text/plain', data: 'x', ttlDays: 31 }),
    ).rejects.toMatchObject({ msgCode: 'download.bad_ttl' });
  });

  it('cleans names and types that could escape the header or the folder', async () => {
    const row = await recordDownload(t.app.db, t.dataDir, bobUid, {
      name: '../../etc/passwd\r\nX-Evil: 1',
      mime: 'text/html\r\nX: y',
      data: 'hello',
    });
    expect(row.name).toBe('_.._etc_passwd_X-Evil_ 1');
    expect(row.mime).toBe('application/octet-stream');
    const file = await call(t.app, 'GET', `/user/download/file?id=${row.id}`, undefined, bob);
    expect(file.res.headers['x-evil']).toBeUndefined();
    expect(file.res.payload).toBe('hello');
  });

  it('pages newest first', async () => {
    for (let i = 0; i < 3; i++)
      await recordDownload(t.app.db, t.dataDir, bobUid, { name: `p${i}.txt`, mime: 'text/plain', data: `${i}` });
    const page = await call(t.app, 'GET', '/user/download/page?num=1&size=2', undefined, bob);
    expect(page.json.result.total).toBe(4);
    expect(page.json.result.list.map((f: { name: string }) => f.name)).toEqual(['p2.txt', 'p1.txt']);
    const second = await call(t.app, 'GET', '/user/download/page?num=2&size=2', undefined, bob);
    expect(second.json.result.list.map((f: { name: string }) => f.name)).toEqual([
      'p0.txt',
      '_.._etc_passwd_X-Evil_ 1',
    ]);
  });

  it('hides expired files at once and the cleanup removes their rows and bytes', async () => {
    const row = await recordDownload(t.app.db, t.dataDir, aliceUid, {
      name: 'old.txt',
      mime: 'text/plain',
      data: 'old',
      ttlDays: 1,
    });
    const key = (
      await t.app.db.selectFrom('downloads').select('file_key').where('id', '=', row.id).executeTakeFirstOrThrow()
    ).file_key;
    expect(filesOnDisk()).toContain(key);
    await t.app.db
      .updateTable('downloads')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', row.id)
      .execute();
    expect((await call(t.app, 'GET', `/user/download/file?id=${row.id}`, undefined, alice)).status).toBe(404);
    const listed = (await call(t.app, 'GET', '/user/download/page', undefined, alice)).json.result.list.map(
      (f: { id: number }) => f.id,
    );
    expect(listed).not.toContain(row.id);
    const totalBefore = filesOnDisk().length;
    expect(await cleanupExpiredDownloads(t.app.db, t.dataDir)).toBe(1);
    expect(filesOnDisk()).not.toContain(key);
    expect(filesOnDisk()).toHaveLength(totalBefore - 1);
    expect(
      await t.app.db.selectFrom('downloads').select('id').where('id', '=', row.id).executeTakeFirst(),
    ).toBeUndefined();
    expect(await cleanupExpiredDownloads(t.app.db, t.dataDir)).toBe(0);
  });

  it('answers 404, not a crash, when the bytes are gone from disk', async () => {
    const row = await recordDownload(t.app.db, t.dataDir, aliceUid, {
      name: 'lost.txt',
      mime: 'text/plain',
      data: 'lost',
    });
    const key = (
      await t.app.db.selectFrom('downloads').select('file_key').where('id', '=', row.id).executeTakeFirstOrThrow()
    ).file_key;
    rmSync(join(t.dataDir, 'downloads', key));
    expect((await call(t.app, 'GET', `/user/download/file?id=${row.id}`, undefined, alice)).status).toBe(404);
  });

  it("deletes the owner's file (row and bytes) and nobody else's", async () => {
    const row = await recordDownload(t.app.db, t.dataDir, aliceUid, {
      name: 'bye.txt',
      mime: 'text/plain',
      data: 'bye',
    });
    const key = (
      await t.app.db.selectFrom('downloads').select('file_key').where('id', '=', row.id).executeTakeFirstOrThrow()
    ).file_key;
    expect((await call(t.app, 'POST', '/user/download/delete', { id: row.id }, bob)).status).toBe(404);
    expect(filesOnDisk()).toContain(key);
    expect((await call(t.app, 'POST', '/user/download/delete', { id: 'x' }, alice)).status).toBe(400);
    expect((await call(t.app, 'POST', '/user/download/delete', {}, alice)).status).toBe(400);
    expect((await call(t.app, 'POST', '/user/download/delete', { id: row.id })).status).toBe(401);
    const done = await call(t.app, 'POST', '/user/download/delete', { id: row.id }, alice);
    expect(done.json).toEqual({ code: 200, msg: '删除成功', result: null });
    expect(filesOnDisk()).not.toContain(key);
    expect((await call(t.app, 'GET', `/user/download/file?id=${row.id}`, undefined, alice)).status).toBe(404);
    expect((await call(t.app, 'POST', '/user/download/delete', { id: row.id }, alice)).status).toBe(404);
  });
});

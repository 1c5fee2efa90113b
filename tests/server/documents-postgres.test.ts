import JSZip from 'jszip';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { checkerPool } from '../../server/workers/checker/pool';
import { ADMIN, call, CLIENT_HEADERS, form, login, register, startTestApp, type TestApp } from './helpers';
import { Cluster, PG_BIN } from './pg-cluster';

// The document calls and the job queue on PostgreSQL (bytea files, RETURNING ids, LIKE with escapes, restart).
describe.skipIf(!PG_BIN)('documents on PostgreSQL', () => {
  const cluster = new Cluster();
  let url: string;
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    url = await cluster.start();
    t = await startTestApp({ databaseUrl: url });
    await checkerPool().ready();
    token = await register(t, '13900000061');
  }, 90_000);
  afterAll(async () => {
    await t?.close();
    await cluster.stop();
  });

  const TYPO = '我们明天讨论这个问提，请大家准时参加。';
  const upload = async (app: TestApp['app'], auth: string, name: string, data: Buffer) => {
    const { payload, contentType } = form([{ name: 'file', filename: name, data }]);
    const res = await app.inject({
      method: 'POST',
      url: '/misscut/document/v1/upload',
      headers: { ...CLIENT_HEADERS, authorization: `Bearer ${auth}`, 'content-type': contentType },
      payload,
    });
    expect(res.statusCode).toBe(200);
    return res.json().result.id as number;
  };
  const settle = async (app: TestApp['app'], auth: string, id: number) => {
    for (let i = 0; i < 1200; i++) {
      const r = (await call(app, 'GET', `/misscut/document/v1/edit_upload_get?id=${id}`, undefined, auth)).json.result;
      if (['done', 'failed', 'cancelled'].includes(r.status)) return r;
      await new Promise((res) => setTimeout(res, 100));
    }
    throw new Error('job did not end');
  };

  it('uploads, lists with a keyword, saves, exports tracked and copies a shared document', async () => {
    const id = await upload(t.app, token, '报告_1.txt', Buffer.from(`标题\n${TYPO}`));
    const done = await settle(t.app, token, id);
    expect(done.status).toBe('done');
    const typo = done.issues.find((i: { original: string }) => i.original === '提');
    expect(done.text.slice(typo.start, typo.end)).toBe('提');
    const list = await call(
      t.app,
      'GET',
      `/misscut/document/v1/page?keyword=${encodeURIComponent('_1')}`,
      undefined,
      token,
    );
    expect(list.json.result).toMatchObject({ total: 1, list: [{ id, name: '报告_1.txt' }] });
    expect(
      (await call(t.app, 'GET', `/misscut/document/v1/page?keyword=${encodeURIComponent('%')}`, undefined, token)).json
        .result.total,
    ).toBe(0);

    const text = done.text.slice(0, typo.start) + '题' + done.text.slice(typo.end);
    const saved = await call(
      t.app,
      'POST',
      '/misscut/document/v1/edit_upload_save',
      { id, text, fixes: [{ start: typo.start, end: typo.end, original: '提', replacement: '题' }] },
      token,
    );
    expect(saved.status).toBe(200);
    expect((await settle(t.app, token, id)).text).toBe(text);
    const exported = await call(t.app, 'POST', '/misscut/document/v1/export', { id, mode: 'tracked' }, token);
    const xml = await (await JSZip.loadAsync(exported.res.rawPayload)).file('word/document.xml')!.async('string');
    expect(xml).toMatch(/<w:delText[^>]*>提<\/w:delText>/);
    expect(xml).toMatch(/<w:ins [^>]*>.*?<w:t[^>]*>题<\/w:t>/s);

    const share = (await call(t.app, 'GET', `/misscut/document/v1/get_share_id?id=${id}`, undefined, token)).json.result
      .share_id;
    const other = await register(t, '13900000062');
    const copy = await call(t.app, 'GET', `/misscut/document/v1/share_save?share_id=${share}`, undefined, other);
    expect(copy.status).toBe(200);
    expect(
      (await call(t.app, 'GET', `/misscut/document/v1/edit_upload_get?id=${copy.json.result.id}`, undefined, other))
        .json.result.text,
    ).toBe(text);
    expect((await call(t.app, 'GET', `/misscut/document/v1/edit_upload_get?id=${id}`, undefined, other)).status).toBe(
      404,
    );
  }, 90_000);

  it('resumes a job after a restart on the same database', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wb-docs-pg-'));
    const config = { adminPhone: ADMIN.phone, adminPassword: ADMIN.password, spaDir: join(dataDir, 'no-spa') };
    try {
      const first = await buildApp({
        logger: false,
        dataDir,
        databaseUrl: url,
        config,
        jobs: { concurrency: { document: 1 } },
      });
      const admin = await login(first, ADMIN.phone, ADMIN.password);
      const body = Array.from({ length: 200 }, (_, i) => `第${i}段。${TYPO.repeat(9)}`).join('\n');
      const ids = [
        await upload(first, admin, 'a.txt', Buffer.from(`甲${body}`)),
        await upload(first, admin, 'b.txt', Buffer.from(`乙${body}`)),
      ];
      const states = await Promise.all(
        ids.map(
          async (id) =>
            (await call(first, 'GET', `/misscut/document/v1/edit_upload_get?id=${id}`, undefined, admin)).json.result
              .status,
        ),
      );
      // Not finished when the first server stops; whichever process of the database is left takes them up (the
      // second server, or this file's other server, which claims queued jobs of the shared database too).
      expect(states.every((s) => s === 'queued' || s === 'running')).toBe(true);
      await first.close();
      const second = await buildApp({ logger: false, dataDir, databaseUrl: url, config });
      try {
        await second.ready();
        const admin2 = await login(second, ADMIN.phone, ADMIN.password);
        for (const id of ids) expect((await settle(second, admin2, id)).status).toBe('done');
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

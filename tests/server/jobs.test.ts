import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../../server/bench/processes';
import { migrate, openDatabase, type Db } from '../../server/db';
import { migrationProvider } from '../../server/db/migrations/index';
import type { JobKind } from '../../server/db/schema';
import type { JobRecord } from '../../server/jobs/store';
import { addGrant, rightView } from '../../server/domain/rights/ledger';
import { issueToken } from '../../server/domain/accounts/tokens';
import { createUser } from '../../server/domain/accounts/users';
import { runAdmin } from '../../server/cli/admin';
import { ADMIN, call, CLIENT_HEADERS, form, login, register, startTestApp, type TestApp } from './helpers';
import { Cluster, PG_BIN } from './pg-cluster';
import { makePdf } from '../fixtures/pdf';

const TYPO = '我们明天讨论这个问提，请大家准时参加。';
/** Several seconds of checking for one checker worker. */
const longText = (lines: number) =>
  Array.from({ length: lines }, (_, i) => `第${i + 1}条：各部门要认真落实会议精神。${i % 50 === 0 ? TYPO : ''}`).join(
    '\n',
  );

const until = async (what: string, test: () => Promise<boolean>, ms = 60_000) => {
  const end = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

interface KindCase {
  kind: JobKind;
  /** the right its upload is charged from */
  right: number;
  /** what it is charged once (default 1) */
  charged?(db: Db, id: number): Promise<number>;
  /** the job is far enough for the kill (default: running) */
  killable?(job: JobRecord): boolean;
  /** uploads one job through the public API; its id */
  upload(base: string, token: string): Promise<number>;
  /** the kind's row status as the routes show it */
  status(db: Db, id: number): Promise<string | undefined>;
}

const KINDS: KindCase[] = [
  {
    kind: 'document',
    right: 256,
    async upload(base, token) {
      const { payload, contentType } = form([
        { name: 'file', filename: '长文.txt', data: Buffer.from(longText(1500)) },
      ]);
      const res = await fetch(`${base}/misscut/document/v1/upload`, {
        method: 'POST',
        headers: { ...CLIENT_HEADERS, authorization: `Bearer ${token}`, 'content-type': contentType },
        body: payload,
      });
      const json = await res.json();
      expect(res.status, JSON.stringify(json)).toBe(200);
      return json.result.id as number;
    },
    async status(db, id) {
      return (await db.selectFrom('documents').select('status').where('id', '=', id).executeTakeFirst())?.status;
    },
  },
  {
    kind: 'pdf',
    right: 4,
    async upload(base, token) {
      const pages = Array.from({ length: 120 }, (_, p) => ({
        kind: 'text' as const,
        lines: Array.from({ length: 30 }, (_, l) => `${p + 1}.${l}：各部门要认真落实会议精神。${l === 7 ? TYPO : ''}`),
      }));
      return uploadFile(base, token, '/misscut/v2/pdf_check/upload', 'long.pdf', makePdf(pages));
    },
    async status(db, id) {
      return (await db.selectFrom('pdf_checks').select('status').where('id', '=', id).executeTakeFirst())?.status;
    },
  },
  {
    kind: 'image',
    right: 2,
    async upload(base, token) {
      const font = FONTS.find((f) => existsSync(f));
      if (!font) throw new Error('a CJK font is needed: apt-get install fonts-noto-cjk');
      GlobalFonts.registerFromPath(font, 'TestCJK');
      // a long page of print: several seconds of OCR
      const canvas = createCanvas(1600, 4200);
      const context = canvas.getContext('2d');
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, 1600, 4200);
      context.fillStyle = '#000000';
      context.font = '40px TestCJK';
      context.textBaseline = 'top';
      for (let i = 0; i < 80; i++) context.fillText(`${i + 1}．请各部门认真研究群众反映的问提。`, 40, 40 + i * 50);
      return uploadFile(base, token, '/misscut/v1/image/check', 'page.png', await canvas.encode('png'));
    },
    async status(db, id) {
      return (await db.selectFrom('image_tasks').select('status').where('id', '=', id).executeTakeFirst())?.status;
    },
  },
  {
    kind: 'speech',
    right: 1024,
    async upload(base, token) {
      // a transcript alone, 45 seconds (one minute charged) of short lines: several seconds of checking
      const time = (ms: number) => new Date(ms).toISOString().slice(11, 23).replace('.', ',');
      const srt = longText(1500)
        .split('\n')
        .map((line, i) => `${i + 1}\n${time(i * 30)} --> ${time(i * 30 + 30)}\n${line}\n`)
        .join('\n');
      return uploadFile(base, token, '/misscut/v1/audio/convert_file_to_mp3', '会议.srt', Buffer.from(srt));
    },
    async status(db, id) {
      return (await db.selectFrom('speech_tasks').select('status').where('id', '=', id).executeTakeFirst())?.status;
    },
  },
  {
    kind: 'website',
    right: 1,
    async upload(base, token) {
      const headers = { ...CLIENT_HEADERS, authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const post = async (path: string, body: unknown) => {
        const res = await fetch(`${base}/misscut/website/${path}`, {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
        });
        const json = await res.json();
        expect(res.status, JSON.stringify(json)).toBe(200);
        return json.result;
      };
      const site = await post('add_one', { url: `${siteOrigin}/?${Date.now()}`, depth: 1, page_limit: SITE_PAGES + 1 });
      return (await post('check', { id: site.id })).id as number;
    },
    async status(db, id) {
      return (await db.selectFrom('websites').select('status').where('id', '=', id).executeTakeFirst())?.status;
    },
    // charged by the text its pages held, once: the start after the kill reads the site again on that charge
    async charged(db, id) {
      const row = await db.selectFrom('websites').select('last_result').where('id', '=', id).executeTakeFirstOrThrow();
      return (JSON.parse(row.last_result!) as { char_count: number }).char_count;
    },
    killable: (job) => job.charge_state === 'reserved',
  },
];

/** Pages of the local site a website job reads (never the network): several seconds of checking. */
const SITE_PAGES = 4;
let site: Server;
let siteOrigin: string;

beforeAll(async () => {
  const html = (body: string) => `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;
  const links = Array.from({ length: SITE_PAGES }, (_, i) => `<a href="/p${i}">p${i}</a>`).join(' ');
  const text = (n: number) =>
    longText(250)
      .split('\n')
      .map((line) => `<p>${n}-${line}</p>`)
      .join('');
  site = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    res.writeHead(path === '/robots.txt' ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    if (path === '/') return res.end(html(`<nav>${links}</nav><article>${text(0)}</article>`));
    res.end(html(`<article>${text(Number(path.slice(2)) + 1)}</article>`));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => site.close(resolve));
});

const FONTS = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc',
];

async function uploadFile(base: string, token: string, url: string, filename: string, data: Buffer): Promise<number> {
  const { payload, contentType } = form([{ name: 'file', filename, data }]);
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { ...CLIENT_HEADERS, authorization: `Bearer ${token}`, 'content-type': contentType },
    body: payload,
  });
  const json = await res.json();
  expect(res.status, JSON.stringify(json)).toBe(200);
  return (json.result.id ?? json.result.task_id) as number;
}

const jobOf = (db: Db, kind: JobKind, ref: number) =>
  db.selectFrom('jobs').selectAll().where('kind', '=', kind).where('ref', '=', ref).executeTakeFirst();

// A server process killed with -9 in the middle of a job of each kind: a new process on the same database takes the
// job up again and finishes it, with its result and the upload charged exactly once.
for (const dialect of ['sqlite', 'postgres'] as const) {
  describe.skipIf(dialect === 'postgres' && !PG_BIN)(`a job outlives its process (${dialect})`, () => {
    const cluster = new Cluster();
    const dataDir = mkdtempSync(join(tmpdir(), 'wb-jobs-'));
    let url: string | undefined;
    let db: Db;
    let uid: number;
    let token: string;
    const env = () => ({
      DATA_DIR: dataDir,
      SPA_DIR: join(dataDir, 'no-spa'),
      CHECK_WORKERS: '1',
      WEB_FETCH_ALLOW: '127.0.0.1/32',
      WEB_CRAWL_DELAY_MS: '100',
      INSTANCE_HEARTBEAT_MS: '200',
      INSTANCE_STALE_MS: '1000',
      ...(url ? { DATABASE_URL: url } : {}),
    });

    beforeAll(async () => {
      if (dialect === 'postgres') url = await cluster.start();
      const opened = openDatabase({ dataDir, databaseUrl: url });
      db = opened.db;
      await migrate(db, opened.dialect);
      const user = await createUser(db, { phone: '13900000471', password: 'jobs123456' });
      uid = user.uid;
      for (const right of [256, 64, 2, 4, 1024, 1, 32]) await addGrant(db, uid, right, 1_000_000, `test:${right}`);
      token = await issueToken(db, uid);
    }, 90_000);

    afterAll(async () => {
      await db?.destroy();
      if (dialect === 'postgres') await cluster.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }, 30_000);

    for (const c of KINDS) {
      it(`a ${c.kind} job finishes on the next process, charged once`, async () => {
        const balance = async () => (await rightView(db, uid, c.right)).disposable_num;
        const before = await balance();
        const since = new Date().toISOString();
        let server: ServerProcess = await startServer(env());
        try {
          const id = await c.upload(server.base, token);
          const killable = c.killable ?? ((job: JobRecord) => job.state === 'running');
          await until('the job to run', async () => {
            const job = await jobOf(db, c.kind, id);
            return job !== undefined && killable(job);
          });
          const first = (await jobOf(db, c.kind, id))!.owner;
          await server.kill();
          server = await startServer(env());
          await until('the job to be done', async () => (await c.status(db, id)) === 'done', 120_000).catch(
            async (error) => {
              throw new Error(`${error}: ${JSON.stringify(await jobOf(db, c.kind, id))}\n${server.output()}`);
            },
          );
          const job = (await jobOf(db, c.kind, id))!;
          expect(job).toMatchObject({ state: 'done', owner: null, charge_state: 'committed' });
          expect(Number(job.attempts)).toBe(2);
          expect(first).not.toBeNull();
          const charged = (await c.charged?.(db, id)) ?? 1;
          expect(await balance()).toBe(before - charged);
          // one consumption and no refund in the ledger
          const ledger = await db
            .selectFrom('right_records')
            .select('num')
            .where('uid', '=', uid)
            .where('user_right_type', '=', c.right)
            .where('created_at', '>=', since)
            .execute();
          expect(ledger.map((r) => Number(r.num))).toEqual([-charged]);
        } finally {
          await server.stop();
        }
      }, 240_000);
    }
  });
}

describe('a job that keeps failing', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({
      config: {
        jobs: {
          concurrency: { document: 1, pdf: 1, image: 1, speech: 1, website: 1 },
          maxAttempts: 3,
          retryMs: 20,
          pollMs: 20,
        },
      },
    });
    token = await register(t, '13900000472');
  }, 60_000);
  afterAll(async () => t?.close());

  it('is retried with back-off, then failed with its reason and refunded once', async () => {
    const runs: number[] = [];
    const real = t.app.heavy.run.bind(t.app.heavy);
    // the reader crashes as a worker does (not a message about the input): a fault that may pass
    t.app.heavy.run = (async (...args: Parameters<typeof real>) => {
      if (args[0] === 'read') {
        runs.push(Date.now());
        throw new Error('heavy worker exited with code 1');
      }
      return real(...args);
    }) as typeof real;
    const uploads = async () =>
      (await call(t.app, 'GET', '/user/v1/get_user_right?user_right_type=256', undefined, token)).json.result
        .disposable_num as number;
    const before = await uploads();
    const { payload, contentType } = form([{ name: 'file', filename: 'a.txt', data: Buffer.from(TYPO) }]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/misscut/document/v1/upload',
      headers: { ...CLIENT_HEADERS, authorization: `Bearer ${token}`, 'content-type': contentType },
      payload,
    });
    const id = res.json().result.id as number;
    expect(await uploads()).toBe(before - 1);
    await until('the job to fail', async () => (await jobOf(t.app.db, 'document', id))?.state === 'failed');
    t.app.heavy.run = real;
    const job = (await jobOf(t.app.db, 'document', id))!;
    expect(job).toMatchObject({ error_code: 'document.failed', charge_state: 'refunded', attempts: 3 });
    expect(runs).toHaveLength(3);
    // the waits double: 20 ms, then 40 ms
    expect(runs[2] - runs[1]).toBeGreaterThanOrEqual(runs[1] - runs[0]);
    const row = (await call(t.app, 'GET', `/misscut/document/v1/edit_upload_get?id=${id}`, undefined, token)).json;
    expect(row.result).toMatchObject({ status: 'failed', error_code: 'document.failed' });
    expect(await uploads()).toBe(before);
    // a second refund is refused by the store: the charge moved to refunded once
    await t.app.jobs.refundEnded();
    expect(await uploads()).toBe(before);
  }, 60_000);

  it('operators see the queue, retry a failed job and cancel a queued one; nobody else does', async () => {
    const admin = await login(t.app, ADMIN.phone, ADMIN.password);
    expect((await call(t.app, 'GET', '/admin/v1/jobs', undefined, token)).status).toBe(403);
    const queue = (await call(t.app, 'GET', '/admin/v1/jobs', undefined, admin)).json.result;
    const failed = queue.failures.find((j: { kind: string }) => j.kind === 'document');
    expect(failed).toMatchObject({ state: 'failed', error_code: 'document.failed', attempts: 3 });
    expect(queue.counts).toContainEqual({ kind: 'document', state: 'failed', count: 1 });
    expect(queue.oldest_queued_seconds).toBeNull();

    // the reader works again: a retry finishes the job, charging nothing more
    const retried = await call(t.app, 'POST', `/admin/v1/jobs/${failed.id}/retry`, undefined, admin);
    expect(retried.status, JSON.stringify(retried.json)).toBe(200);
    await until(
      'the retried job to be done',
      async () => (await jobOf(t.app.db, 'document', failed.ref))?.state === 'done',
    );
    expect((await jobOf(t.app.db, 'document', failed.ref))!.charge_state).toBe('refunded');
    expect((await call(t.app, 'POST', `/admin/v1/jobs/${failed.id}/retry`, undefined, admin)).status).toBe(409);
    expect((await call(t.app, 'POST', `/admin/v1/jobs/${failed.id}/cancel`, undefined, admin)).status).toBe(409);
    expect((await call(t.app, 'POST', '/admin/v1/jobs/99999/cancel', undefined, admin)).status).toBe(404);

    // the CLI lists the queue and cancels a job no process has claimed yet (its run is a moment away)
    const out: string[] = [];
    await runAdmin(['jobs', 'list'], t.app.db, (l) => out.push(l));
    expect(out).toContain('document\tdone\t1');
    const now = new Date(Date.now() + 3_600_000).toISOString();
    await t.app.db.updateTable('jobs').set({ state: 'queued', run_after: now }).where('id', '=', failed.id).execute();
    await runAdmin(['jobs', 'cancel', String(failed.id)], t.app.db, (l) => out.push(l));
    expect(out.at(-1)).toBe(`job ${failed.id} cancelled`);
    const row = (await call(t.app, 'GET', `/misscut/document/v1/edit_upload_get?id=${failed.ref}`, undefined, token))
      .json.result;
    expect(row).toMatchObject({ status: 'cancelled', error_code: 'document.cancelled' });
    await expect(runAdmin(['jobs', 'cancel', String(failed.id)], t.app.db, () => {})).rejects.toThrow(/已结束/);
  }, 60_000);
});

/** Rows of each kind's table as a database before the job store held them: one per status. */
/** The columns every kind's row has. */
const base = (name: string, status: string) => ({ uid: 1, name, size: 1, status });

/** The queue columns of a row of before the store: an unfinished one held by a dead process, with its charge. */
const held = (status: string, right: number) => ({
  owner: status === 'done' ? null : 'a-dead-process',
  charge: status === 'done' ? null : `{"uid":1,"type":${right},"amount":1,"parts":[],"ref":null}`,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});

const BEFORE_STORE: Array<{
  kind: JobKind;
  table: string;
  row: (status: string, n: number) => Record<string, unknown>;
}> = [
  {
    kind: 'document',
    table: 'documents',
    row: (status, n) => ({
      ...base(`d${n}.txt`, status),
      file_type: 'txt',
      progress: 10,
      check_options: 127,
      charge: status === 'done' ? null : `{"uid":1,"type":256,"amount":1,"parts":[],"ref":null}`,
      attempts: 1,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    }),
  },
  {
    kind: 'pdf',
    table: 'pdf_checks',
    row: (status, n) => ({
      ...base(`p${n}.pdf`, status),
      progress: 10,
      page_count: 3,
      pages_done: 1,
      issue_count: 0,
      ...held(status, 4),
    }),
  },
  {
    kind: 'image',
    table: 'image_tasks',
    row: (status, n) => ({
      ...base(`i${n}.png`, status),
      ...held(status, 2),
    }),
  },
  {
    kind: 'speech',
    table: 'speech_tasks',
    row: (status, n) => ({
      ...base(`s${n}.mp3`, status),
      kind: 'audio',
      progress: 20,
      duration_ms: 60_000,
      minutes: 1,
      has_mp3: 0,
      segment_count: 0,
      issue_count: 0,
      ...held(status, 1024),
    }),
  },
  {
    kind: 'website',
    table: 'websites',
    row: (status, n) => ({
      uid: 1,
      url: `https://example.com/${n}`,
      name: `w${n}`,
      status,
      progress: 30,
      ...held(status, 1),
    }),
  },
];

describe('the migration to the job store', () => {
  it('moves queued and running rows of each kind into jobs, with their charge; finished rows stay out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-jobs-migrate-'));
    const { db } = openDatabase({ dataDir: dir });
    try {
      const provider = migrationProvider('sqlite');
      const names = Object.keys(await provider.getMigrations()).sort();
      // the migration before the job store
      const before = names[names.indexOf('0021_jobs') - 1];
      const { error } = await new Migrator({ db, provider }).migrateTo(before);
      expect(error).toBeUndefined();
      await sql`insert into users (phone, name, password_hash, created_at) values ('1', 'a', 'x', '2026')`.execute(db);
      const refs: Record<string, number[]> = {};
      for (const { table, row } of BEFORE_STORE) {
        refs[table] = [];
        for (const [n, status] of ['queued', 'running', 'done'].entries()) {
          const values = row(status, n);
          const columns = sql.join(Object.keys(values).map((k) => sql.ref(k)));
          const inserted = await sql<{ id: number }>`insert into ${sql.table(table)} (${columns})
            values (${sql.join(Object.values(values))}) returning id`.execute(db);
          refs[table].push(Number(inserted.rows[0].id));
        }
      }
      await migrate(db, 'sqlite');
      for (const { kind, table } of BEFORE_STORE) {
        const jobs = await db.selectFrom('jobs').selectAll().where('kind', '=', kind).orderBy('ref').execute();
        expect(jobs.map((j) => [j.ref, j.state, j.charge_state, j.owner])).toEqual([
          [refs[table][0], 'queued', 'reserved', null],
          [refs[table][1], 'queued', 'reserved', null],
        ]);
        expect(JSON.parse(jobs[0].charge!)).toMatchObject({ amount: 1 });
      }
    } finally {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Link proofreading end to end against a local web site started here (never the internet): websites are added,
// listed, changed and deleted per user; a check reads the named page and, with depth, its same-site links as the
// site's robots.txt allows and at the configured pace, caps the text at right 32, charges right 1 once by the text
// checked, streams progress on the socket (type 2 cmd 8), stores findings with the page's headings, and gives the
// characters back when it fails or is stopped. The report downloads as CSV.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerMessage, WebsiteProgressData } from '../../openapi/socket-protocol';
import { isWebsiteProgress } from '../../openapi/socket-protocol';
import { nowIso } from '../../server/db';
import { insertWebsite, findWebsite } from '../../server/db/repos/websites';
import { findJob, insertJob } from '../../server/jobs/store';
import { consumeRight, rightBalance, setDefaultRemaining } from '../../server/domain/rights/ledger';
import { call, register, startTestApp, type TestApp } from './helpers';
import { listen, SocketClient } from './proofread-support';

const page = (title: string, body: string, links: string[] = []) =>
  `<!doctype html><html><head><title>${title}</title></head><body>` +
  `<nav>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</nav>` +
  `<article>${body}</article></body></html>`;

const HOME = page(
  '首页',
  '<h1>单位简介</h1><p>我们始终坚持以人民为中心的发展思想，认真研究群众反映的问提，切实解决实际困难。</p>' +
    '<h2>工作动态</h2><p>今年以来，各部门围绕中心工作，扎实推进各项任务落实，取得了明显成效。</p>',
  ['/a', '/b', '/private/x', '/missing', 'https://elsewhere.example/out', '/a#top'],
);
const PAGE_A = page('动态', '<h1>动态</h1><p>会议强调，要把解决群众急难愁盼问提作为工作的重点。</p>', ['/c']);
const PAGE_B = page('通知', '<h1>通知</h1><p>请各单位按照要求及时报送材料，确保工作有序开展。</p>');
const PAGE_C = page('深层', '<h1>深层</h1><p>第二层的页面不应被读取。</p>');
const LONG = page('长文', `<h1>长文</h1>${'<p>这是一段用于测试字数上限的正常文字内容，没有错误。</p>'.repeat(300)}`);

let site: Server;
let origin: string;
/** when each path was requested */
const hits: Array<{ path: string; at: number }> = [];
let slowRelease: (() => void) | null = null;

let t: TestApp;
let base: string;
let token: string;
let other: string;
let uid: number;

beforeAll(async () => {
  site = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.push({ path, at: Date.now() });
    const html = (body: string, status = 200) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body);
    };
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end('User-agent: *\nDisallow: /private\n');
    }
    if (path === '/') return html(HOME);
    if (path === '/a') return html(PAGE_A);
    if (path === '/b' || path === '/b?orphan') return html(PAGE_B);
    if (path === '/c') return html(PAGE_C);
    if (path === '/private/x') return html(page('私密', '<p>不应读取。</p>'));
    if (path === '/long') return html(LONG);
    if (path === '/broken') return html('error', 500);
    if (path.startsWith('/slow')) {
      slowRelease = () => {
        slowRelease = null;
        html(page('慢', '<p>慢慢打开的页面，内容正常。</p>'));
      };
      return;
    }
    html('not found', 404);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  t = await startTestApp({
    config: {
      web: { allow: ['127.0.0.1/32'], maxBytes: 1024 * 1024, timeoutMs: 10_000, maxRedirects: 3, crawlDelayMs: 150 },
    },
  });
  base = await listen(t);
  token = await register(t, '13566662001');
  other = await register(t, '13566662002');
  uid = (await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result.uid;
}, 60_000);

afterAll(async () => {
  slowRelease?.();
  await t.close();
  await new Promise((resolve) => site.close(resolve));
});

async function add(body: Record<string, unknown>, as = token) {
  return call(t.app, 'POST', '/misscut/website/add_one', body, as);
}

/** Reads the socket (acknowledging) until the website's check ends; every progress message in order. */
async function untilEnded(socket: SocketClient, id: number): Promise<WebsiteProgressData[]> {
  const seen: WebsiteProgressData[] = [];
  for (;;) {
    const m: ServerMessage = await socket.next(30_000);
    if (m.index !== undefined) socket.send({ type: 1, cmd: 2, index: m.index });
    if (!isWebsiteProgress(m) || m.data.id !== id) continue;
    seen.push(m.data);
    if (m.data.status === 'done' || m.data.status === 'failed') return seen;
  }
}

async function until(test: () => Promise<boolean>, ms = 30_000) {
  const end = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function detail(id: number, as = token) {
  const list = await call(t.app, 'GET', '/misscut/website/get_list?num=1&size=50', undefined, as);
  return list.json.result.list.find((w: { id: number }) => w.id === id);
}

describe('websites', () => {
  it('are added, listed, changed and deleted per user, with clear refusals', async () => {
    const added = await add({ url: `${origin}/b#frag`, depth: 1 });
    expect(added.status).toBe(200);
    expect(added.json.result).toMatchObject({
      url: `${origin}/b`,
      name: `127.0.0.1:${new URL(origin).port}/b`,
      depth: 1,
      page_limit: 10,
      status: 'idle',
      last_result: null,
    });
    const id = added.json.result.id;

    expect((await add({ url: `${origin}/b` })).json).toMatchObject({ code: 409, msg_code: 'website.duplicate' });
    expect((await add({ url: 'ftp://example.com/x' })).status).toBe(400);
    expect((await add({ url: 'http://user:pw@example.com/' })).json).toMatchObject({ msg_code: 'web.bad_url' });
    expect((await add({ url: `${origin}/x`, depth: 3 })).status).toBe(400);
    expect((await add({ url: `${origin}/x`, page_limit: 51 })).status).toBe(400);

    const renamed = await call(
      t.app,
      'POST',
      '/misscut/website/update_one',
      { id, name: '通知页', page_limit: 3 },
      token,
    );
    expect(renamed.json.result).toMatchObject({ name: '通知页', page_limit: 3, depth: 1 });

    // another user's website is unknown to every call
    for (const [method, path, body] of [
      ['POST', '/misscut/website/update_one', { id, name: 'x' }],
      ['POST', '/misscut/website/delete_one', { id }],
      ['POST', '/misscut/website/check', { id }],
      ['GET', `/misscut/website/download?id=${id}`, undefined],
    ] as const) {
      const res = await call(t.app, method, path, body, other);
      expect(res.status, path).toBe(404);
      expect(res.json.msg_code).toBe('website.unknown');
    }
    expect((await call(t.app, 'GET', '/misscut/website/get_list', undefined, other)).json.result).toMatchObject({
      total: 0,
      list: [],
    });
    expect((await call(t.app, 'GET', `/misscut/website/download?id=${id}`, undefined, token)).json).toMatchObject({
      code: 409,
      msg_code: 'website.no_result',
    });

    expect((await call(t.app, 'POST', '/misscut/website/delete_one', { id }, token)).status).toBe(200);
    expect(await detail(id)).toBeUndefined();
    expect((await call(t.app, 'POST', '/misscut/website/delete_one', { id }, token)).status).toBe(404);
  });

  it('a check crawls the site politely, skips what robots.txt forbids, charges once and reports findings', async () => {
    const id = (await add({ url: `${origin}/`, depth: 1, name: '示例单位' })).json.result.id;
    const before = await rightBalance(t.app.db, uid, 1);
    const socket = await SocketClient.open(base, token);
    hits.length = 0;
    const started = await call(t.app, 'POST', '/misscut/website/check', { id }, token);
    expect(started.status).toBe(200);
    expect(['queued', 'running']).toContain(started.json.result.status);
    const progress = await untilEnded(socket, id);
    await socket.close();

    expect(progress.at(-1)).toMatchObject({ status: 'done', progress: 100, page_count: 3 });
    // the finished check counts in the owner's metrics, with every page's findings
    const events = await t.app.db.selectFrom('check_events').selectAll().where('kind', '=', 'website').execute();
    expect(events).toEqual([expect.objectContaining({ issues: progress.at(-1)!.issue_count })]);
    const percents = progress.map((p) => p.progress);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(progress.some((p) => p.status === 'running' && p.progress > 0 && p.progress < 100)).toBe(true);

    const result = (await detail(id)).last_result;
    expect(result.pages.map((p: { url: string }) => p.url)).toEqual([`${origin}/`, `${origin}/a`, `${origin}/b`]);
    // the disallowed page and the missing one are listed with their reasons; depth 2 and other sites are not read
    expect(result.skipped).toEqual([
      { url: `${origin}/private/x`, error: '网站的 robots.txt 不允许读取此页', error_code: 'web.robots' },
      {
        url: `${origin}/missing`,
        error: '网站返回错误 404',
        error_code: 'web.http_status',
        error_params: { status: 404 },
      },
    ]);
    const paths = hits.map((h) => h.path);
    expect(paths).not.toContain('/c');
    expect(paths).not.toContain('/private/x');
    expect(paths.filter((p) => p === '/robots.txt')).toHaveLength(1);
    // at most one request per 150 ms to the host during the crawl, counted from the last answer (a timer may end
    // a millisecond early)
    for (let i = 1; i < hits.length; i++) expect(hits[i].at - hits[i - 1].at).toBeGreaterThanOrEqual(149);

    const home = result.pages[0];
    expect(home.title).toBe('首页');
    expect(home.headings.map((h: { text: string }) => h.text)).toEqual(['单位简介', '工作动态']);
    const typo = home.issues.find((i: { original: string }) => i.original === '提');
    expect(typo).toMatchObject({ suggestions: ['题'] });
    expect(home.text.slice(typo.start - 1, typo.end)).toBe('问提');
    expect(result.pages[1].issues.some((i: { original: string }) => i.original === '提')).toBe(true);
    expect(result.issue_count).toBe(
      result.pages.reduce((n: number, p: { issues: unknown[] }) => n + p.issues.length, 0),
    );

    // charged exactly once, by the characters checked
    const chars = result.pages.reduce((n: number, p: { text: string }) => n + p.text.replace(/\s/g, '').length, 0);
    expect(result.char_count).toBe(chars);
    expect(result.truncated).toBe(false);
    expect(await rightBalance(t.app.db, uid, 1)).toBe(before - chars);

    const csv = await call(t.app, 'GET', `/misscut/website/download?id=${id}`, undefined, token);
    expect(csv.status).toBe(200);
    expect(csv.res.headers['content-type']).toContain('text/csv');
    expect(csv.res.headers['content-disposition']).toContain('attachment');
    const lines = csv.res.body
      .replace(/^\ufeff/, '')
      .trim()
      .split(/\r\n/);
    expect(csv.res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(lines).toHaveLength(1 + result.issue_count);
    expect(lines.some((l: string) => l.startsWith(`${origin}/,单位简介,提,题,`) && l.includes('问提'))).toBe(true);
  });

  it('caps the text at right 32 and charges only what was checked', async () => {
    const id = (await add({ url: `${origin}/long` })).json.result.id;
    const before = await rightBalance(t.app.db, uid, 1);
    const limit = await rightBalance(t.app.db, uid, 32);
    const socket = await SocketClient.open(base, token);
    await call(t.app, 'POST', '/misscut/website/check', { id }, token);
    await untilEnded(socket, id);
    await socket.close();
    const result = (await detail(id)).last_result;
    expect(result.truncated).toBe(true);
    expect(result.char_count).toBeLessThanOrEqual(limit);
    expect(result.char_count).toBeGreaterThan(limit - 40);
    expect(await rightBalance(t.app.db, uid, 1)).toBe(before - result.char_count);
  });

  it('a check that cannot read the page fails with the reason and charges nothing', async () => {
    const before = await rightBalance(t.app.db, uid, 1);
    const socket = await SocketClient.open(base, token);
    for (const [url, code] of [
      [`${origin}/broken`, 'web.http_status'],
      ['http://10.0.0.1/intranet', 'web.private_address'],
    ]) {
      const id = (await add({ url })).json.result.id;
      await call(t.app, 'POST', '/misscut/website/check', { id }, token);
      expect((await untilEnded(socket, id)).at(-1)).toMatchObject({ status: 'failed', error_code: code });
      expect(await detail(id)).toMatchObject({ status: 'failed', error_code: code, last_result: null });
    }
    await socket.close();
    expect(await rightBalance(t.app.db, uid, 1)).toBe(before);
  });

  it('one check at a time; deleting a running check stops it; no characters means 402', async () => {
    const id = (await add({ url: `${origin}/slow` })).json.result.id;
    expect((await call(t.app, 'POST', '/misscut/website/check', { id }, token)).status).toBe(200);
    const again = await call(t.app, 'POST', '/misscut/website/check', { id }, token);
    expect(again.json).toMatchObject({ code: 409, msg_code: 'website.running' });
    const edit = await call(t.app, 'POST', '/misscut/website/update_one', { id, depth: 1 }, token);
    expect(edit.json).toMatchObject({ code: 409, msg_code: 'website.running' });
    const deleting = Date.now();
    expect((await call(t.app, 'POST', '/misscut/website/delete_one', { id }, token)).status).toBe(200);
    // the page being fetched is dropped, not waited for
    expect(Date.now() - deleting).toBeLessThan(5_000);
    slowRelease?.();
    expect(await findWebsite(t.app.db, id)).toBeUndefined();

    // two running checks per user at most: a third waits its turn
    slowRelease = null;
    const slow = [
      (await add({ url: `${origin}/slow?1` })).json.result.id,
      (await add({ url: `${origin}/slow?2` })).json.result.id,
    ];
    for (const sid of slow)
      expect((await call(t.app, 'POST', '/misscut/website/check', { id: sid }, token)).status).toBe(200);
    const third = (await add({ url: `${origin}/slow?3` })).json.result.id;
    const refusedBusy = await call(t.app, 'POST', '/misscut/website/check', { id: third }, token);
    expect(refusedBusy.json).toMatchObject({ code: 429, msg_code: 'website.too_many', msg_params: { max: 2 } });
    expect(refusedBusy.res.headers['retry-after']).toBe('60');
    for (const sid of [...slow, third])
      expect((await call(t.app, 'POST', '/misscut/website/delete_one', { id: sid }, token)).status).toBe(200);

    const spare = (await add({ url: `${origin}/b` })).json.result.id;
    const left = await rightBalance(t.app.db, uid, 1);
    await setDefaultRemaining(t.app.db, uid, 1, 0);
    const paid = await rightBalance(t.app.db, uid, 1);
    if (paid > 0) await consumeRight(t.app.db, uid, 1, paid, 'test');
    const refused = await call(t.app, 'POST', '/misscut/website/check', { id: spare }, token);
    expect(refused.status).toBe(402);
    expect(refused.json.msg_code).toBe('check.exhausted');
    expect((await detail(spare)).status).toBe('idle');
    await setDefaultRemaining(t.app.db, uid, 1, left);
  });

  it('a check its process left behind is taken up by the runner, charged by its first start only', async () => {
    const before = await rightBalance(t.app.db, uid, 1);
    const now = nowIso();
    const id = await insertWebsite(t.app.db, {
      uid,
      url: `${origin}/b?orphan`,
      name: 'orphan',
      depth: 0,
      page_limit: 1,
      status: 'running',
      progress: 60,
      created_at: now,
      updated_at: now,
    });
    // the dead process had read the site and reserved its characters on the job
    await insertJob(t.app.db, { kind: 'website', ref: id, uid });
    await consumeRight(t.app.db, uid, 1, 120, '网页校对', null, async (trx, consumption) => {
      await trx
        .updateTable('jobs')
        .set({ state: 'running', owner: 'a-process-that-is-gone', attempts: 1, charge: JSON.stringify(consumption) })
        .set({ charge_state: 'reserved' })
        .where('kind', '=', 'website')
        .where('ref', '=', id)
        .execute();
    });
    await t.app.instance.sweep();
    await until(async () => (await detail(id))?.status === 'done');
    expect((await detail(id)).last_result.pages).toHaveLength(1);
    const job = await findJob(t.app.db, 'website', id);
    expect(job).toMatchObject({ state: 'done', charge_state: 'committed', attempts: 2 });
    expect(await rightBalance(t.app.db, uid, 1)).toBe(before - 120);
  });
});

// The link check's fetcher and reader, against a local HTTP server started here (never the internet): the guard
// refuses private, loopback, link-local and metadata addresses unless allowed, checks each redirect again, and
// holds time, size (after decompression) and type limits; the reader decodes the charset and keeps the article.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressAllowed, fetchPage, FetchRefused, type FetchOptions } from '../../server/formats/web/fetch';
import { decodePage, extractPage } from '../../server/formats/web/extract';

const ARTICLE = `<!doctype html><html><head><title>通知 - 示例单位</title></head><body>
<nav><a href="/">首页</a> <a href="/news/1#top">新闻</a> <a href="https://other.example/x">外站</a></nav>
<article><h1>关于召开年度工作会议的通知</h1>
<p>各部门：经研究决定，定于下周一上午九点在三楼会议室召开年度工作会议，请各部门负责人准时参加。</p>
<p>会议将总结本年度工作，部署明年重点任务。请各部门提前准备书面材料，并于周五前报送办公室。</p>
<h2>会议议程</h2><ul><li>听取各部门工作汇报</li><li>讨论明年工作计划</li></ul></article>
<footer>版权所有</footer></body></html>`;

let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    const html = (body: string | Buffer, headers: Record<string, string> = {}) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
      res.end(body);
    };
    if (path === '/page') return html(ARTICLE);
    if (path === '/plain') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end('第一行文字\n\n第二行文字\n');
    }
    if (path === '/gbk') {
      // 中文测试 in GBK, named only by the page's meta
      const bytes = Buffer.from([0xd6, 0xd0, 0xce, 0xc4, 0xb2, 0xe2, 0xca, 0xd4]);
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(
        Buffer.concat([
          Buffer.from('<html><head><meta charset="gbk"></head><body><p>'),
          bytes,
          Buffer.from('</p></body></html>'),
        ]),
      );
    }
    if (path === '/gzip') return html(gzipSync(ARTICLE), { 'content-encoding': 'gzip' });
    if (path === '/bomb') return html(gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x20)), { 'content-encoding': 'gzip' });
    if (path === '/huge') return html(Buffer.alloc(2 * 1024 * 1024, 0x41));
    if (path === '/slow') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<html>');
      return; // never ends
    }
    if (path === '/pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      return res.end('%PDF-1.4');
    }
    const redirect = (to: string) => {
      res.writeHead(302, { location: to });
      res.end();
    };
    if (path === '/to-page') return redirect('/page');
    if (path === '/to-private') return redirect('http://10.0.0.1/admin');
    if (path === '/to-metadata') return redirect('http://169.254.169.254/latest/meta-data/');
    if (path === '/loop') return redirect('/loop');
    if (path === '/to-ftp') return redirect('ftp://example.com/file');
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const LOCAL: FetchOptions = {
  allow: ['127.0.0.1/32'],
  maxBytes: 1024 * 1024,
  timeoutMs: 3000,
  maxRedirects: 3,
  accept: ['text/html', 'application/xhtml+xml', 'text/plain'],
};

async function refusal(promise: Promise<unknown>): Promise<{ code: string; params: object }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof FetchRefused) return { code: error.code, params: error.params };
    throw error;
  }
  throw new Error('fetched, expected a refusal');
}

describe('the address guard', () => {
  it('allows public unicast addresses and refuses every special range', () => {
    for (const a of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '1.1.1.1'])
      expect(addressAllowed(a), a).toBe(true);
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      'not an address',
    ])
      expect(addressAllowed(a), a).toBe(false);
  });

  it('allows what WEB_FETCH_ALLOW lists, and nothing more', () => {
    expect(addressAllowed('10.1.2.3', ['10.1.0.0/16'])).toBe(true);
    expect(addressAllowed('10.2.0.1', ['10.1.0.0/16'])).toBe(false);
    expect(addressAllowed('192.168.5.10', ['192.168.5.10'])).toBe(true);
    expect(addressAllowed('192.168.5.11', ['192.168.5.10', 'junk'])).toBe(false);
  });
});

describe('fetching a page', () => {
  it('reads an allowed local page, follows a redirect, and unpacks gzip', async () => {
    const page = await fetchPage(`${origin}/page`, LOCAL);
    expect(page).toMatchObject({ status: 200, mediaType: 'text/html', charset: 'utf-8' });
    expect(page.body.toString('utf8')).toBe(ARTICLE);
    const moved = await fetchPage(`${origin}/to-page`, LOCAL);
    expect(moved.url).toBe(`${origin}/page`);
    expect((await fetchPage(`${origin}/gzip`, LOCAL)).body.toString('utf8')).toBe(ARTICLE);
  });

  it('refuses loopback when it is not allowed, and never connects to a name that also points inward', async () => {
    expect(await refusal(fetchPage(`${origin}/page`, { ...LOCAL, allow: [] }))).toEqual({
      code: 'web.private_address',
      params: { host: '127.0.0.1' },
    });
    for (const url of ['http://[::1]/', 'http://0.0.0.0/', 'http://169.254.169.254/latest/meta-data/'])
      expect((await refusal(fetchPage(url, LOCAL))).code, url).toBe('web.private_address');
    const resolved: string[] = [];
    const mixed = await refusal(
      fetchPage('http://mixed.example/', {
        ...LOCAL,
        resolve: async (host) => (resolved.push(host), ['93.184.216.34', '10.0.0.5']),
      }),
    );
    expect(mixed).toEqual({ code: 'web.private_address', params: { host: 'mixed.example' } });
    expect(resolved).toEqual(['mixed.example']);
    expect((await refusal(fetchPage('http://nowhere.example/', { ...LOCAL, resolve: async () => [] }))).code).toBe(
      'web.unknown_host',
    );
  });

  it('checks every redirect again: inward, metadata, another scheme, and too many', async () => {
    expect((await refusal(fetchPage(`${origin}/to-private`, LOCAL))).code).toBe('web.private_address');
    expect((await refusal(fetchPage(`${origin}/to-metadata`, LOCAL))).code).toBe('web.private_address');
    expect((await refusal(fetchPage(`${origin}/to-ftp`, LOCAL))).code).toBe('web.bad_scheme');
    expect(await refusal(fetchPage(`${origin}/loop`, LOCAL))).toEqual({
      code: 'web.too_many_redirects',
      params: { max: 3 },
    });
  });

  it('holds the size (after decompression), time and type limits, and says what went wrong', async () => {
    expect((await refusal(fetchPage(`${origin}/huge`, LOCAL))).code).toBe('web.too_large');
    expect((await refusal(fetchPage(`${origin}/bomb`, LOCAL))).code).toBe('web.too_large');
    const started = Date.now();
    expect((await refusal(fetchPage(`${origin}/slow`, { ...LOCAL, timeoutMs: 400 }))).code).toBe('web.timeout');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await refusal(fetchPage(`${origin}/pdf`, LOCAL))).toEqual({
      code: 'web.not_html',
      params: { type: 'application/pdf' },
    });
    expect(await refusal(fetchPage(`${origin}/missing`, LOCAL))).toEqual({
      code: 'web.http_status',
      params: { status: 404 },
    });
    expect((await refusal(fetchPage('ftp://example.com/', LOCAL))).code).toBe('web.bad_scheme');
    expect((await refusal(fetchPage('http://user:pw@example.com/', LOCAL))).code).toBe('web.bad_url');
    expect((await refusal(fetchPage('不是网址', LOCAL))).code).toBe('web.bad_url');
  });
});

describe('reading a page', () => {
  it('keeps the article as lines with its headings, drops navigation and footer, lists same-site links', async () => {
    const page = await fetchPage(`${origin}/page`, LOCAL);
    const read = extractPage(decodePage(page.body, page.charset), page.mediaType, page.url);
    expect(read.title).toContain('通知');
    const lines = read.text.split('\n');
    expect(lines).toContain('会议将总结本年度工作，部署明年重点任务。请各部门提前准备书面材料，并于周五前报送办公室。');
    expect(lines).toContain('听取各部门工作汇报');
    expect(read.text).not.toContain('版权所有');
    expect(read.text).not.toContain('外站');
    expect(read.headings.map((h) => h.text)).toContain('会议议程');
    expect(lines[read.headings.find((h) => h.text === '会议议程')!.line]).toBe('会议议程');
    expect(read.links).toEqual([`${origin}/`, `${origin}/news/1`]);
  });

  it('decodes a GBK page named by its meta, and reads plain text line by line', async () => {
    const gbk = await fetchPage(`${origin}/gbk`, LOCAL);
    expect(extractPage(decodePage(gbk.body, gbk.charset), gbk.mediaType, gbk.url).text).toBe('中文测试');
    const plain = await fetchPage(`${origin}/plain`, LOCAL);
    expect(extractPage(decodePage(plain.body, plain.charset), plain.mediaType, plain.url).text).toBe(
      '第一行文字\n第二行文字',
    );
  });
});

describe("the heavy pool's page task", () => {
  it('reads a fetched page, and refuses one nested too deep for the reader', async () => {
    const { heavyTasks } = await import('../../server/workers/heavy/tasks');
    const page = await fetchPage(`${origin}/page`, LOCAL);
    const read = await heavyTasks.readPage({ ...page, body: new Uint8Array(page.body) });
    expect(read.text).toContain('听取各部门工作汇报');
    const deep = `<html><body>${'<div>'.repeat(5000)}文字${'</div>'.repeat(5000)}</body></html>`;
    await expect(
      heavyTasks.readPage({
        body: new TextEncoder().encode(deep),
        charset: 'utf-8',
        mediaType: 'text/html',
        url: origin,
      }),
    ).rejects.toMatchObject({ msgCode: 'document.nested_too_deep' });
  });
});

// Link proofreading in Chromium against the real server and a web site started by this test on this machine
// (never the internet): a web address pasted on the home screen is checked as a page, the findings show beside the
// page's text with a link to their place, a site with its links is crawled as robots.txt allows, and the report
// downloads as CSV.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  openBrowser,
  registerInBrowser,
  savedDownload,
  screenshotPath,
  uniquePhone,
  type BrowserSession,
} from './browser';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const phone = uniquePhone().replace(/^139/, '135');

const page = (title: string, body: string, links: string[] = []) =>
  `<!doctype html><html><head><title>${title}</title></head><body>` +
  `<nav>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</nav><article>${body}</article></body></html>`;

let site: Server;
let origin: string;
let browser: BrowserSession;

beforeAll(async () => {
  site = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    const html = (body: string) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body);
    };
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end('User-agent: *\nDisallow: /internal\n');
    }
    if (path === '/news')
      return html(
        page(
          '工作动态',
          '<h1>工作动态</h1><p>会议要求，各部门要认真研究群众反映的问提，切实解决实际困难。</p>' +
            '<h2>下一步安排</h2><p>请各单位按照要求及时报送材料，确保工作有序开展。</p>',
          ['/notice', '/internal/a'],
        ),
      );
    if (path === '/notice')
      return html(page('通知', '<h1>通知</h1><p>请大家关注近期需要解决的问提，并按时提交总结。</p>'));
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('not found');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  browser = await openBrowser();
  await registerInBrowser(browser.page, baseUrl, dataDir, phone, 'e2e-link-123');
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site.close(resolve));
});

describe('link proofreading', () => {
  it('a web address pasted on the home screen is checked as a page, findings beside its text', async () => {
    const { page: tab } = browser;
    const editor = tab.getByTestId('proofread-editor');
    await editor.fill(`${origin}/news`);
    await tab.getByTestId('home-check-url').click();
    await tab.waitForURL(`${baseUrl}/workbench/link`);
    const row = tab.getByTestId('link-row').first();
    await expect
      .poll(() => row.getByTestId('link-status').getAttribute('data-status'), { timeout: 30_000 })
      .toBe('done');
    const result = tab.getByTestId('link-result');
    await result.waitFor();
    // the page's text with its heading, the typo marked, its card with the suggestion and a link to its place
    await expect.poll(() => tab.getByTestId('link-page-text').locator('h3').first().textContent()).toBe('工作动态');
    const mark = tab.getByTestId('link-page-text').locator('mark').first();
    expect(await mark.textContent()).toBe('提');
    const card = result.getByTestId('finding-item').first();
    expect(await card.getAttribute('data-original')).toBe('提');
    expect(await card.getByTestId('finding-suggestion').first().textContent()).toBe('题');
    await mark.click();
    expect(await card.getAttribute('data-selected')).toBe('true');
    const source = card.getByTestId('finding-source');
    const href = await source.getAttribute('href');
    expect(href?.startsWith(`${origin}/news#:~:text=`)).toBe(true);
    expect(decodeURIComponent(href!.split('#:~:text=')[1])).toContain('问提');
    // a page of the web cannot be edited here: nothing to accept or ignore
    expect(await card.getByTestId('finding-accept').count()).toBe(0);
    expect(await card.getByTestId('finding-ignore').count()).toBe(0);
    await tab.screenshot({ path: screenshotPath('link-result.png') });

    const [download] = await Promise.all([tab.waitForEvent('download'), row.getByTestId('link-report').click()]);
    const csv = readFileSync(await savedDownload(download), 'utf8');
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv).toContain(`${origin}/news,工作动态,提,题,`);
  }, 90_000);

  it('a site with its links is crawled as robots.txt allows, page by page', async () => {
    const { page: tab } = browser;
    // another address of the same page, now with the pages it links to
    await tab.getByTestId('link-depth').selectOption('1');
    await tab.getByTestId('link-url').fill(`${origin}/news?all=1`);
    await tab.getByTestId('link-submit').click();
    const row = tab.locator('[data-testid="link-row"]', { hasText: '/news?all=1' });
    await expect
      .poll(() => row.getByTestId('link-status').getAttribute('data-status'), { timeout: 30_000 })
      .toBe('done');
    await row.click();
    const tabs = tab.getByTestId('link-page-tab');
    await expect.poll(() => tabs.count(), { timeout: 10_000 }).toBe(2);
    expect(await row.getByTestId('link-issue-count').textContent()).toBe('2');
    await tab.getByTestId('link-skipped').locator('summary').click();
    await expect
      .poll(() => tab.getByTestId('link-skipped').textContent())
      .toContain('网站的 robots.txt 不允许读取此页');
    await tabs.nth(1).click();
    await expect.poll(() => tab.getByTestId('link-page-text').textContent()).toContain('请大家关注近期需要解决的问提');
  }, 90_000);
});

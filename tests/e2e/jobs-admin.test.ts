// The operators' job queue in Chromium against the real server: a user's website check fails (the site has no text
// yet); an operator sees the failure on /user with its reason, retries it after confirming, and the check finishes
// once the site has text. A user who is not an operator has no such panel, and the server refuses them the queue.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  adminCli,
  dismissGuide,
  logInBrowser,
  openBrowser,
  registerInBrowser,
  screenshotLightAndDark,
  screenshotPath,
  uniquePhone,
  type BrowserSession,
} from './browser';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const PASSWORD = 'secret123';
let operator: BrowserSession;
let user: BrowserSession;
let site: Server;
let origin: string;
/** the site's page has text once this is set */
let ready = false;

const page = (body: string) => `<!doctype html><html><head><title>动态</title></head><body>${body}</body></html>`;

/** The user's call to the API with their token, as the SPA makes it; status and envelope. */
async function asUser(method: 'GET' | 'POST', path: string, body?: object) {
  const token = await user.page.evaluate(() => localStorage.getItem('token'));
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', cid: 'e2e-device', endpoint: '1', authorization: `Bearer ${token}` },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, json: (await res.json()) as { code: number; result: Record<string, unknown> } };
}

async function websiteStatus(id: number): Promise<unknown> {
  const list = (await asUser('GET', '/misscut/website/get_list?num=1&size=50')).json.result.list as Array<{
    id: number;
    status: string;
  }>;
  return list.find((w) => w.id === id)?.status;
}

beforeAll(async () => {
  site = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    if (req.url === '/robots.txt') return res.end('');
    res.end(page(ready ? '<p>请各单位按照要求及时报送材料，确保工作有序开展。</p>' : ''));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  [operator, user] = await Promise.all([openBrowser(), openBrowser()]);
  const operatorPhone = uniquePhone();
  await adminCli(dataDir, 'user', 'create', '--phone', operatorPhone, '--password', PASSWORD, '--role', 'root');
  await logInBrowser(operator.page, baseUrl, operatorPhone, PASSWORD);
  await dismissGuide(operator.page);
  await registerInBrowser(user.page, baseUrl, dataDir, uniquePhone().replace(/^139/, '137'), PASSWORD);
}, 120_000);

afterAll(async () => {
  await Promise.all([operator?.close(), user?.close()]);
  await new Promise((resolve) => site.close(resolve));
});

describe('the job queue in Chromium', () => {
  it('an operator sees a failed job with its reason and retries it; nobody else sees the queue', async () => {
    const added = await asUser('POST', '/misscut/website/add_one', { url: `${origin}/news` });
    const id = added.json.result.id as number;
    expect((await asUser('POST', '/misscut/website/check', { id })).status).toBe(200);
    await expect.poll(() => websiteStatus(id), { timeout: 30_000 }).toBe('failed');

    const { page: tab } = operator;
    await tab.getByTestId('side-bar').getByRole('link', { name: '个人中心' }).click();
    const panel = tab.getByTestId('jobs-admin');
    await panel.waitFor();
    const row = panel.locator('[data-testid^="job-failed-"]').filter({ hasText: `#${id}` });
    await row.waitFor();
    // the reason as the catalogue says it, in the reader's language
    expect(await row.textContent()).toContain('网页中没有可校对的文字');
    await panel.scrollIntoViewIfNeeded();
    await screenshotLightAndDark(tab, 'jobs-admin');
    await tab.setViewportSize({ width: 390, height: 844 });
    await row.scrollIntoViewIfNeeded();
    await tab.screenshot({ path: screenshotPath('jobs-admin-phone.png') });
    await tab.setViewportSize({ width: 1280, height: 800 });

    // dismissing the confirmation retries nothing
    await row.getByRole('button', { name: '重试' }).click();
    const dialog = tab.getByRole('alertdialog');
    await dialog.getByRole('button', { name: '取消' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await websiteStatus(id)).toBe('failed');

    ready = true;
    await row.getByRole('button', { name: '重试' }).click();
    await dialog.getByRole('button', { name: '确认' }).click();
    await row.waitFor({ state: 'detached', timeout: 15_000 });
    await expect.poll(() => websiteStatus(id), { timeout: 30_000 }).toBe('done');

    // not an operator: no panel on /user, and the server refuses the queue
    await user.page.getByTestId('side-bar').getByRole('link', { name: '个人中心' }).click();
    await user.page
      .getByTestId('user-screen')
      .or(user.page.getByRole('heading', { name: '个人中心' }))
      .first()
      .waitFor();
    await user.page.waitForLoadState('networkidle');
    expect(await user.page.getByTestId('jobs-admin').count()).toBe(0);
    expect((await asUser('GET', '/admin/v1/jobs')).status).toBe(403);
  }, 120_000);
});

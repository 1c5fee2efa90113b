// Redemption codes, the download center and the share page in Chromium against the real server:
// a code made by the admin CLI on the server's DATA_DIR is redeemed on /redemption and the balance changes.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrate, openDatabase } from '../../server/db';
import { recordDownload } from '../../server/domain/accounts/downloads';
import {
  openBrowser,
  savedDownload,
  screenshotPath,
  uniquePhone,
  registerInBrowser,
  adminCli,
  type BrowserSession,
} from './browser';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const PASSWORD = 'e2e-coupon-123';
const phone = uniquePhone().replace(/^139/, '136');

let browser: BrowserSession;

const digits = (text: string | null) => Number((text ?? '').replace(/\D/g, ''));

beforeAll(async () => {
  browser = await openBrowser();
  const { page } = browser;
  await registerInBrowser(page, baseUrl, dataDir, phone, PASSWORD);
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe('/redemption', () => {
  it('redeems a code made by the admin CLI and the balance changes, once', async () => {
    const [code] = await adminCli(dataDir, 'coupon', 'create', '--right-type', '1', '--amount', '5000', '--count', '1');
    expect(code).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
    const { page } = browser;
    await page.goto(`${baseUrl}/workbench/redemption`);
    const balance = page.getByTestId('redemption-balance');
    await expect.poll(async () => digits(await balance.textContent()), { timeout: 10_000 }).toBe(20000);

    const input = page.getByRole('form', { name: '兑换码' }).locator('input[name="code"]');
    // typed sloppily: lower case, no dashes
    await input.fill(code.replace(/-/g, '').toLowerCase());
    await page.getByTestId('redeem-submit').click();
    await expect
      .poll(() => page.getByTestId('redemption-success').textContent(), { timeout: 10_000 })
      .toContain('高速校对字数：5,000 字');
    await expect.poll(async () => digits(await balance.textContent()), { timeout: 10_000 }).toBe(25000);
    await page.screenshot({ path: screenshotPath('redemption-light.png') });

    // the same code again: refused with the spec's words, nothing granted
    await input.fill(code);
    await input.press('Enter');
    await expect
      .poll(() => page.getByTestId('redemption-error').textContent(), { timeout: 10_000 })
      .toContain('您已兑换过该兑换码');
    expect(digits(await balance.textContent())).toBe(25000);

    // the workbench's own quota display agrees
    await page.getByRole('link', { name: '返回工作台' }).click();
    await page.getByTestId('home-screen').waitFor();
    await expect
      .poll(async () => digits(await page.getByTestId('quota-remaining').textContent()), { timeout: 10_000 })
      .toBe(25000);
  }, 60_000);

  it('says clearly when a code does not exist or is malformed, in light and dark, in cn and en', async () => {
    const { page } = browser;
    await page.goto(`${baseUrl}/workbench/redemption`);
    const input = page.locator('input[name="code"]');
    await input.fill('ab');
    await page.getByTestId('redeem-submit').click();
    await expect.poll(() => page.getByText('兑换码格式不正确').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await input.fill('AAAA-BBBB-CCCC-DDDD');
    await page.getByTestId('redeem-submit').click();
    await expect
      .poll(() => page.getByTestId('redemption-error').textContent(), { timeout: 10_000 })
      .toContain('兑换码不存在，请检查后重新输入');

    await page.getByTestId('theme-dark').click();
    await expect
      .poll(() => page.evaluate(() => document.documentElement.className), { timeout: 10_000 })
      .toContain('dark');
    const colors = await page.getByTestId('redemption-error').evaluate((el) => {
      const s = getComputedStyle(el);
      return { fg: s.color, bg: s.backgroundColor };
    });
    expect(colors.fg).not.toBe(colors.bg);
    await page.screenshot({ path: screenshotPath('redemption-dark.png') });
    await page.getByTestId('theme-light').click();

    await page.getByTestId('language-switch').selectOption('en');
    await expect.poll(() => page.getByTestId('redeem-submit').textContent(), { timeout: 10_000 }).toBe('Redeem');
    await input.fill('AAAA-BBBB-CCCC-EEEE');
    await page.getByTestId('redeem-submit').click();
    await expect
      .poll(() => page.getByTestId('redemption-error').textContent(), { timeout: 10_000 })
      .toContain('This code does not exist');
    await page.getByTestId('language-switch').selectOption('hk');
    await expect.poll(() => page.getByTestId('redeem-submit').textContent(), { timeout: 10_000 }).toBe('立即兌換');
    await page.getByTestId('language-switch').selectOption('cn');
    await expect.poll(() => page.getByTestId('redeem-submit').textContent(), { timeout: 10_000 }).toBe('立即兑换');
  }, 60_000);
});

describe('/download and /share', () => {
  it('lists a file recorded for the user and downloads the same bytes again', async () => {
    const { db, dialect } = openDatabase({ dataDir });
    try {
      await migrate(db, dialect);
      const user = await db.selectFrom('users').select('uid').where('phone', '=', phone).executeTakeFirstOrThrow();
      await recordDownload(db, dataDir, user.uid, {
        name: '校对结果.txt',
        mime: 'text/plain; charset=utf-8',
        data: '他跑得很快。\n',
      });
    } finally {
      await db.destroy();
    }
    const { page } = browser;
    await page.goto(`${baseUrl}/workbench/download`);
    const row = page.getByTestId('download-row');
    await row.waitFor({ timeout: 15_000 });
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toContain('校对结果.txt');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: /下载/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('校对结果.txt');
    const path = await savedDownload(download);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(path, 'utf8')).toBe('他跑得很快。\n');
    await page.getByTestId('theme-dark').click();
    await expect
      .poll(() => page.evaluate(() => document.documentElement.className), { timeout: 10_000 })
      .toContain('dark');
    await page.screenshot({ path: screenshotPath('downloads-dark.png') });
    await page.goto(`${baseUrl}/workbench/user`);
    await page.getByTestId('api-key-card').waitFor();
    await page.getByTestId('wechat-card').waitFor();
    await page.screenshot({ path: screenshotPath('user-dark.png'), fullPage: true });
    await page.getByTestId('theme-light').click();
  }, 60_000);

  it('grants the speed-up bonus for the first share of the day', async () => {
    const { page } = browser;
    await page.goto(`${baseUrl}/workbench/share`);
    await expect.poll(() => page.getByTestId('share-today').textContent(), { timeout: 10_000 }).toBe('今日奖励可领取');
    await page.getByTestId('share-link').click();
    await expect.poll(() => page.getByTestId('share-today').textContent(), { timeout: 10_000 }).toBe('今日奖励已领取');
    await page.screenshot({ path: screenshotPath('share-light.png') });
    await page.goto(`${baseUrl}/workbench/`);
    await expect
      .poll(async () => digits(await page.getByTestId('quota-remaining').textContent()), { timeout: 10_000 })
      .toBe(30000);
  }, 60_000);
});

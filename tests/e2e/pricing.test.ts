// Pricing and My rights in Chromium against the real server. The e2e server has no WXPAY_*
// variables: the pricing page lists the server's products and says payment is not configured; an order is
// confirmed with the real admin CLI on the server's DATA_DIR, the open payment dialog sees it paid by polling,
// and My rights shows the new balance, the history and the order.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, screenshotPath, uniquePhone, registerInBrowser, adminCli, type BrowserSession } from './browser';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const PASSWORD = 'e2e-pricing-123';
const phone = uniquePhone().replace(/^139/, '136');

let browser: BrowserSession;

beforeAll(async () => {
  browser = await openBrowser();
  const { page } = browser;
  await registerInBrowser(page, baseUrl, dataDir, phone, PASSWORD);
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

const amountOf = (page: BrowserSession['page'], type: number) =>
  page.locator(`[data-testid="right-balance"][data-type="${type}"] [data-testid="right-amount"]`).textContent();

describe('pricing and My rights in Chromium', () => {
  it("shows the new account's balances, its history and no orders yet", async () => {
    const { page } = browser;
    await page.goto(`${baseUrl}/workbench/right`);
    await page.getByTestId('right-screen').waitFor();
    await expect.poll(() => amountOf(page, 1)).toBe('20,000 字');
    expect(
      await page.locator('[data-testid="right-balance"][data-type="1"] [data-testid="right-title"]').textContent(),
    ).toBe('高速校对字数');
    expect(await amountOf(page, 4096)).toBe('5 次');
    expect(await amountOf(page, 8192)).toBe('0 字');
    expect(await page.getByTestId('right-plan').textContent()).toBe('免费版');
    // the default grants are the history (high-speed characters among them); no orders
    await page.getByTestId('right-record').first().waitFor();
    const history = await page.getByTestId('right-record').allTextContents();
    expect(history.length).toBeGreaterThanOrEqual(2);
    for (const row of history) expect(row).toContain('默认权益');
    expect(history.some((row) => row.includes('高速校对字数') && row.includes('+20,000 字'))).toBe(true);
    await page.getByTestId('right-orders-empty').waitFor();
  });

  it(
    "/pricing redirects to the pricing page, which lists the server's products and " + 'says payment is not configured',
    async () => {
      const { page } = browser;
      await page.goto(`${baseUrl}/workbench/pricing`);
      await page.waitForURL(`${baseUrl}/workbench/upgrade`);
      await page.getByTestId('upgrade-screen').waitFor();
      await page.getByTestId('pay-not-configured').waitFor();
      expect(await page.getByTestId('pay-not-configured').textContent()).toContain('在线支付尚未配置');
      await expect.poll(() => page.getByTestId('product-card').count()).toBe(6);
      const yearly = page.locator('[data-testid="product-card"][data-code="personal_yearly"]');
      expect(await yearly.getByTestId('product-name').textContent()).toBe('个人专业版（年付）');
      expect(await yearly.getByTestId('product-price').textContent()).toBe('¥299.00');
      expect(await yearly.textContent()).toContain('推荐');
      expect(await page.locator('[data-testid="product-card"][data-code="words_1m"]').textContent()).toContain(
        '高速校对字数: 1,000,000 字',
      );
      await page.screenshot({ path: screenshotPath('pricing-light.png'), fullPage: true });
      await page.getByTestId('theme-dark').click();
      await expect.poll(() => page.evaluate(() => document.documentElement.className)).toContain('dark');
      // the cards stay readable on the dark page: light text on a dark panel
      const colors = await page
        .locator('[data-testid="product-card"]')
        .first()
        .evaluate((el) => {
          const style = getComputedStyle(el);
          const name = getComputedStyle(el.querySelector('[data-testid="product-name"]')!);
          return { bg: style.backgroundColor, fg: name.color };
        });
      const lum = (c: string) => {
        const [r, g, b] = c.match(/\d+(\.\d+)?/g)!.map(Number);
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      expect(lum(colors.fg) - lum(colors.bg)).toBeGreaterThan(100);
      await page.screenshot({ path: screenshotPath('pricing-dark.png'), fullPage: true });
      await page.getByTestId('theme-light').click();
    },
  );

  it(
    'buys without payment configured: the order waits, the admin CLI confirms it, ' + 'the rights arrive once',
    async () => {
      const { page } = browser;
      await page.locator('[data-testid="product-card"][data-code="words_1m"]').getByTestId('product-buy').click();
      await page.getByTestId('payment-unconfigured').waitFor();
      // no QR code without configuration
      expect(await page.getByTestId('payment-qr').count()).toBe(0);
      const orderNo = (await page.getByTestId('payment-order-no').textContent())!.trim();
      expect(orderNo).toMatch(/^WB\d{14}[0-9a-f]{12}$/);
      const cli = async () => (await adminCli(dataDir, 'order', 'paid', orderNo)).join('\n');
      expect(await cli()).toContain(`order ${orderNo} paid`);
      expect(await cli()).toContain('was already paid');
      // the dialog polls the order
      await page.getByTestId('payment-paid').waitFor({ timeout: 15_000 });
      await page.getByRole('link', { name: '查看我的权益' }).click();
      await page.waitForURL(`${baseUrl}/workbench/right`);
      await expect.poll(() => amountOf(page, 1)).toBe('1,020,000 字');
      await expect.poll(() => page.getByTestId('right-order').count()).toBe(1);
      expect(await page.getByTestId('right-order').getAttribute('data-status')).toBe('paid');
      expect(await page.getByTestId('right-order').textContent()).toContain(orderNo);
      expect(await page.getByTestId('right-record-num').first().textContent()).toBe('+1,000,000 字');
      await page.screenshot({ path: screenshotPath('right-light.png'), fullPage: true });
    },
    60_000,
  );

  it('speaks English and Traditional Chinese', async () => {
    const { page } = browser;
    await page.getByTestId('language-switch').selectOption('en');
    await expect
      .poll(() =>
        page.locator('[data-testid="right-balance"][data-type="1"] [data-testid="right-title"]').textContent(),
      )
      .toBe('High-speed characters');
    expect(await amountOf(page, 1)).toBe('1,020,000 characters');
    expect(await page.getByTestId('right-order').textContent()).toContain('Paid');
    await page.getByTestId('language-switch').selectOption('hk');
    await expect
      .poll(() =>
        page.locator('[data-testid="right-balance"][data-type="1"] [data-testid="right-title"]').textContent(),
      )
      .toBe('高速校對字數');
    await page.goto(`${baseUrl}/workbench/upgrade`);
    await page.getByTestId('pay-not-configured').waitFor();
    expect(await page.getByTestId('pay-not-configured').textContent()).toContain('線上支付尚未設定');
    await page.getByTestId('language-switch').selectOption('cn');
  });
});

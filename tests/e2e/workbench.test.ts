import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, screenshotPath, uniquePhone, waitForSmsCode, type BrowserSession } from './browser';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const PASSWORD = 'e2e-pass-123';

let browser: BrowserSession;
const phone = uniquePhone();

beforeAll(async () => {
  browser = await openBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** Toasts cover the header; close them before a screenshot. */
async function closeToasts(page: BrowserSession['page']) {
  const close = page.getByTestId('toast').getByRole('button', { name: '关闭' });
  for (let i = await close.count(); i > 0; i--)
    await close
      .first()
      .click({ timeout: 1000 })
      .catch(() => undefined);
  // A toast that was already leaving goes by itself (5 s at most).
  await page.getByTestId('toast').first().waitFor({ state: 'detached', timeout: 8000 });
}

async function logIn(page: BrowserSession['page'], password = PASSWORD) {
  const form = page.getByRole('form', { name: '登录' });
  await form.locator('input[name="phone"]').fill(phone);
  await form.locator('input[name="password"]').fill(password);
  await form.getByRole('button', { name: '登录' }).click();
  await page.waitForURL(`${baseUrl}/workbench/`);
  await page.getByTestId('side-bar').waitFor();
}

describe('the workbench in Chromium', () => {
  it('registers a new account with an SMS code and lands on the workbench', async () => {
    const { page } = browser;
    await page.goto(`${baseUrl}/workbench/`);
    // Not logged in: the app sends the visitor to the login page.
    await page.waitForURL(`${baseUrl}/workbench/login`);
    await page.getByRole('form', { name: '登录' }).waitFor();
    await page.screenshot({ path: screenshotPath('login-light.png') });
    await page.getByRole('tab', { name: '注册' }).click();
    const form = page.getByRole('form', { name: '注册' });
    await form.locator('input[name="phone"]').fill(phone);
    await form.getByRole('button', { name: '发送验证码' }).click();
    await form.getByRole('button', { name: /秒后重发/ }).waitFor();
    const code = await waitForSmsCode(dataDir, phone, 'register');
    await form.locator('input[name="code"]').fill(code);
    await form.locator('input[name="password"]').fill(PASSWORD);
    await form.locator('input[name="confirm"]').fill(PASSWORD);
    await form.getByRole('button', { name: '注册并登录' }).click();

    await page.waitForURL(`${baseUrl}/workbench/`);
    await page.getByTestId('side-bar').waitFor();
    await page.getByTestId('toast').filter({ hasText: '登录成功' }).first().waitFor();
    expect(await page.getByTestId('page-title').textContent()).toBe('文本校对');

    // the guide opens for the new account: arrow keys go back and forth, the last step finishes it
    const guide = page.getByTestId('guide-dialog');
    await guide.waitFor({ timeout: 20_000 });
    expect(await guide.getAttribute('data-slide')).toBe('setup');
    const picture = guide.getByTestId('guide-image');
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1280);
    expect(await picture.getAttribute('src')).toMatch(/\/workbench\/guide\/setup-(light|dark)\.jpg$/);
    await page.screenshot({ path: screenshotPath('guide-light.png') });
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => guide.getAttribute('data-slide')).toBe('text');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => guide.getAttribute('data-slide')).toBe('setup');
    for (const next of ['text', 'link', 'ai', 'pdf']) {
      await guide.getByTestId('guide-next').click();
      await expect.poll(() => guide.getAttribute('data-slide')).toBe(next);
    }
    expect(await guide.getByTestId('guide-next').textContent()).toBe('完成');
    await guide.getByTestId('guide-next').click();
    await guide.waitFor({ state: 'detached' });
  });

  it('shows the real account on /user', async () => {
    const { page } = browser;
    await page.getByTestId('side-bar').getByRole('link', { name: '个人中心' }).click();
    await page.waitForURL(`${baseUrl}/workbench/user`);
    const info = page.getByTestId('user-info');
    await expect.poll(() => info.textContent()).toContain(phone);
    expect(await page.getByTestId('user-role').textContent()).toBe('免费用户');
    // The avatar is the image from GET /user/portrait (fetched with the token, shown from a blob URL).
    await page.locator('main img[src^="blob:"]').first().waitFor({ state: 'visible' });
    await closeToasts(page);
    await page.screenshot({ path: screenshotPath('user-light.png'), fullPage: true });
  });

  it('switches between light and dark with the bottom-right buttons', async () => {
    const { page } = browser;
    await page.getByTestId('side-bar').getByRole('link', { name: '文本校对' }).click();
    await page.waitForURL(`${baseUrl}/workbench/`);
    await page.getByTestId('home-screen').waitFor();
    await page.mouse.move(0, 0);
    await closeToasts(page);

    await page.getByTestId('theme-light').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.className)).toContain('light');
    const lightBg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.screenshot({ path: screenshotPath('home-light.png') });

    await page.getByTestId('theme-dark').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.className)).toContain('dark');
    const darkBg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(darkBg).not.toBe(lightBg);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    await page.screenshot({ path: screenshotPath('home-dark.png') });

    // The choice survives a reload; the guide, finished, does not come back.
    const shown = page.waitForResponse((r) => r.url().includes('/wizard/v1/show'));
    await page.reload();
    await page.getByTestId('side-bar').waitFor();
    expect(await page.evaluate(() => document.documentElement.className)).toContain('dark');
    expect((await (await shown).json()).result.show).toBe(false);
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('guide-dialog').count()).toBe(0);
    await page.getByTestId('theme-light').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.className)).toContain('light');
  });

  it('switches the interface language', async () => {
    const { page } = browser;
    const select = page.getByTestId('language-switch');
    await select.selectOption('en');
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Text proofreading');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await select.selectOption('hk');
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('文本校對');
    await select.selectOption('cn');
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('文本校对');
  });

  it('logs out through the user menu and lands on /login', async () => {
    const { page } = browser;
    await page.getByTestId('user-menu').click();
    await page.getByTestId('logout').click();
    await page.getByRole('alertdialog').getByRole('button', { name: '确认' }).click();
    await page.waitForURL(`${baseUrl}/workbench/login`);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  it('says so when the password is wrong, and stays on /login', async () => {
    const { page } = browser;
    const form = page.getByRole('form', { name: '登录' });
    await form.locator('input[name="phone"]').fill(phone);
    await form.locator('input[name="password"]').fill('not-the-password');
    await form.getByRole('button', { name: '登录' }).click();
    // Inline under the form (the toast says it too); not the expired-login message.
    await form.getByText(/手机号或密码错误/).waitFor();
    expect(page.url()).toBe(`${baseUrl}/workbench/login`);
    expect(await page.getByText('登录已失效，请重新登录').count()).toBe(0);
  });

  it('goes back to /login with the 401 message when the token is revoked', async () => {
    const { page } = browser;
    await logIn(page);
    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect(token).toBeTruthy();
    // Every toast the page shows is noted as it appears: the 401 notice lasts 5 s, which a test process starved
    // of CPU beside the other test files could otherwise poll past.
    await page.evaluate(() => {
      const seen: string[] = [];
      Object.assign(window, { toastsSeen: seen });
      new MutationObserver(() => {
        for (const t of document.querySelectorAll('[data-testid="toast"]'))
          if (t.textContent && !seen.includes(t.textContent)) seen.push(t.textContent);
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    });
    // Revoke the token server-side, as another tab or an administrator would.
    const revoked = await fetch(`${baseUrl}/user/logout`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(revoked.status).toBe(200);

    // The server also closes the realtime socket with 4401, which may log the page out first;
    // otherwise the next call (navigating to /user loads the user info) answers 401.
    const link = page.getByTestId('side-bar').getByRole('link', { name: '个人中心' });
    if (await link.isVisible()) await link.click({ timeout: 2000 }).catch(() => undefined);
    await page.waitForURL(`${baseUrl}/workbench/login`);
    await expect
      .poll(() => page.evaluate(() => (window as Window & { toastsSeen?: string[] }).toastsSeen?.join('\n')))
      .toContain('登录已失效，请重新登录');
    await page.getByRole('form', { name: '登录' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  it('loads the SPA from a deep link', async () => {
    const { page } = browser;
    await logIn(page);
    await page.goto(`${baseUrl}/workbench/dictionary`);
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('我的词库');
    const current = page.getByTestId('side-bar').locator('[aria-current="page"]');
    expect(await current.textContent()).toContain('我的词库');
    await page.getByTestId('dictionary-screen').waitFor();
    await page.goto(`${baseUrl}/workbench/ai`);
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('AI 写作');
    await page.getByTestId('ai-screen').waitFor();
  });
});

// Announcements in Chromium against the real server: an operator publishes a popup on /user; a user who is on the
// workbench sees it at once (over the socket) and acknowledges it; a user who was logged out sees it at their next
// login. Three browser contexts, one per person.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  adminCli,
  dismissGuide,
  logInBrowser,
  openBrowser,
  registerInBrowser,
  screenshotPath,
  uniquePhone,
  type BrowserSession,
} from './browser';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const PASSWORD = 'secret123';
const TEXT = '今晚 22:00 至 23:00 系统升级维护，期间暂停服务，请提前保存文档。';
let operator: BrowserSession;
let online: BrowserSession;
let away: BrowserSession;
const awayPhone = uniquePhone();

const logIn = (page: BrowserSession['page'], phone: string) => logInBrowser(page, baseUrl, phone, PASSWORD);

beforeAll(async () => {
  [operator, online, away] = await Promise.all([openBrowser(), openBrowser(), openBrowser()]);
  const operatorPhone = uniquePhone();
  await adminCli(dataDir, 'user', 'create', '--phone', operatorPhone, '--password', PASSWORD, '--role', 'root');
  await logIn(operator.page, operatorPhone);
  await dismissGuide(operator.page);
  const onlinePhone = uniquePhone();
  await registerInBrowser(online.page, baseUrl, dataDir, onlinePhone, PASSWORD);
  await registerInBrowser(away.page, baseUrl, dataDir, awayPhone, PASSWORD);
  // the announcement goes to the account role user, which only these two have: the other browser test files share
  // this server, and a popup for everyone would cover their pages
  for (const phone of [onlinePhone, awayPhone])
    await adminCli(dataDir, 'user', 'role', '--phone', phone, '--role', 'user');
  // the second user leaves before the announcement
  await away.page.getByTestId('user-menu').click();
  await away.page.getByTestId('logout').click();
  await away.page.getByRole('alertdialog').getByRole('button', { name: '确认' }).click();
  await away.page.waitForURL(`${baseUrl}/workbench/login`);
}, 120_000);
afterAll(async () => {
  await Promise.all([operator?.close(), online?.close(), away?.close()]);
});

describe('announcements in Chromium', () => {
  it('a popup published on /user reaches a connected user live and a logged-out one at the next login', async () => {
    const { page } = operator;
    await page.getByTestId('side-bar').getByRole('link', { name: '个人中心' }).click();
    const panel = page.getByTestId('announcements-admin');
    await panel.waitFor();
    await panel.getByTestId('announcement-type').selectOption('2');
    await panel.getByTestId('announcement-mode').selectOption('1');
    await panel.getByTestId('announcement-audience').selectOption('role');
    await panel.getByRole('combobox', { name: '角色' }).selectOption('user');
    await panel.getByTestId('announcement-text').fill(TEXT);
    await panel.getByTestId('announcement-publish').click();
    await panel.getByTestId('announcement-row').filter({ hasText: TEXT }).waitFor();

    // live, on whatever screen the user is
    const popup = online.page.getByTestId('notice-popup');
    await popup.waitFor({ timeout: 15_000 });
    expect(await popup.getByRole('heading').textContent()).toBe('系统维护通知');
    expect(await popup.getByTestId('notice-popup-text').textContent()).toBe(TEXT);
    // the popup covers the theme buttons: the dark picture is of the same popup after a reload (it stays until read)
    await online.page.screenshot({ path: screenshotPath('notice-popup-light.png') });
    await online.page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await online.page.reload();
    await popup.waitFor({ timeout: 15_000 });
    expect(await online.page.evaluate(() => document.documentElement.className)).toContain('dark');
    await online.page.screenshot({ path: screenshotPath('notice-popup-dark.png') });
    await online.page.evaluate(() => localStorage.setItem('theme', 'light'));
    // Esc does not dismiss it; 知道了 does, for good
    await online.page.keyboard.press('Escape');
    expect(await popup.count()).toBe(1);
    await popup.getByTestId('notice-popup-ok').click();
    await popup.waitFor({ state: 'detached' });
    await online.page.reload();
    await online.page.getByTestId('side-bar').waitFor();
    await online.page.getByTestId('notice-bell').waitFor();
    await online.page.waitForLoadState('networkidle');
    expect(await online.page.getByTestId('notice-popup').count()).toBe(0);

    // at the next login
    await logIn(away.page, awayPhone);
    const later = away.page.getByTestId('notice-popup');
    await later.waitFor({ timeout: 15_000 });
    expect(await later.getByTestId('notice-popup-text').textContent()).toBe(TEXT);
    await later.getByTestId('notice-popup-ok').click();
    await later.waitFor({ state: 'detached' });

    // the operator sees whom it reached and who read it (not the operator: the role user only)
    await page.reload();
    const row = page.getByTestId('announcement-row').filter({ hasText: TEXT });
    await expect.poll(() => row.textContent()).toMatch(/2 \/ 2/);
    expect(await page.getByTestId('notice-popup').count()).toBe(0);
  }, 90_000);
});

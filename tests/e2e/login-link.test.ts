// Login links (`/workbench/?token=…`, spec §2) in Chromium against the real server: a signed-out browser signs in
// with the link's account; signed in, a link with the same token changes nothing, and one with another account's
// token asks first in a dialog naming both accounts: cancel keeps the account, confirm switches to the link's.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dismissGuide, openBrowser, uniquePhone, waitForSmsCode, type BrowserSession } from './browser';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');

/** A new account through the API (its SMS code from the console provider's outbox); its session token. */
async function newAccount(phone: string, name: string): Promise<string> {
  const post = async (path: string, body: object) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cid: 'e2e-device', endpoint: '1' },
      body: JSON.stringify(body),
    });
    const envelope = (await res.json()) as { code: number; msg?: string; result: { token: string } };
    if (envelope.code !== 200) throw new Error(`${path}: ${res.status} ${envelope.msg ?? ''}`);
    return envelope.result;
  };
  await post('/user/sms_code', { phone, purpose: 'register' });
  const code = await waitForSmsCode(dataDir, phone, 'register');
  return (await post('/user/register', { phone, code, password: 'e2e-link-123', name })).token;
}

let browser: BrowserSession;
let alice: string;
let bob: string;
beforeAll(async () => {
  // one after the other: the phones are made from the clock
  alice = await newAccount(uniquePhone(), '甲');
  bob = await newAccount(uniquePhone(), '乙');
  browser = await openBrowser();
}, 60_000);
afterAll(async () => browser?.close());

describe('login links in Chromium', () => {
  it('sign a signed-out browser in, change nothing for the same token, and ask before switching', async () => {
    const { page } = browser;
    const storedToken = () => page.evaluate(() => localStorage.getItem('token'));
    const open = async (token: string) => {
      await page.goto(`${baseUrl}/workbench/?token=${encodeURIComponent(token)}`);
      await page.getByTestId('home-screen').waitFor();
      // the token leaves the address at once
      expect(new URL(page.url()).searchParams.has('token')).toBe(false);
    };
    const signedInToast = page.getByTestId('toast').filter({ hasText: '登录成功' });

    // signed out: the link signs in
    await open(alice);
    await signedInToast.first().waitFor();
    await dismissGuide(page);
    expect(await storedToken()).toBe(alice);
    await expect.poll(() => page.getByTestId('user-menu').textContent()).toContain('甲');

    // the same token: no dialog, no second 登录成功, still signed in as 甲
    await open(alice);
    await page.waitForTimeout(1500);
    expect(await signedInToast.count()).toBe(0);
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    expect(await storedToken()).toBe(alice);

    // another account's token: a dialog naming both; cancel keeps 甲
    await open(bob);
    let dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('切换账号？');
    expect(await dialog.getByTestId('account-switch').textContent()).toBe('当前：甲，链接中的账号：乙');
    await dialog.getByRole('button', { name: '取消' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await storedToken()).toBe(alice);
    expect(await page.getByTestId('user-menu').textContent()).toContain('甲');
    expect(await signedInToast.count()).toBe(0);

    // again, and confirmed: signed in as 乙
    await open(bob);
    dialog = page.getByRole('alertdialog');
    await dialog.getByTestId('account-switch').waitFor();
    await dialog.getByRole('button', { name: '确认' }).click();
    await signedInToast.first().waitFor();
    await dismissGuide(page);
    expect(await storedToken()).toBe(bob);
    await expect.poll(() => page.getByTestId('user-menu').textContent()).toContain('乙');
  });
});

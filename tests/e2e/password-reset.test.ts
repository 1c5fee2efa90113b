// A forgotten password in Chromium against the real server: from the login page's 忘记密码, a reset code read from
// the console SMS provider's outbox, the new password twice (submitted with Enter), back on the login form with the
// phone filled in, and a login with the new password.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dismissGuide, openBrowser, uniquePhone, waitForSmsCode, type BrowserSession } from './browser';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');

async function post(path: string, body: object): Promise<{ code: number; msg?: string }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cid: 'e2e-device', endpoint: '1' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { code: number; msg?: string };
}

let browser: BrowserSession;
const phone = uniquePhone();
beforeAll(async () => {
  expect((await post('/user/sms_code', { phone, purpose: 'register' })).code).toBe(200);
  const code = await waitForSmsCode(dataDir, phone, 'register');
  expect((await post('/user/register', { phone, code, password: 'old-secret-1' })).code).toBe(200);
  browser = await openBrowser();
}, 60_000);
afterAll(async () => browser?.close());

describe('forgotten password in Chromium', () => {
  it('resets the password with an SMS code and logs in with the new one', async () => {
    const { page } = browser;
    await page.goto(`${baseUrl}/workbench/login`);
    await page.getByTestId('forgot-password').click();
    const form = page.getByTestId('password-reset');
    await form.waitFor();
    // the phone field has the focus: typed, not clicked
    await page.keyboard.type(phone);
    await form.getByTestId('reset-send-code').click();
    await form.getByText('验证码已发送，请查收短信').waitFor();
    const code = await waitForSmsCode(dataDir, phone, 'reset');
    await form.locator('input[name="code"]').fill(code);
    await form.locator('input[name="new-password"]').fill('new-secret-2');
    await form.locator('input[name="confirm"]').fill('new-secret-2');
    await page.keyboard.press('Enter');

    const login = page.getByRole('form', { name: '登录' });
    await page.getByTestId('password-reset-done').waitFor();
    expect(await login.locator('input[name="phone"]').inputValue()).toBe(phone);
    // the old password no longer works
    await login.locator('input[name="password"]').fill('old-secret-1');
    await login.locator('input[name="password"]').press('Enter');
    await login.getByRole('alert').waitFor();
    await login.locator('input[name="password"]').fill('new-secret-2');
    await login.locator('input[name="password"]').press('Enter');
    await page.getByTestId('home-screen').waitFor();
    await dismissGuide(page);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
  }, 90_000);
});

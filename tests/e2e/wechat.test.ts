// WeChat login in Chromium against the real server and a local fake of WeChat Open Platform (started by the
// browser tests' global setup; WeChat is an outside service): a user binds WeChat on /user (back with 操作成功),
// logs out, and logs in again by WeChat, landing on / with a one-time code the page exchanges for the session: no
// token is ever in an address.
import { describe, expect, inject, it } from 'vitest';
import { useNewUser } from './browser';

const baseUrl = inject('baseUrl');
const user = useNewUser();

describe('WeChat login in Chromium', () => {
  it('binds WeChat on /user, then logs in with it and lands on /', async () => {
    const { page } = user.session;
    await page.goto(`${baseUrl}/workbench/user`);
    await page.getByTestId('wechat-bind').click();
    // through the fake WeChat page and back, with the spec's status 1
    await page.waitForURL(`${baseUrl}/workbench/user`, { timeout: 15_000 });
    await page.getByText('操作成功').first().waitFor();

    // (a login by token goes back to the last screen: the home screen here)
    await page.getByTestId('side-bar').getByRole('link', { name: '文本校对' }).click();
    await page.getByTestId('home-screen').waitFor();
    await page.getByTestId('user-menu').click();
    await page.getByTestId('logout').click();
    await page.getByRole('alertdialog').getByRole('button', { name: '确认' }).click();
    await page.waitForURL(`${baseUrl}/workbench/login`);
    const addresses: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) addresses.push(frame.url());
    });
    await page.getByTestId('wechat-login').click();
    await page.getByText('登录成功').first().waitFor({ timeout: 15_000 });
    await page.getByTestId('home-screen').waitFor();
    expect(page.url()).toBe(`${baseUrl}/workbench/`);
    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect(token).toBeTruthy();
    // the page landed with the one-time code, which is gone from the address; no address held the token
    const landed = addresses.map((a) => new URL(a)).find((a) => a.searchParams.has('wechat_code'));
    expect(landed?.pathname).toBe('/workbench/');
    expect(addresses.filter((a) => a.includes('token=') || a.includes(token!))).toEqual([]);
    // the code was used up by the page
    const again = await fetch(`${baseUrl}/user/wechat/exchange`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cid: 'e2e-device', endpoint: '1' },
      body: JSON.stringify({ code: landed!.searchParams.get('wechat_code') }),
    });
    expect(((await again.json()) as { msg_code?: string }).msg_code).toBe('wechat.code_invalid');
  });
});

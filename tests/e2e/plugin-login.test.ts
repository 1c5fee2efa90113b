// The browser plugin's login page (spec §2 route query type=chrome-login) in Chromium against the real server:
// signed in, the page says the plugin can be used and goes to /; signed out, it goes to /login.
import { describe, expect, inject, it } from 'vitest';
import { useNewUser } from './browser';

const baseUrl = inject('baseUrl');
const user = useNewUser();

describe('the browser plugin login (type=chrome-login)', () => {
  it('signed in: says the plugin is ready and lands on /, the query gone', async () => {
    const { page } = user.session;
    await page.goto(`${baseUrl}/workbench/?type=chrome-login`);
    await page.getByText('登录成功，接下来可以畅通无阻的使用插件啦').waitFor({ timeout: 15_000 });
    await expect.poll(() => page.url()).toBe(`${baseUrl}/workbench/`);
    await page.getByTestId('home-screen').waitFor();
  });

  it('signed out: goes to /login', async () => {
    const { page } = user.session;
    await page.getByTestId('user-menu').click();
    await page.getByTestId('logout').click();
    await page.getByRole('alertdialog').getByRole('button', { name: '确认' }).click();
    await page.waitForURL(`${baseUrl}/workbench/login`);
    await page.goto(`${baseUrl}/workbench/?type=chrome-login`);
    await page.waitForURL(`${baseUrl}/workbench/login`);
    await page.getByRole('form', { name: '登录' }).waitFor();
  });
});

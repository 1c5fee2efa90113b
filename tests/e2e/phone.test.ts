// The workbench on a phone (390×844): every screen signed in, nothing wider than the viewport except inside a box
// that scrolls sideways, and the side bar as a drawer opened from the header's menu button.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminCli, openBrowser, registerInBrowser, screenshotPath, uniquePhone, type BrowserSession } from './browser';
import { SIGNED_IN_PATHS, visit } from './screens';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const PHONE = { width: 390, height: 844 };

interface Overflow {
  scrollWidth: number;
  /** Visible elements whose right edge is beyond the viewport, outside any box that scrolls sideways. */
  sticking: string[];
  /** Tables wider than the screen: their right part (a member's role, a row's actions) needs a sideways scroll. */
  hidden: string[];
}

/** What sticks out of the viewport on the right. */
function overflowOf(page: Page): Promise<Overflow> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const scrollsSideways = (el: Element) => {
      const style = getComputedStyle(el);
      return (style.overflowX === 'auto' || style.overflowX === 'scroll') && el.clientWidth < width;
    };
    const clipped = (el: Element) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        if (scrollsSideways(p)) return true;
        const style = getComputedStyle(p);
        // a box that hides what overflows it, within the viewport, keeps its content inside too
        if (style.overflowX === 'hidden' || style.overflowX === 'clip')
          if (p.getBoundingClientRect().right <= width + 1) return true;
      }
      return false;
    };
    const sticking: string[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0 || rect.right <= width + 1) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.position === 'fixed') continue;
      if (clipped(el)) continue;
      const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}`;
      const testId = el.getAttribute('data-testid');
      const text = (el.textContent ?? '').trim().slice(0, 30);
      sticking.push(`${name}${testId ? `[${testId}]` : ''} right=${Math.round(rect.right)} "${text}"`);
    }
    const hidden: string[] = [];
    for (const table of document.body.querySelectorAll('table')) {
      const rect = table.getBoundingClientRect();
      if (rect.width > width + 1 && table.checkVisibility())
        hidden.push(
          `${table.getAttribute('aria-label') ?? table.getAttribute('data-testid') ?? 'table'} ${rect.width}`,
        );
    }
    return { scrollWidth: document.documentElement.scrollWidth, sticking: sticking.slice(0, 8), hidden };
  });
}

describe('phone layout (390×844)', () => {
  let session: BrowserSession;
  beforeAll(async () => {
    session = await openBrowser();
    await session.page.setViewportSize(PHONE);
    const phone = uniquePhone().replace(/^139/, '134');
    await registerInBrowser(session.page, baseUrl, dataDir, phone, 'phone-pass-1');
    // the root of a team: /team shows its tabs and the member table, the widest screen of the workbench
    const [created] = await adminCli(
      dataDir,
      'team',
      'create',
      '--name',
      `手机排版编辑部${phone.slice(-4)}`,
      '--admin',
      phone,
    );
    const team = /created team (\d+)/.exec(created)?.[1] ?? '';
    // tables with rows, long ones: a member with a long name, dictionary words, a document with a long name
    const member = phone.replace(/^134/, '133');
    const long = '国家新闻出版署出版物质量检查专项工作组特邀审读专家';
    await adminCli(dataDir, 'user', 'create', '--phone', member, '--password', 'member-pass-1', '--name', long);
    await adminCli(dataDir, 'team', 'add-member', '--team', team, '--phone', member, '--role', 'user');
    await session.page.evaluate(async (name) => {
      const headers = { Authorization: `Bearer ${localStorage.getItem('token')}`, cid: 'e2e-phone', endpoint: '1' };
      for (const [word, correct] of [
        ['帐号', '账号'],
        ['中华人民共和国国家标准出版物上数字用法的规定', '出版物上数字用法'],
      ]) {
        const res = await fetch('/dict/v1/add_one', {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ word, type: 5, correct }),
        });
        if (!res.ok) throw new Error(`dictionary word: ${res.status}`);
      }
      const form = new FormData();
      form.append('file', new File(['这是一份用来检查手机排版的文档。'], `${name}（第三次修订稿）.txt`));
      const res = await fetch('/misscut/document/v1/upload', { method: 'POST', headers, body: form });
      if (!res.ok) throw new Error(`document: ${res.status}`);
    }, long);
    await session.page.reload();
    await session.page.getByTestId('home-screen').waitFor();
  }, 60_000);

  it('sees an element wider than the viewport (the check below can fail)', async () => {
    const { page } = session;
    await page.evaluate(() => {
      const wide = document.createElement('div');
      wide.id = 'too-wide';
      wide.style.width = '600px';
      wide.style.height = '10px';
      // and a wide table in a box that scrolls sideways: inside the viewport, but half of it out of sight
      const box = document.createElement('div');
      box.id = 'scrolling-box';
      box.style.overflowX = 'auto';
      const table = document.createElement('table');
      table.setAttribute('aria-label', 'too-wide-table');
      table.style.width = '700px';
      table.innerHTML = '<tr><td>a</td><td>b</td></tr>';
      box.append(table);
      document.querySelector('main')?.append(wide, box);
    });
    const overflow = await overflowOf(page);
    await page.evaluate(() => ['too-wide', 'scrolling-box'].forEach((id) => document.getElementById(id)?.remove()));
    expect(overflow.sticking.some((s) => s.startsWith('div#too-wide'))).toBe(true);
    expect(overflow.sticking.some((s) => s.includes('scrolling-box'))).toBe(false);
    expect(overflow.hidden).toEqual(['too-wide-table 700']);
  });
  afterAll(async () => session?.close());

  it('lays every screen out within the viewport', async () => {
    const { page } = session;
    const found: Record<string, Overflow> = {};
    for (const path of SIGNED_IN_PATHS) {
      await visit(page, path);
      const overflow = await overflowOf(page);
      if (overflow.scrollWidth > PHONE.width || overflow.sticking.length || overflow.hidden.length)
        found[path] = overflow;
      const name = path === '/' ? 'home' : path.slice(1);
      await page.screenshot({ path: screenshotPath(`phone-${name}.png`), fullPage: true });
    }
    expect(found).toEqual({});
  });

  it('opens the side bar as a drawer from the menu button and navigates', async () => {
    const { page } = session;
    await visit(page, '/');
    // the side bar itself is not on the page's side: it would take a fifth of the screen
    await expect.poll(() => page.getByTestId('side-bar').isVisible()).toBe(false);
    await page.getByTestId('nav-menu-button').click();
    const drawer = page.getByTestId('nav-drawer');
    await drawer.waitFor();
    // the screenshot shows the drawer when it has slid in
    await drawer.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
    await page.screenshot({ path: screenshotPath('phone-drawer.png') });
    await drawer.getByRole('link', { name: '我的词库' }).click();
    await page.waitForURL(`${baseUrl}/workbench/dictionary`);
    await drawer.waitFor({ state: 'detached' });
    expect(await page.getByTestId('page-title').textContent()).toBe('我的词库');
  });
});

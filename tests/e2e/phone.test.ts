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
    return { scrollWidth: document.documentElement.scrollWidth, sticking: sticking.slice(0, 8) };
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
    await adminCli(dataDir, 'team', 'create', '--name', `手机排版编辑部${phone.slice(-4)}`, '--admin', phone);
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
      document.querySelector('main')?.append(wide);
    });
    const overflow = await overflowOf(page);
    await page.evaluate(() => document.getElementById('too-wide')?.remove());
    expect(overflow.sticking.some((s) => s.startsWith('div#too-wide'))).toBe(true);
  });
  afterAll(async () => session?.close());

  it('lays every screen out within the viewport', async () => {
    const { page } = session;
    const found: Record<string, Overflow> = {};
    for (const path of SIGNED_IN_PATHS) {
      await visit(page, path);
      const overflow = await overflowOf(page);
      if (overflow.scrollWidth > PHONE.width || overflow.sticking.length) found[path] = overflow;
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

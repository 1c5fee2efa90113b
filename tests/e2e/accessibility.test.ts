// axe-core in Chromium on every screen (spec §2, plus /login, /rules, /redemption), signed out and signed in, in the
// light and the dark theme: no critical and no serious violation. One browser context per session; the screens are
// visited inside the SPA, so the whole walk costs one page load per session.
import axeCore from 'axe-core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, registerInBrowser, uniquePhone, type BrowserSession } from './browser';
import { SIGNED_IN_PATHS, SIGNED_OUT_PATHS, settle, visit } from './screens';

declare global {
  // set by axe-core's source, evaluated in the page
  var axe: typeof axeCore;
}

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');

interface Violation {
  id: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/** axe's violations on the page as it is now. The source is evaluated over the devtools protocol, not the CSP. */
async function violations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => typeof globalThis.axe === 'object'))) await page.evaluate(axeCore.source);
  return page.evaluate(async () => {
    const result = await globalThis.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} :: ${n.failureSummary ?? ''}`),
    }));
  });
}

/** The page's structure: one h1, headings in order, every part in a landmark (main, nav, header, aside). */
const STRUCTURE = new Set([
  'heading-order',
  'page-has-heading-one',
  'region',
  'landmark-one-main',
  'landmark-no-duplicate-main',
  'landmark-unique',
]);

const severe = (list: Violation[]) =>
  list.filter((v) => v.impact === 'critical' || v.impact === 'serious' || STRUCTURE.has(v.id));

async function chooseTheme(page: Page, mode: 'light' | 'dark') {
  await page.getByTestId(`theme-${mode}`).click();
  await expect
    .poll(() => page.evaluate(() => document.documentElement.classList.contains('dark')))
    .toBe(mode === 'dark');
}

/** Every path in both themes; the findings per theme and path, for one readable failure. */
async function walk(page: Page, paths: readonly string[]): Promise<Record<string, Violation[]>> {
  const found: Record<string, Violation[]> = {};
  for (const mode of ['light', 'dark'] as const) {
    await chooseTheme(page, mode);
    for (const path of paths) {
      await visit(page, path);
      const list = severe(await violations(page));
      if (list.length) found[`${mode} ${path}`] = list;
    }
  }
  return found;
}

describe('accessibility (axe-core)', () => {
  let session: BrowserSession;
  beforeAll(async () => {
    session = await openBrowser();
  });
  afterAll(async () => session?.close());

  it('signed out: /login, /rules and /redemption have no critical or serious violation', async () => {
    const { page } = session;
    await page.goto(`${baseUrl}/workbench/login`);
    await page.getByRole('form', { name: '登录' }).waitFor();
    await settle(page);
    expect(await walk(page, SIGNED_OUT_PATHS)).toEqual({});
    // the login page has one h1, headings in order and its content in landmarks
    await visit(page, '/login');
    const all = await violations(page);
    expect(all.filter((v) => ['heading-order', 'page-has-heading-one', 'region'].includes(v.id))).toEqual([]);
    expect(await page.locator('h1').count()).toBe(1);
  });

  it('signed in: every screen has no critical or serious violation', async () => {
    const { page } = session;
    await page.evaluate(() => localStorage.clear());
    await registerInBrowser(page, baseUrl, dataDir, uniquePhone().replace(/^139/, '135'), 'axe-pass-123');
    await settle(page);
    expect(await walk(page, SIGNED_IN_PATHS)).toEqual({});
  });

  it('on a phone, every screen and the side bar as an open drawer have no critical or serious violation', async () => {
    const { page } = session;
    await page.setViewportSize({ width: 390, height: 844 });
    const found: Record<string, Violation[]> = {};
    for (const path of SIGNED_IN_PATHS) {
      await visit(page, path);
      const list = severe(await violations(page));
      if (list.length) found[path] = list;
    }
    await visit(page, '/');
    await page.getByTestId('nav-menu-button').click();
    const drawer = page.getByTestId('nav-drawer');
    await drawer.waitFor();
    await drawer.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
    const inDrawer = severe(await violations(page)).filter((v) => !STRUCTURE.has(v.id) || v.id !== 'region');
    if (inDrawer.length) found['drawer'] = inDrawer;
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(found).toEqual({});
  });
});

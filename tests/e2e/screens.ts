// The screens a browser test walks through (spec §2) and a client-side visit of each: one page load per session,
// the SPA's router does the rest, as a user clicking through the side bar would.
import type { Page } from 'playwright-core';
import { ROUTES, STANDALONE } from '../../src/ui/routes';

/** Every route of the main layout, and /rules and /redemption, as a signed-in user opens them. */
export const SIGNED_IN_PATHS: readonly string[] = [
  ...ROUTES.map((r) => r.path),
  STANDALONE.rules.path,
  STANDALONE.redemption.path,
];

/** What a visitor without an account can open. */
export const SIGNED_OUT_PATHS: readonly string[] = ['/login', STANDALONE.rules.path, STANDALONE.redemption.path];

/** Navigates inside the SPA (wouter follows pushState and popstate) and waits until the screen has settled. */
export async function visit(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState(null, '', `/workbench${to === '/' ? '/' : to}`);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  const inLayout = ROUTES.some((r) => r.path === path);
  if (inLayout) await page.locator(`[data-screen="${path}"]:not([hidden])`).waitFor();
  await settle(page);
}

/** Waits for the page's spinners to go (a screen still loading its data) and for transitions to end. */
export async function settle(page: Page): Promise<void> {
  await page
    .waitForFunction(() => !document.querySelector('.chakra-spinner, [aria-busy="true"]'), undefined, {
      timeout: 5000,
    })
    .catch(() => undefined);
  await page.waitForTimeout(300);
}

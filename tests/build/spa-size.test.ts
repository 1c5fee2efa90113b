/**
 * The SPA's first load: the entry chunk and the chunks it imports statically stay within 200 kB of gzip
 * (scripts/bundle-size.mjs, printed by `npm run build`); screens, menus, dialogs, toasts and the other languages'
 * catalogues load after the first paint.
 */
import { describe, expect, it } from 'vitest';
import { INITIAL_JS_BUDGET, initialJs } from '../../scripts/bundle-size.mjs';
import { SPA_DIR, waitForSpaBuild } from '../../scripts/spa-build.mjs';

describe('the SPA build', () => {
  it('keeps the initial JavaScript within 200 kB gzip, with screens and catalogues apart', async () => {
    // the production build of dist/workbench: the browser tests' setup's, or made here when there is none
    await waitForSpaBuild({ quiet: true });
    const { files, gzip } = initialJs(SPA_DIR);
    console.log(`initial JS: ${(gzip / 1024).toFixed(1)} kB gzip in ${files.length} files`);
    expect(gzip).toBeLessThanOrEqual(INITIAL_JS_BUDGET);
    // what is deferred stays deferred: no screen, no user menu, no other language in the first load
    const names = files.map((f) => f.file).join(' ');
    expect(names).not.toMatch(/Home-|DocumentEditor-|UserMenu-|QuotaDialog-|toast-viewport-/);
    expect(files.length).toBeGreaterThan(3);
  }, 120_000);
});

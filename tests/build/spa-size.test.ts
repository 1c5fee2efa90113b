/**
 * The SPA's first load: the entry chunk and the chunks it imports statically stay within 200 kB of gzip
 * (scripts/bundle-size.mjs, printed by `npm run build`); screens, menus, dialogs, toasts and the other languages'
 * catalogues load after the first paint.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { INITIAL_JS_BUDGET, initialJs } from '../../scripts/bundle-size.mjs';

const outDir = mkdtempSync(join(tmpdir(), 'spa-size-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('the SPA build', () => {
  it('keeps the initial JavaScript within 200 kB gzip, with screens and catalogues apart', () => {
    // a production build in its own process (the test process sets NODE_ENV=test, which keeps React's dev build)
    const vite = spawnSync(
      process.execPath,
      ['node_modules/vite/bin/vite.js', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'],
      { env: { ...process.env, NODE_ENV: 'production' }, encoding: 'utf8' },
    );
    expect(vite.status, vite.stderr).toBe(0);
    const { files, gzip } = initialJs(outDir);
    console.log(`initial JS: ${(gzip / 1024).toFixed(1)} kB gzip in ${files.length} files`);
    expect(gzip).toBeLessThanOrEqual(INITIAL_JS_BUDGET);
    // what is deferred stays deferred: no screen, no user menu, no other language in the first load
    const names = files.map((f) => f.file).join(' ');
    expect(names).not.toMatch(/Home-|DocumentEditor-|UserMenu-|QuotaDialog-|toast-viewport-/);
    expect(files.length).toBeGreaterThan(3);
  }, 120_000);
});

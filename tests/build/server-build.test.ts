import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { workerEntry } from '../../server/workers/entry';
import { loadConfig } from '../../server/config';
import { buildServer, ensureServerBuild, serverEntry, sourceHash } from '../../scripts/server-build.mjs';

// The bundle `npm start` runs: named by its sources, whole, and safe to ask for from several places at once (two
// servers started together share one build; esbuild's service is stopped only when none is left under way).
describe('server bundle', () => {
  it('builds once for builds asked at once, then again after esbuild has been stopped', async () => {
    const [a, b] = await Promise.all([buildServer(), buildServer()]);
    expect(a).toBe(b);
    expect(a).toBe(serverEntry());
    expect(dirname(a).endsWith(sourceHash())).toBe(true);
    for (const name of ['server', 'checker-worker', 'heavy-worker'])
      expect(existsSync(`${dirname(a)}/${name}.mjs`)).toBe(true);
    // the service stopped after the first build starts again for the next one
    expect(await buildServer()).toBe(a);
    expect(await ensureServerBuild()).toEqual({ entry: a, built: false });
  }, 60_000);

  it('points each module at its source, relative to the bundle, and the pools at the bundled workers', () => {
    const bundle = readFileSync(serverEntry(), 'utf8');
    expect(bundle).toContain('new URL("../../../server/workers/checker/pool.ts", import.meta.url)');
    expect(bundle).not.toMatch(/file:\/\/\//);
    expect(bundle).toMatch(
      /if \(typeof import\.meta\.url === "string"\)\s+return new URL\(`\.\/\$\{bundled\}\.mjs`, import\.meta\.url\)/,
    );
  });

  it("runs this test run's worker pools on the bundled workers of the current sources", () => {
    expect(process.env.WORKER_BUNDLE_DIR).toBe(dirname(serverEntry()));
    const entry = workerEntry('heavy-worker', new URL('file:///source/worker.mjs'), loadConfig().tools.workerBundles);
    expect(entry.href).toBe(pathToFileURL(`${dirname(serverEntry())}/heavy-worker.mjs`).href);
    expect(existsSync(entry)).toBe(true);
  });
});

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The bundle's own URL when the server runs from dist/server (scripts/server-build.mjs defines it); undefined when
 * the TypeScript runs through tsx or vitest.
 */
declare const WORKBENCH_BUNDLE_URL: string | undefined;

/**
 * A worker pool's entry: the bundled worker beside the bundled server; from the sources, the bundled worker of
 * `bundles` (WORKER_BUNDLE_DIR) when set, else the source bootstrap that registers tsx in the worker. Loading a
 * worker's modules through tsx costs about a second of CPU, and the tests start a hundred workers.
 */
export function workerEntry(bundled: 'checker-worker' | 'heavy-worker', source: URL, bundles: string | undefined): URL {
  if (typeof WORKBENCH_BUNDLE_URL === 'string') return new URL(`./${bundled}.mjs`, WORKBENCH_BUNDLE_URL);
  return bundles ? pathToFileURL(join(bundles, `${bundled}.mjs`)) : source;
}

/**
 * The bundle's own URL when the server runs from dist/server (scripts/server-build.mjs defines it); undefined when
 * the TypeScript runs through tsx or vitest.
 */
declare const WORKBENCH_BUNDLE_URL: string | undefined;

/**
 * A worker pool's entry: the bundled worker beside the bundled server, else the source bootstrap that registers
 * tsx in the worker.
 */
export function workerEntry(bundled: 'checker-worker' | 'heavy-worker', source: URL): URL {
  return typeof WORKBENCH_BUNDLE_URL === 'string' ? new URL(`./${bundled}.mjs`, WORKBENCH_BUNDLE_URL) : source;
}

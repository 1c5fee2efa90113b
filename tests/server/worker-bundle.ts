import { dirname } from 'node:path';
import { ensureServerBuild } from '../../scripts/server-build.mjs';

/**
 * Points the worker pools of this run at bundled workers made from the current sources (WORKER_BUNDLE_DIR), for a
 * global setup: through tsx, each of the hundred or so workers a run starts spent about a second of CPU loading its
 * modules. The bundle is the same code the server runs in production; the tests that start server processes run it
 * too.
 */
export async function useWorkerBundle(): Promise<void> {
  const { entry } = await ensureServerBuild();
  // set before vitest starts the test processes, which inherit it
  process.env.WORKER_BUNDLE_DIR = dirname(entry);
}

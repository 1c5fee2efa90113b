// Browser tests run against the real server (buildApp + listen on port 0) serving the built SPA.
// The SPA is rebuilt only when dist/workbench is missing or older than its sources (like npm start).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** e.g. http://127.0.0.1:41234 */
    baseUrl: string;
    /** The server's DATA_DIR (sms-outbox.jsonl lives here). */
    dataDir: string;
  }
}

const root = resolve(__dirname, '..', '..');
const builtIndex = join(root, 'dist', 'workbench', 'index.html');

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function buildIfStale(): void {
  const sources = ['src', 'public', 'locales', 'index.html', 'vite.config.ts', 'package.json']
    .map((p) => join(root, p))
    .filter(existsSync);
  if (existsSync(builtIndex) && statSync(builtIndex).mtimeMs >= Math.max(...sources.map(newestMtime))) return;
  const build = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (build.status !== 0) throw new Error('vite build failed; see the output above');
}

export default async function setup(project: TestProject) {
  buildIfStale();
  const dataDir = mkdtempSync(join(tmpdir(), 'workbench-e2e-'));
  const { buildApp } = await import('../../server/app');
  const app = await buildApp({ dataDir, logger: false, config: { spaDir: join(root, 'dist', 'workbench') } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  project.provide('baseUrl', `http://127.0.0.1:${port}`);
  project.provide('dataDir', dataDir);
  return async () => {
    await app.close();
    // the checking engine's worker threads are shared by every app of the process: end them with the run
    const { checkerPool } = await import('../../server/services/checker/pool');
    await checkerPool().close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

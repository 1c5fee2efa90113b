// The SPA's production build in dist/workbench, made when it is missing or older than its sources: `npm start`,
// the browser tests and the bundle-size test share it, so one run of the tests builds once.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const SPA_DIR = join(ROOT, 'dist', 'workbench');
const SOURCES = ['src', 'public', 'locales', 'index.html', 'vite.config.ts', 'package.json'];

function newestMtime(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** Whether dist/workbench is missing or older than any of its sources. */
export function needsBuild() {
  const built = join(SPA_DIR, 'index.html');
  if (!existsSync(built) || !existsSync(join(SPA_DIR, '.vite', 'manifest.json'))) return true;
  const sources = SOURCES.map((p) => join(ROOT, p)).filter((p) => existsSync(p));
  return Math.max(...sources.map(newestMtime)) > statSync(built).mtimeMs;
}

/**
 * Builds when needed; returns whether it built. NODE_ENV is production whoever calls (a test process sets it to
 * `test`, which would keep React's development build).
 */
export function buildSpaIfStale({ quiet = false } = {}) {
  if (!needsBuild()) return false;
  const build = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: ROOT,
      stdio: quiet ? 'pipe' : 'inherit',
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  if (build.status !== 0) {
    throw new Error(`vite build failed${quiet ? `:\n${build.stdout}\n${build.stderr}` : '; see the output above'}`);
  }
  return true;
}

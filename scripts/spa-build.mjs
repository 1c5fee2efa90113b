// The SPA's production build in dist/workbench, made when it is missing or older than its sources: `npm start`,
// the browser tests and the bundle-size test share it, so one run of the tests builds once (in the background,
// while the tests that need no SPA run).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const SPA_DIR = join(ROOT, 'dist', 'workbench');
/** Present while a build started by startSpaBuild runs; holds its process id. */
const LOCK = join(ROOT, 'dist', '.spa-build.lock');
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

const VITE = [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'];
const BUILD_ENV = () => ({ ...process.env, NODE_ENV: 'production' });

/** Whether a build started by startSpaBuild (in this or another process) is still running. */
function building() {
  if (!existsSync(LOCK)) return false;
  try {
    process.kill(Number(readFileSync(LOCK, 'utf8')), 0);
    return true;
  } catch {
    // the process that wrote the lock is gone: a stale lock
    return false;
  }
}

/**
 * Starts the build in the background when needed (the browser tests' setup: the other test files need no SPA and
 * start at once); resolves when it has ended. waitForSpaBuild waits for it from any process.
 */
export function startSpaBuild() {
  if (building() || !needsBuild()) return Promise.resolve();
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  const child = spawn(process.execPath, VITE, { cwd: ROOT, stdio: 'pipe', env: BUILD_ENV() });
  writeFileSync(LOCK, String(child.pid));
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      rmSync(LOCK, { force: true });
      // a failed build shows its messages when waitForSpaBuild builds again
      if (code !== 0) console.error(`vite build failed:\n${output}`);
      resolve();
    }),
  );
}

/** Waits for a background build to end, then builds (in this process's view) if the SPA is still stale. */
export async function waitForSpaBuild({ quiet = false } = {}) {
  while (building()) await new Promise((resolve) => setTimeout(resolve, 200));
  buildSpaIfStale({ quiet });
}

/**
 * Builds when needed; returns whether it built. NODE_ENV is production whoever calls (a test process sets it to
 * `test`, which would keep React's development build).
 */
export function buildSpaIfStale({ quiet = false } = {}) {
  if (!needsBuild()) return false;
  buildSpa({ quiet });
  return true;
}

/** Builds now (the caller has found the SPA stale). */
export function buildSpa({ quiet = false } = {}) {
  const build = spawnSync(process.execPath, VITE, {
    cwd: ROOT,
    stdio: quiet ? 'pipe' : 'inherit',
    encoding: 'utf8',
    env: BUILD_ENV(),
  });
  if (build.status !== 0) {
    throw new Error(`vite build failed${quiet ? `:\n${build.stdout}\n${build.stderr}` : '; see the output above'}`);
  }
}

// `npm start`: build the SPA when it is missing or older than its sources, then run the server.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const built = join('dist', 'workbench', 'index.html');

function newestMtime(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function needsBuild() {
  if (!existsSync(built)) return true;
  const sources = ['src', 'public', 'locales', 'index.html', 'vite.config.ts'].filter((p) => existsSync(p));
  const newestSource = Math.max(...sources.map(newestMtime));
  return newestSource > statSync(built).mtimeMs;
}

if (needsBuild()) {
  console.log('Building the workbench front end (vite build)…');
  const build = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], {
    stdio: 'inherit',
  });
  if (build.status !== 0) {
    console.error('The front-end build failed; see the messages above.');
    process.exit(build.status ?? 1);
  }
}

// The supervisor runs the server and restarts it after a crash (scripts/supervise.mjs).
await import('./supervise.mjs');

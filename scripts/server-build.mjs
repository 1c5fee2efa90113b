// The server as plain JavaScript in dist/server, made when missing or older than its sources: the supervisor
// (`npm start`, the container), `npm run build` and the tests that start real server processes run it. Running the
// TypeScript through tsx instead costs every isolate (the main thread and each worker) a loader and a transpiled
// copy of the sources: about 150 MB of the idle server's memory with two checker workers.
//
// Our own modules are bundled, packages stay imports. Each module's `import.meta.url` is replaced by its source
// file's URL, so the files it reads beside itself (migrations, the contract, lexicons, the engine image) are found
// where they are. WORKBENCH_BUNDLE_URL, which the worker pools read, becomes the bundle's own URL.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const SERVER_DIST = join(ROOT, 'dist', 'server');
export const SERVER_ENTRY = join(SERVER_DIST, 'server.mjs');
const ENTRIES = {
  server: 'server/server.ts',
  'checker-worker': 'server/services/checker/worker-body.ts',
  'heavy-worker': 'server/services/heavy/worker-body.ts',
};
const SOURCES = ['server', 'engine', 'openapi', 'package.json', 'scripts/server-build.mjs'];
/** big data and build output that no bundle contains */
const SKIP = new Set(['.image', 'lexicon', 'bench', 'node_modules']);

function newestMtime(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path))
    if (!SKIP.has(entry)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** Whether a bundle is missing or older than any source. */
export function serverNeedsBuild() {
  const outputs = Object.keys(ENTRIES).map((name) => join(SERVER_DIST, `${name}.mjs`));
  if (!outputs.every((p) => existsSync(p))) return true;
  const built = Math.min(...outputs.map((p) => statSync(p).mtimeMs));
  const sources = SOURCES.map((p) => join(ROOT, p)).filter((p) => existsSync(p));
  return Math.max(...sources.map(newestMtime)) > built;
}

const sourceUrls = {
  name: 'source-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const contents = source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href));
      return { contents, loader: 'ts' };
    });
  },
};

/**
 * Bundles into a fresh directory and swaps each file in by rename, so a server starting meanwhile (another test
 * file, a second instance) reads whole files.
 */
export async function buildServer() {
  const { build } = await import('esbuild');
  const temp = join(ROOT, 'dist', `.server-${process.pid}-${Date.now()}`);
  try {
    await build({
      entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, path]) => [name, join(ROOT, path)])),
      outdir: temp,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node20',
      define: { WORKBENCH_BUNDLE_URL: 'import.meta.url' },
      plugins: [sourceUrls],
      logLevel: 'warning',
    });
    mkdirSync(SERVER_DIST, { recursive: true });
    for (const name of Object.keys(ENTRIES)) renameSync(join(temp, `${name}.mjs`), join(SERVER_DIST, `${name}.mjs`));
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/** Builds when needed; resolves to whether it built. */
export async function ensureServerBuild() {
  if (!serverNeedsBuild()) return false;
  await buildServer();
  return true;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  await buildServer();
  console.log(`server bundles in ${SERVER_DIST} (${Date.now() - started} ms)`);
}

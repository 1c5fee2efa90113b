// The server as plain JavaScript: the supervisor (`npm start`, the container), `npm run build`, scripts/run-server.mjs
// (systemd) and the tests that start real server processes run it. Running the TypeScript through tsx instead costs
// every isolate (the main thread and each worker) a loader and a transpiled copy of the sources: about 150 MB of the
// idle server's memory with two checker workers.
//
// Each build lives in dist/server/<hash of its sources>/ (server.mjs and the two worker bundles), made in a temporary
// directory and renamed into place whole: a bundle never runs beside sources it was not made from (the engine reads
// its own sources to name its image), two builds at once cannot mix their files, and a running server that starts a
// worker again finds the worker it was built with.
//
// Our own modules are bundled, packages stay imports. Each module's `import.meta.url` becomes its source file's URL
// (relative to the bundle, so the checkout can move), so the files it reads beside itself (migrations, the contract,
// lexicons, the engine image) are found where they are. WORKBENCH_BUNDLE_URL, which the worker pools read, becomes
// the bundle's own URL.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const SERVER_DIST = join(ROOT, 'dist', 'server');
const ENTRIES = {
  server: 'server/server.ts',
  'checker-worker': 'server/workers/checker/worker-body.ts',
  'heavy-worker': 'server/workers/heavy/worker-body.ts',
};
const SOURCES = ['server', 'engine', 'openapi', 'package.json', 'tsconfig.json', 'scripts/server-build.mjs'];
/** big data and code no bundle contains */
const SKIP = new Set(['.image', 'lexicon', 'bench', 'node_modules']);
/** builds kept beside the current one (a server still running from one may start its workers again) */
const KEEP = 3;

function sourceFiles(path, out) {
  if (!statSync(path).isDirectory()) {
    out.push(path);
    return out;
  }
  for (const entry of readdirSync(path).sort()) if (!SKIP.has(entry)) sourceFiles(join(path, entry), out);
  return out;
}

/** A hash of every source's path and content (about 2 MB to read: milliseconds). */
export function sourceHash() {
  const hash = createHash('sha256');
  for (const p of SOURCES.map((s) => join(ROOT, s)).filter((s) => existsSync(s))) {
    for (const file of sourceFiles(p, [])) {
      hash.update(relative(ROOT, file).split(sep).join('/'));
      hash.update('\0');
      hash.update(readFileSync(file));
      hash.update('\0');
    }
  }
  return hash.digest('hex').slice(0, 16);
}

/** The bundled server for the sources as they are now (it exists once ensureServerBuild or buildServer made it). */
export function serverEntry(hash = sourceHash()) {
  return join(SERVER_DIST, hash, 'server.mjs');
}

/** each source module's import.meta.url, as a URL relative to the bundle that holds it */
function sourceUrls(outDir) {
  return {
    name: 'source-import-meta-url',
    setup(build) {
      build.onLoad({ filter: /\.[cm]?ts$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        const rel = relative(outDir, args.path).split(sep).join('/');
        const url = `new URL(${JSON.stringify(rel)}, import.meta.url).href`;
        return { contents: source.replaceAll('import.meta.url', url), loader: 'ts' };
      });
    },
  };
}

/** builds under way in this process, by source hash (two servers started at once share one) */
const building = new Map();

/** Bundles the current sources (those whose hash is given); resolves to the server's entry. */
export function buildServer(hash = sourceHash()) {
  let pending = building.get(hash);
  if (!pending) {
    pending = build(hash).finally(() => building.delete(hash));
    building.set(hash, pending);
  }
  return pending;
}

async function build(hash) {
  const target = join(SERVER_DIST, hash);
  // the temporary directory sits beside the target, so relative source URLs are the same in both
  const temp = join(SERVER_DIST, `.${hash}-${process.pid}-${Date.now()}`);
  const esbuild = await import('esbuild');
  try {
    await esbuild.build({
      entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, path]) => [name, join(ROOT, path)])),
      outdir: temp,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node20',
      define: { WORKBENCH_BUNDLE_URL: 'import.meta.url' },
      plugins: [sourceUrls(target)],
      logLevel: 'warning',
    });
    // the same sources make the same bundle: one already in place (another process's, a running server's) stays
    if (!existsSync(join(target, 'server.mjs'))) {
      rmSync(target, { recursive: true, force: true });
      try {
        renameSync(temp, target);
      } catch (error) {
        // another process renamed its build into place first
        if (!existsSync(join(target, 'server.mjs'))) throw error;
      }
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
    // esbuild's service process would otherwise live as long as the supervisor; stopping it under another build of
    // this process would leave that one waiting for ever
    if (building.size <= 1) await esbuild.stop();
  }
  prune(hash);
  return join(target, 'server.mjs');
}

/** removes all but the newest KEEP builds (never the current one) */
function prune(current) {
  const builds = readdirSync(SERVER_DIST)
    .filter((name) => /^[0-9a-f]{16}$/.test(name) && name !== current)
    .map((name) => ({ name, mtime: statSync(join(SERVER_DIST, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const old of builds.slice(KEEP - 1)) rmSync(join(SERVER_DIST, old.name), { recursive: true, force: true });
}

/** The bundled server for the current sources, built when missing. */
export async function ensureServerBuild() {
  const hash = sourceHash();
  const entry = serverEntry(hash);
  return existsSync(entry) ? { entry, built: false } : { entry: await buildServer(hash), built: true };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const entry = await buildServer();
  console.log(`server bundled into ${relative(ROOT, entry).replace(/server\.mjs$/, '')} (${Date.now() - started} ms)`);
}

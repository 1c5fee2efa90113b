// The gzip size of the SPA's initial JavaScript: the entry chunk and every chunk it imports statically (what the
// browser must load before the first screen; route chunks come later). `npm run build` prints it; a test holds it
// under the budget.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

export const INITIAL_JS_BUDGET = 200 * 1024;

/** The initial chunks of a build (its .vite/manifest.json) with their gzip sizes. */
export function initialJs(outDir) {
  const manifestPath = join(outDir, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) throw new Error(`no manifest in ${outDir} (build.manifest must be on)`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const entries = Object.keys(manifest).filter((k) => manifest[k].isEntry);
  const seen = new Set();
  const files = [];
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (chunk.file.endsWith('.js')) {
      const bytes = readFileSync(join(outDir, chunk.file));
      files.push({ file: chunk.file, bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
    }
    for (const k of chunk.imports ?? []) visit(k);
  };
  for (const e of entries) visit(e);
  files.sort((a, b) => b.gzip - a.gzip);
  return { files, gzip: files.reduce((s, f) => s + f.gzip, 0) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { files, gzip } = initialJs(process.argv[2] ?? 'dist/workbench');
  for (const f of files) console.log(`  ${f.file.padEnd(48)} ${(f.gzip / 1024).toFixed(1).padStart(7)} kB gzip`);
  const verdict = gzip <= INITIAL_JS_BUDGET ? 'within' : 'OVER';
  console.log(
    `initial JS: ${(gzip / 1024).toFixed(1)} kB gzip in ${files.length} files (${verdict} the 200 kB budget)`,
  );
  if (gzip > INITIAL_JS_BUDGET) process.exitCode = 1;
}

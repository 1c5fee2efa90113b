// Shared by the server benchmarks (run.ts: the check flow; docs.ts: documents).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** `--name N` from the command line, else the fallback. */
export function benchOption(name: string, fallback: number): number {
  const args = process.argv.slice(2);
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

/** The lines of the engine's own bench sets (engine/bench/own): the source, and the target (`-`: correct as is). */
function ownPairs(): Array<[string, string]> {
  const dir = join(repoRoot, 'engine/bench/own');
  const out: Array<[string, string]> = [];
  for (const file of readdirSync(dir)) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!line || line.startsWith('#')) continue;
      const [, source, target] = line.split('\t');
      if (source) out.push([source, target ?? '-']);
    }
  }
  return out;
}

/** The sentences of engine/bench/own that are correct as written: the targets, and the sources marked `-`. */
export function correctSentences(): string[] {
  return ownPairs()
    .map(([source, target]) => (target === '-' ? source : target))
    .filter((s) => s.length > 6);
}

/** Realistic sentences: the engine's own bench sets (both the erroneous and the correct forms). */
export function benchSentences(): string[] {
  return ownPairs()
    .flatMap(([source, target]) => (target === '-' ? [source] : [source, target]))
    .filter((s) => s.length > 6);
}

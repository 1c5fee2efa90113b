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

/** Realistic sentences: the engine's own bench sets (both the erroneous and the correct forms). */
/** The sentences of engine/bench/own that are correct as written: the targets, and the sources marked `-`. */
export function correctSentences(): string[] {
  const dir = join(repoRoot, 'engine/bench/own');
  const out: string[] = [];
  for (const file of readdirSync(dir)) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!line || line.startsWith('#')) continue;
      const [, source, target] = line.split('\t');
      const correct = target === '-' ? source : target;
      if (correct && correct.length > 6) out.push(correct);
    }
  }
  return out;
}

export function benchSentences(): string[] {
  const dir = join(repoRoot, 'engine/bench/own');
  const out: string[] = [];
  for (const file of readdirSync(dir)) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!line || line.startsWith('#')) continue;
      const [, source, target] = line.split('\t');
      if (source && source.length > 6) out.push(source);
      if (target && target !== '-' && target.length > 6) out.push(target);
    }
  }
  return out;
}

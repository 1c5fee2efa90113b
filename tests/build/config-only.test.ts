import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '../..');

/**
 * Files still reading settings from the environment themselves. The job-runner move owns them (speech.ts runs the
 * speech tasks; asr.ts keeps its fallback only for speech.ts): empty this list as they take app.config instead.
 */
const STILL_READING = new Set(['server/services/media/speech.ts', 'server/services/media/asr.ts']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|mts)$/.test(entry.name) ? [relative(ROOT, path).replaceAll('\\', '/')] : [];
  });
}

const readers = sources(join(ROOT, 'server')).filter(
  (file) => file !== 'server/config.ts' && /\breadEnv\b/.test(readFileSync(join(ROOT, file), 'utf8')),
);

describe('settings come only through the validated config', () => {
  it('no file of the server but config.ts reads the environment with readEnv', () => {
    expect(readers.filter((file) => !STILL_READING.has(file))).toEqual([]);
  });

  it('each file allowed to still read it does (an entry that stopped is taken off the list)', () => {
    expect([...STILL_READING].filter((file) => !readers.includes(file))).toEqual([]);
  });
});

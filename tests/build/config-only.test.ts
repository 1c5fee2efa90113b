import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '../..');

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
    expect(readers).toEqual([]);
  });
});

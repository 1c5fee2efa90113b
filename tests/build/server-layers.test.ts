import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '../..');

function sources(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|mts|mjs)$/.test(entry.name) ? [relative(ROOT, path).replaceAll('\\', '/')] : [];
  });
}

/** Static imports and re-exports, `import()` and `vi.mock()` specifiers. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bvi\.mock\(\s*)['"]([^'"]+)['"]/g;

/** Where each relative import of a file lands, as a path from the repository root. */
function importsOf(file: string, text: string): string[] {
  return [...text.matchAll(SPECIFIER)]
    .map((match) => match[1])
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => relative(ROOT, join(ROOT, dirname(file), spec)).replaceAll('\\', '/'));
}

/** `from` files that import anything under one of the `banned` folders, as "file -> target". */
function crossings(from: string[], banned: string[]): string[] {
  const files = from.flatMap((dir) => sources(join(ROOT, dir)));
  return files.flatMap((file) =>
    importsOf(file, readFileSync(join(ROOT, file), 'utf8'))
      .filter((target) => banned.some((dir) => target === dir || target.startsWith(`${dir}/`)))
      .map((target) => `${file} -> ${target}`),
  );
}

/** The layers below the HTTP surface, in today's folders and in the ones the server is moving to. */
const SERVICES = ['server/services', 'server/domain', 'server/formats', 'server/workers'];

/**
 * Routes that still reach into a repository; each is to get a service function, and the list only shrinks (a route
 * on it that stops importing db/repos fails the test below until it leaves the list).
 */
const ROUTES_ON_REPOS = [
  'server/routes/document/documents.ts',
  'server/routes/enterprise/dictionaries.ts',
  'server/routes/enterprise/members.ts',
  'server/routes/enterprise/words.ts',
  'server/routes/languagetool/api-key.ts',
  'server/routes/languagetool/index.ts',
  'server/routes/proofread/index.ts',
  'server/routes/system/index.ts',
  'server/routes/website/index.ts',
];

describe('server layers', () => {
  it('services never import routes or plugins (those call down, not the other way)', () => {
    expect(crossings(SERVICES, ['server/routes', 'server/plugins'])).toEqual([]);
  });

  it('routes call services, not repositories (db/repos)', () => {
    const onRepos = [
      ...new Set(crossings(['server/routes'], ['server/db/repos']).map((line) => line.split(' -> ')[0])),
    ];
    expect(onRepos.filter((file) => !ROUTES_ON_REPOS.includes(file))).toEqual([]);
    expect(ROUTES_ON_REPOS.filter((file) => !onRepos.includes(file))).toEqual([]);
  });

  it('finds an import that crosses (the check above can fail)', () => {
    const text = [
      "import type { X } from '../../routes/types';",
      "const m = await import('../../plugins/auth');",
      "vi.mock('../../routes/x', () => ({}));",
      "export { y } from './local';",
      "import { z } from 'fastify';",
    ].join('\n');
    expect(importsOf('server/formats/documents/read.ts', text)).toEqual([
      'server/routes/types',
      'server/plugins/auth',
      'server/routes/x',
      'server/formats/documents/local',
    ]);
  });
});

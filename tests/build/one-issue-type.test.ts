import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [relative(ROOT, path).replaceAll('\\', '/')] : [];
  });
}

/** A type that spells a finding out field by field (offsets, original, suggestions, with or without comments). */
const DOC = String.raw`(?:\/\*\*[^]*?\*\/\s*)?`;
const FINDING_SHAPE = new RegExp(
  String.raw`\{\s*` +
    ['start: number;', 'end: number;', 'original: string;', String.raw`suggestions: string\[\];`]
      .map((field) => DOC + field)
      .join(String.raw`\s*`),
);

describe('one Issue type', () => {
  it('is declared in the contract only: the engine, socket, documents and images take it from there', () => {
    const files = ['engine', 'server', 'openapi', 'src'].flatMap((dir) => sources(join(ROOT, dir)));
    const spelled = files.filter(
      (file) => file !== 'openapi/schema.d.ts' && FINDING_SHAPE.test(readFileSync(join(ROOT, file), 'utf8')),
    );
    expect(spelled).toEqual([]);
  });

  it('recognises a finding spelled out (the check above can fail)', () => {
    expect(
      FINDING_SHAPE.test(
        'interface X {\n  start: number;\n  end: number;\n  original: string;\n  suggestions: string[];',
      ),
    ).toBe(true);
    const schema = readFileSync(join(ROOT, 'openapi/schema.d.ts'), 'utf8');
    expect(FINDING_SHAPE.test(schema)).toBe(true);
  });
});

import { expect } from 'vitest';
import { check } from '../../engine/index';
import type { Issue } from '../../engine/types';

/** every issue has valid offsets, and applying any suggestion keeps the text well-formed */
export function expectWellFormed(text: string, issues: Issue[]) {
  for (const i of issues) {
    expect(i.start).toBeGreaterThanOrEqual(0);
    expect(i.end).toBeGreaterThan(i.start);
    expect(i.end).toBeLessThanOrEqual(text.length);
    expect(text.slice(i.start, i.end)).toBe(i.original);
    expect(typeof i.message).toBe('string');
    expect(i.message.length).toBeGreaterThan(3);
    expect([1, 2, 3]).toContain(i.level);
    for (const s of i.suggestions) {
      expect(s).not.toBe(i.original);
      const fixed = text.slice(0, i.start) + s + text.slice(i.end);
      // no lone surrogates, no control characters introduced
      expect(fixed.isWellFormed()).toBe(true);
      expect(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(s)).toBe(false);
    }
  }
}

export function apply(text: string, issues: Issue[], category?: string): string {
  let out = text;
  for (const i of [...issues].filter((x) => !category || x.category === category).sort((a, b) => b.start - a.start)) {
    if (i.suggestions.length) out = out.slice(0, i.start) + i.suggestions[0] + out.slice(i.end);
  }
  return out;
}

/** Checks a text, expects its findings well formed, and gives the text with every first suggestion taken. */
export function fix(text: string, mode: 3 | 4 = 3): { out: string; issues: Issue[] } {
  const issues = check(text, { mode });
  expectWellFormed(text, issues);
  return { out: apply(text, issues), issues };
}

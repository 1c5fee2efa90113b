import { describe, expect, it } from 'vitest';
import type { Issue } from '../../engine';
import { issuesSize, ResultCache } from '../../server/workers/checker/cache';

const issue = (n: number): Issue => ({
  start: n,
  end: n + 3,
  original: '海洛因',
  suggestions: [],
  category: '8-1',
  type: 3,
  level: 3,
  message: '“海洛因”是敏感词，请核实。',
});
const many = (count: number) => Array.from({ length: count }, (_, n) => issue(n * 3));

describe('check result cache', () => {
  it('is bounded by memory, not only by entries: paragraphs full of findings cannot fill the heap', () => {
    const perEntry = issuesSize(many(500));
    const cache = new ResultCache(20_000, perEntry * 20);
    for (let i = 0; i < 100; i++) cache.set(`k${i}`, many(500));
    expect(cache.approximateBytes).toBeLessThanOrEqual(perEntry * 20);
    expect(cache.size).toBe(20);
    // least recently used go first
    expect(cache.get('k0')).toBeUndefined();
    expect(cache.get('k99')).toHaveLength(500);
  });

  it(
    'keeps ordinary entries up to the entry bound and does not keep one entry ' + 'larger than a tenth of the budget',
    () => {
      const cache = new ResultCache(3, 1_000_000);
      for (let i = 0; i < 5; i++) cache.set(`k${i}`, many(1));
      expect(cache.size).toBe(3);
      cache.set('huge', many(2_000));
      expect(cache.has('huge')).toBe(false);
      expect(cache.size).toBe(3);
      // replacing an entry does not count it twice
      const before = cache.approximateBytes;
      cache.set('k4', many(1));
      expect(cache.approximateBytes).toBe(before);
    },
  );
});

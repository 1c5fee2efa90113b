import type { Issue } from '../../../engine';

/**
 * Paragraph results, keyed by (user, paragraph hash, mode, checkOptions, lang, dictionary fingerprint).
 * Bounded LRU (Map insertion order); offsets are relative to the paragraph.
 */
export class ResultCache {
  private map = new Map<string, Issue[]>();
  hits = 0;
  misses = 0;

  constructor(readonly maxEntries = Number(process.env.CHECK_CACHE_ENTRIES) || 20_000) {}

  get(key: string): Issue[] | undefined {
    const value = this.map.get(key);
    if (value === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  has(key: string): boolean {
    return this.map.has(key);
  }

  set(key: string, value: Issue[]): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.maxEntries) this.map.delete(this.map.keys().next().value as string);
  }

  get size(): number {
    return this.map.size;
  }
}

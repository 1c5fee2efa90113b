import type { Issue } from '../../../engine';

/** Bytes an issue list takes in memory, roughly: its strings (UTF-16) and a fixed cost per object. */
export function issuesSize(issues: Issue[]): number {
  let bytes = 64;
  for (const i of issues) {
    bytes += 200 + 2 * (i.original.length + i.message.length);
    // a note: its objects, and arguments that repeat about as many characters as the message
    if (i.note) bytes += 120 + 2 * i.message.length;
    for (const s of i.suggestions) bytes += 40 + 2 * s.length;
  }
  return bytes;
}

/**
 * Paragraph results, keyed by (user, paragraph hash, mode, checkOptions, lang, dictionary fingerprint).
 * Bounded LRU (Map insertion order) by entries and by an estimate of their memory: a paragraph with hundreds of
 * findings (a list of sensitive words pasted as text) weighs a thousand ordinary ones, and a count alone would let
 * such paragraphs fill the heap. Offsets are relative to the paragraph.
 */
export class ResultCache {
  private map = new Map<string, { issues: Issue[]; bytes: number }>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(
    /** CHECK_CACHE_ENTRIES */
    readonly maxEntries: number,
    /** CHECK_CACHE_MB, in bytes */
    readonly maxBytes: number,
  ) {}

  get(key: string): Issue[] | undefined {
    const entry = this.map.get(key);
    if (entry === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.map.delete(key);
    this.map.set(key, entry);
    return entry.issues;
  }

  has(key: string): boolean {
    return this.map.has(key);
  }

  set(key: string, issues: Issue[]): void {
    const bytes = issuesSize(issues);
    // an entry larger than a tenth of the budget would push out too much: it is simply not kept
    this.delete(key);
    if (bytes > this.maxBytes / 10) return;
    this.map.set(key, { issues, bytes });
    this.bytes += bytes;
    while (this.map.size > this.maxEntries || this.bytes > this.maxBytes)
      this.delete(this.map.keys().next().value as string);
  }

  get size(): number {
    return this.map.size;
  }

  /** Memory the entries take, estimated (for tests and diagnostics). */
  get approximateBytes(): number {
    return this.bytes;
  }

  private delete(key: string): void {
    const entry = this.map.get(key);
    if (!entry) return;
    this.bytes -= entry.bytes;
    this.map.delete(key);
  }
}

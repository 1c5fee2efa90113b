/** Word list with counts and part-of-speech tags: jieba's dict.txt (MIT), committed as lexicon/jieba-dict.txt.gz. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { dataDir } from './lm';

/** read-only view: word -> count */
class FreqView {
  constructor(private m: Map<string, number>) {}
  get(w: string): number | undefined {
    const v = this.m.get(w);
    return v === undefined ? undefined : Math.floor(v / 64);
  }
  has(w: string) { return this.m.has(w); }
  get size() { return this.m.size; }
  *[Symbol.iterator](): IterableIterator<[string, number]> {
    for (const [w, v] of this.m) yield [w, Math.floor(v / 64)];
  }
  *values(): IterableIterator<number> {
    for (const v of this.m.values()) yield Math.floor(v / 64);
  }
}

/** read-only view: word -> POS tag */
class PosView {
  constructor(private m: Map<string, number>, private tags: string[]) {}
  get(w: string): string | undefined {
    const v = this.m.get(w);
    return v === undefined ? undefined : this.tags[v % 64];
  }
}

export class JiebaDict {
  readonly freq: FreqView;
  readonly pos: PosView;
  readonly idioms: string[] = [];
  readonly total: number;
  constructor() {
    const text = gunzipSync(readFileSync(path.join(dataDir, 'jieba-dict.txt.gz'))).toString('utf8');
    const m = new Map<string, number>();
    const tags: string[] = [];
    const tagIndex = new Map<string, number>();
    let total = 0;
    let i = 0;
    while (i < text.length) {
      let e = text.indexOf('\n', i);
      if (e < 0) e = text.length;
      const a = text.indexOf(' ', i);
      const b = a < 0 ? -1 : text.indexOf(' ', a + 1);
      if (a > i && b > a && b < e) {
        const w = text.slice(i, a);
        const f = Number(text.slice(a + 1, b));
        let p = text.slice(b + 1, e);
        if (p.endsWith('\r')) p = p.slice(0, -1);
        let t = tagIndex.get(p);
        if (t === undefined) { t = tags.length < 63 ? tags.length : 63; tagIndex.set(p, t); if (tags.length < 63) tags.push(p); }
        m.set(w, f * 64 + t);
        total += f;
        if (p === 'i' && f >= 3 && w.length === 4) this.idioms.push(w);
      }
      i = e + 1;
    }
    this.total = total;
    this.freq = new FreqView(m);
    this.pos = new PosView(m, tags);
  }
}

/** Word list with part-of-speech tags from @node-rs/jieba's dict.txt (MIT). */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export class JiebaDict {
  /** word -> [freq, pos] */
  readonly pos = new Map<string, string>();
  readonly freq = new Map<string, number>();
  readonly idioms: string[] = [];
  constructor() {
    const require = createRequire(import.meta.url);
    const dir = path.dirname(require.resolve('@node-rs/jieba/package.json'));
    const text = readFileSync(path.join(dir, 'dict.txt'), 'utf8');
    let i = 0;
    while (i < text.length) {
      let e = text.indexOf('\n', i);
      if (e < 0) e = text.length;
      const line = text.slice(i, e);
      i = e + 1;
      const a = line.indexOf(' ');
      const b = line.indexOf(' ', a + 1);
      if (a < 0 || b < 0) continue;
      const w = line.slice(0, a);
      const f = Number(line.slice(a + 1, b));
      const p = line.slice(b + 1).trim();
      this.pos.set(w, p);
      this.freq.set(w, f);
      if (p === 'i' && w.length === 4 && f >= 3) this.idioms.push(w);
    }
  }
}

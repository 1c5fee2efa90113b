/**
 * Shape-similar character pairs: shape.txt (derived from glyph bitmaps of Noto Sans CJK) or components.txt
 * (characters built around a shared component, from the CJK Decomposition Data); see NOTICE.md.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { dataDir } from './lm';

export class ShapeTable {
  private pairs = new Map<string, string>();
  constructor(name = 'shape.txt') {
    const file = path.join(dataDir, name);
    if (!existsSync(file)) return;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line) continue;
      const [ch, sims] = line.split(' ');
      this.pairs.set(ch, sims);
    }
  }
  similar(a: string, b: string): boolean {
    const x = this.pairs.get(a);
    if (x && x.includes(b)) return true;
    const y = this.pairs.get(b);
    return !!y && y.includes(a);
  }
  neighbours(a: string): string {
    return this.pairs.get(a) ?? '';
  }
}

/** Word list with counts and part-of-speech tags: jieba's dict.txt (MIT), committed as lexicon/jieba-dict.txt.gz. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { dataDir } from './lm';
import { StrIndex, StrList, type ImageReader, type ImageWriter } from './image';

/** read-only view: word -> count */
class FreqView {
  constructor(
    private index: StrIndex,
    private vals: Int32Array,
  ) {}
  get(w: string): number | undefined {
    return this.getRange(w, 0, w.length);
  }
  /** get(s.slice(from, to)) without making the string */
  getRange(s: string, from: number, to: number): number | undefined {
    const i = this.index.findRange(s, from, to);
    return i < 0 ? undefined : Math.floor(this.vals[i] / 64);
  }
  has(w: string) {
    return this.index.find(w) >= 0;
  }
  get size() {
    return this.index.size;
  }
  *[Symbol.iterator](): IterableIterator<[string, number]> {
    const keys = this.index.keys;
    for (let i = 0; i < keys.length; i++) yield [keys.at(i), Math.floor(this.vals[i] / 64)];
  }
  *values(): IterableIterator<number> {
    for (let i = 0; i < this.vals.length; i++) yield Math.floor(this.vals[i] / 64);
  }
}

/** read-only view: word -> POS tag */
class PosView {
  constructor(
    private index: StrIndex,
    private vals: Int32Array,
    private tags: string[],
  ) {}
  get(w: string): string | undefined {
    const i = this.index.find(w);
    return i < 0 ? undefined : this.tags[this.vals[i] % 64];
  }
}

export class JiebaDict {
  readonly freq: FreqView;
  readonly pos: PosView;
  /** jieba's four-character idioms (tag i, seen three times or more) */
  get idioms(): string[] {
    return (this.idiomList ??= [...(this.idiomStore ?? [])]);
  }
  private idiomList: string[] | null = null;
  private idiomStore: StrList | null = null;
  readonly total: number;
  private index: StrIndex;
  /** per word: count * 64 + tag index */
  private vals: Int32Array;
  private tags: string[];

  /** img: the table as saved in an engine image (see save); else parsed from the text */
  constructor(img: { r: ImageReader; p: string } | null = null) {
    if (img) {
      const { r, p } = img;
      this.index = StrIndex.read(r, `${p}.words`);
      this.vals = r.i32(`${p}.vals`);
      const meta = StrList.read(r, `${p}.meta`);
      this.total = Number(meta.at(0));
      this.tags = [...meta].slice(1);
      this.idiomStore = StrList.read(r, `${p}.idioms`);
    } else {
      const text = gunzipSync(readFileSync(path.join(dataDir, 'jieba-dict.txt.gz'))).toString('utf8');
      const m = new Map<string, number>();
      const tags: string[] = [];
      const tagIndex = new Map<string, number>();
      const idioms: string[] = (this.idiomList = []);
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
          if (t === undefined) {
            t = tags.length < 63 ? tags.length : 63;
            tagIndex.set(p, t);
            if (tags.length < 63) tags.push(p);
          }
          if (f * 64 + t > 0x7fffffff) throw new Error(`jieba count of ${w} too large`);
          m.set(w, f * 64 + t);
          total += f;
          if (p === 'i' && f >= 3 && w.length === 4) idioms.push(w);
        }
        i = e + 1;
      }
      this.total = total;
      this.tags = tags;
      this.index = StrIndex.build(StrList.from([...m.keys()]));
      this.vals = Int32Array.from(m.values());
    }
    this.freq = new FreqView(this.index, this.vals);
    this.pos = new PosView(this.index, this.vals, this.tags);
  }

  save(w: ImageWriter, p: string) {
    this.index.save(w, `${p}.words`);
    w.put(`${p}.vals`, this.vals);
    StrList.from([String(this.total), ...this.tags]).save(w, `${p}.meta`);
    StrList.from(this.idioms).save(w, `${p}.idioms`);
  }
}

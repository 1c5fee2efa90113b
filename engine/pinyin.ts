/** Pinyin readings (derived from pinyin-pro, see NOTICE.md) and sound-confusion sets. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { dataDir } from './lm';
import { FrozenLists, type ImageReader, type ImageWriter } from './image';

const FUZZY_INITIALS: Array<[string, string]> = [
  ['zh', 'z'],
  ['ch', 'c'],
  ['sh', 's'],
  ['n', 'l'],
  ['l', 'r'],
  ['f', 'h'],
];
const FUZZY_FINALS: Array<[string, string]> = [
  ['ang', 'an'],
  ['eng', 'en'],
  ['ing', 'in'],
  ['iang', 'ian'],
  ['uang', 'uan'],
];

export function splitSyllable(s: string): [string, string] {
  const m = /^(zh|ch|sh|[bpmfdtnlgkhjqxrzcsyw])?(.*)$/.exec(s)!;
  return [m[1] ?? '', m[2]];
}

/** syllables (no tone) that sound alike but are not equal */
export function fuzzyVariants(syl: string): string[] {
  const [ini, fin] = splitSyllable(syl);
  const inis = new Set([ini]);
  for (const [a, b] of FUZZY_INITIALS) {
    if (ini === a) inis.add(b);
    if (ini === b) inis.add(a);
  }
  const fins = new Set([fin]);
  for (const [a, b] of FUZZY_FINALS) {
    if (fin === a) fins.add(b);
    if (fin === b) fins.add(a);
  }
  const out: string[] = [];
  for (const i of inis)
    for (const f of fins) {
      const s = i + f;
      if (s !== syl) out.push(s);
    }
  return out;
}

export class PinyinTable {
  /** char -> readings with tone digit, e.g. zhong1 */
  readonly readings: FrozenLists;
  /** toneless syllable -> chars */
  readonly bySyllable: FrozenLists;

  /** img: the tables as saved in an engine image (see save); else read from pinyin.txt */
  constructor(img: { r: ImageReader; p: string } | null = null) {
    if (img) {
      this.readings = FrozenLists.read(img.r, `${img.p}.readings`, ' ');
      this.bySyllable = FrozenLists.read(img.r, `${img.p}.bySyllable`, '');
      return;
    }
    const readings = new Map<string, string[]>();
    const bySyllable = new Map<string, string[]>();
    const text = readFileSync(path.join(dataDir, 'pinyin.txt'), 'utf8');
    for (const line of text.split('\n')) {
      if (!line) continue;
      const parts = line.split(' ');
      const ch = parts[0];
      const rs = parts.slice(1);
      readings.set(ch, rs);
      const seen = new Set<string>();
      for (const r of rs) {
        const syl = r.slice(0, -1);
        if (seen.has(syl)) continue;
        seen.add(syl);
        let arr = bySyllable.get(syl);
        if (!arr) bySyllable.set(syl, (arr = []));
        arr.push(ch);
      }
    }
    this.readings = FrozenLists.build(readings, ' ');
    this.bySyllable = FrozenLists.build(bySyllable, '');
  }

  save(w: ImageWriter, p: string) {
    this.readings.save(w, `${p}.readings`);
    this.bySyllable.save(w, `${p}.bySyllable`);
  }

  /**
   * Sound relation between two characters: 3 same syllable and tone, 2 same syllable,
   * 1 fuzzy (z/zh, n/l, -n/-ng ...), 0 none.
   */
  relation(a: string, b: string): number {
    const ra = this.readings.get(a);
    const rb = this.readings.get(b);
    if (!ra || !rb) return 0;
    let best = 0;
    for (const x of ra) {
      for (const y of rb) {
        if (x === y) return 3;
        const sx = x.slice(0, -1);
        const sy = y.slice(0, -1);
        if (sx === sy) best = Math.max(best, 2);
        else if (best < 1 && fuzzyVariants(sx).includes(sy)) best = 1;
      }
    }
    return best;
  }

  /** some readings of a and b rhyme (same final, another initial: 苦 kǔ / 骨 gǔ), near in sound beyond the fuzzy pairs */
  rhymes(a: string, b: string): boolean {
    const ra = this.readings.get(a) ?? [];
    const rb = this.readings.get(b) ?? [];
    // the final as heard: u after j/q/x/y is ü (去 qù does not rhyme with 出 chū)
    const fin = (r: string) => {
      const [i, f] = splitSyllable(r.slice(0, -1));
      return i && 'jqxy'.includes(i) && f.startsWith('u') ? 'v' + f.slice(1) : f;
    };
    return ra.some((x) => rb.some((y) => fin(x) === fin(y)));
  }

  /** display form, e.g. zhong1 -> zhōng */
  pretty(ch: string): string {
    const rs = this.readings.get(ch);
    if (!rs) return '';
    return rs.slice(0, 2).map(toneMark).join('/');
  }
}

const MARKS: Record<string, string[]> = {
  a: ['ā', 'á', 'ǎ', 'à'],
  e: ['ē', 'é', 'ě', 'è'],
  i: ['ī', 'í', 'ǐ', 'ì'],
  o: ['ō', 'ó', 'ǒ', 'ò'],
  u: ['ū', 'ú', 'ǔ', 'ù'],
  v: ['ǖ', 'ǘ', 'ǚ', 'ǜ'],
};
export function toneMark(r: string): string {
  const tone = Number(r.slice(-1));
  let s = r.slice(0, -1);
  if (tone >= 1 && tone <= 4) {
    let idx = s.search(/[ae]/);
    if (idx < 0) idx = s.indexOf('ou');
    if (idx < 0) {
      for (let i = s.length - 1; i >= 0; i--)
        if ('iouv'.includes(s[i])) {
          idx = i;
          break;
        }
    }
    if (idx >= 0) s = s.slice(0, idx) + MARKS[s[idx]][tone - 1] + s.slice(idx + 1);
  }
  return s.replace(/v/g, 'ü');
}

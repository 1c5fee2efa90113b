import { describe, expect, it } from 'vitest';
import { HashFilter, mix32 } from '../../engine/image';
import { engineParts, loadEngine } from '../../engine/index';
import { RowFilter } from '../../engine/lm';

/** a deterministic stream of 32-bit numbers (xorshift) */
function numbers(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
}

/**
 * The engine's hot lookups ask filters first and skip the search on "not there": a filter must never say "not
 * there" for a key it holds (that would change the engine's answers), and it must say it for most keys it lacks
 * (or it saves nothing).
 */
describe('engine filters', () => {
  it('a hash filter holds every key added and turns away most others', () => {
    const next = numbers(7);
    const keys = new Set<number>();
    while (keys.size < 20000) keys.add(mix32(next()));
    const f = HashFilter.sized(keys.size);
    for (const k of keys) f.add(k);
    for (const k of keys) expect(f.has(k)).toBe(true);
    let maybe = 0,
      asked = 0;
    while (asked < 100000) {
      const k = mix32(next());
      if (keys.has(k)) continue;
      asked++;
      if (f.has(k)) maybe++;
    }
    // twelve bits per key, two bits in one word: about 3 % of absent keys pass
    expect(maybe / asked).toBeLessThan(0.06);
  });

  it('a row filter holds every pair of its rows and turns away most others', () => {
    // rows of very different lengths, as a language model's contexts have: many short, a few of thousands
    const next = numbers(11);
    const lengths = Array.from({ length: 3000 }, (_, a) => (a % 500 === 0 ? 4000 : next() % 9));
    const row = new Uint32Array(lengths.length + 1);
    lengths.forEach((n, a) => (row[a + 1] = row[a] + n));
    const col = new Uint32Array(row[lengths.length]);
    const pairs = new Set<string>();
    for (let a = 0; a < lengths.length; a++) {
      const bs = new Set<number>();
      while (bs.size < lengths[a]) bs.add(next() % 200000);
      [...bs].sort((x, y) => x - y).forEach((b, k) => (col[row[a] + k] = b));
      for (const b of bs) pairs.add(`${a} ${b}`);
    }
    const f = RowFilter.build(row, col);
    for (let a = 0; a < lengths.length; a++)
      for (let k = row[a]; k < row[a + 1]; k++) expect(f.has(a, col[k])).toBe(true);
    let maybe = 0,
      asked = 0;
    while (asked < 100000) {
      const a = next() % lengths.length,
        b = next() % 200000;
      if (pairs.has(`${a} ${b}`)) continue;
      asked++;
      if (f.has(a, b)) maybe++;
    }
    expect(maybe / asked).toBeLessThan(0.06);
    // the filter is sized by its pairs: twelve bits each
    expect(f.bits.length).toBeLessThanOrEqual(Math.floor((col.length * 3) / 8) + 1);
  });

  it("a model's scores do not depend on what it was asked before (its n-gram memos)", () => {
    loadEngine();
    const { lm, lm2 } = engineParts();
    const texts = [
      '我们今天下午在会议室讨论了明年的工作计划',
      '画龙点晴的一笔让整篇文章生色不少',
      '经济社会发展取得新的重大成就',
    ];
    for (const m of [lm, lm2!]) {
      const first = texts.map((t) => m.score(t));
      // far more n-grams than the memos hold (4,096 each), so every slot is taken over by other keys
      const next = numbers(3);
      const chars =
        '的一是了我不人在他有这个上们来到时大地为子中你说生国年着就那和要她出也得里后自以会家可下而过天去能对' +
        '小多然于心学么之都好看起发当没成只如事把还用第样道想作种开美总从无情己面最女但现前些所同日手又行意动' +
        '方期它头经长儿回位分爱老因很给名法间斯知世什两次使身者被高已亲其进此话常与活正感';
      for (let k = 0; k < 3000; k++) {
        let t = '';
        for (let j = 0; j < 8; j++) t += chars[next() % chars.length];
        m.score(t);
      }
      expect(texts.map((t) => m.score(t))).toEqual(first);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { engineParts, loadEngine } from '../../engine/index';
import type { LanguageModel } from '../../engine/lm';

/**
 * The speller scores every candidate in its window with scoreSub, which reuses the lattice left of the candidate:
 * it must give exactly what scoring the edited string gives, for both models, wherever the window and the place are.
 */
describe('language model windows', () => {
  const texts = [
    '我们今天下午在会议室讨论了明年的工作计划，大家都很积极。',
    '画龙点晴的一笔让整篇文章生色不少，读者纷纷叫好。',
    // rare and unknown characters: a start with no word inside the prefix is worked out whole
    '㐀㐁㐂他说䶵䶶这件事情已经办妥了，请放心。',
    '扣人心旋的故事情节吸引了很多人的注意',
  ];
  const candidates = '的地得在再做作已以到道人认入天田';

  const check = (lm: LanguageModel) => {
    let compared = 0;
    for (const s of texts) {
      for (let i = 0; i < s.length; i++) {
        for (const [lo, hi] of [
          [Math.max(0, i - 4), Math.min(s.length, i + 5)],
          [Math.max(0, i - 2), Math.min(s.length, i + 3)],
          [0, s.length],
        ]) {
          // the original character first (the speller's base), then candidates at the same place
          for (const c of s[i] + candidates) {
            const expected = lm.score(s.slice(lo, i) + c + s.slice(i + 1, hi));
            expect(lm.scoreSub(s, lo, hi, i, c.charCodeAt(0)), `${s} @${i} [${lo},${hi}) ${c}`).toBe(expected);
            compared++;
          }
        }
      }
    }
    return compared;
  };

  it('scoreSub equals scoring the edited text, for both models', () => {
    loadEngine();
    const { lm, lm2 } = engineParts();
    expect(check(lm)).toBeGreaterThan(3000);
    expect(lm2).not.toBeNull();
    expect(check(lm2!)).toBeGreaterThan(3000);
  });

  it("inBaseRange and the dictionary's getRange answer as the slices do", () => {
    loadEngine();
    const { lm, dict } = engineParts();
    let words = 0;
    for (const s of texts)
      for (let st = 0; st < s.length; st++)
        for (let L = 1; L <= 5 && st + L <= s.length; L++) {
          const w = s.slice(st, st + L);
          expect(lm.inBaseRange(s, st, st + L), w).toBe(lm.inBase(w));
          expect(dict.freq.getRange(s, st, st + L), w).toBe(dict.freq.get(w));
          if (lm.inBase(w) && L > 1) words++;
        }
    expect(words).toBeGreaterThan(20);
  });

  it('a place outside the window leaves the text as it is', () => {
    loadEngine();
    const { lm } = engineParts();
    const s = texts[0];
    expect(lm.scoreSub(s, 3, 9, 12, '的'.charCodeAt(0))).toBe(lm.score(s, 3, 9));
    expect(lm.scoreSub(s, 3, 9, 3, '的'.charCodeAt(0))).toBe(lm.score('的' + s.slice(4, 9)));
    expect(lm.scoreSub(s, 5, 5, 5, '的'.charCodeAt(0))).toBe(0);
  });
});

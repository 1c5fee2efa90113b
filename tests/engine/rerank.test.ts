import { describe, it, expect } from 'vitest';
import { trainLinear, rerankScore } from '../../engine/rerank';
import { LanguageModel } from '../../engine/lm';
import { loadEngine } from '../../engine/index';
import { readFileSync } from 'node:fs';
import { check } from '../../engine/index';
import { MODE3, MODE4, FEATURE_NAMES, G2_SLACK, rerankFeatures, setSpellTrace } from '../../engine/spell';

describe('spelling reranker', () => {
  it('trainLinear separates a synthetic two-feature problem and scores with rerankScore', () => {
    // y = 1 when the second feature is large; the third feature is noise
    const X: number[][] = [];
    const y: number[] = [];
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let n = 0; n < 2000; n++) {
      const a = rnd() * 4 - 2,
        noise = rnd();
      X.push([1, a, noise]);
      y.push(a + (rnd() - 0.5) * 0.5 > 0.5 ? 1 : 0);
    }
    const m = trainLinear(X, y, ['bias', 'a', 'noise'], 0.1);
    expect(m.weights[1]).toBeGreaterThan(2);
    expect(Math.abs(m.weights[2])).toBeLessThan(Math.abs(m.weights[1]) / 4);
    expect(rerankScore(m, [1, 1.5, 0.5])).toBeGreaterThan(0);
    expect(rerankScore(m, [1, -1, 0.5])).toBeLessThan(0);
    // a shorter (first-stage) model reads only its own prefix of the features
    expect(rerankScore({ features: ['bias'], weights: [2] }, [1, 100, 100])).toBe(2);
  });

  it('the committed models load for both modes, with the first stage and the full model', () => {
    loadEngine();
    for (const P of [MODE3, MODE4]) {
      expect(P.model?.weights.length).toBe(FEATURE_NAMES.length);
      expect(P.model?.features).toEqual(FEATURE_NAMES);
      expect(P.prefilter?.weights.length).toBe(FEATURE_NAMES.indexOf('lm2:g4'));
      for (const w of [...P.model!.weights, ...P.prefilter!.weights]) expect(Number.isFinite(w)).toBe(true);
    }
    // more evidence scores higher: a larger gain of either language model raises the score
    const base = {
      g4: 4,
      g2: 4,
      h4: 4,
      h2: 4,
      rel: 'same-tone' as const,
      free: false,
      candL: 2,
      origL: 0,
      uO: 8,
      uC: 8,
      inWord: false,
      known: false,
      nCands: 2,
      edge: false,
      lead: 4,
      ddd: false,
    };
    const s = (o: Partial<typeof base>) => rerankScore(MODE3.model!, rerankFeatures({ ...base, ...o }));
    expect(s({ h4: 8, h2: 8 })).toBeGreaterThan(s({}));
    expect(s({ g4: 8, g2: 8 })).toBeGreaterThan(s({}));
  });

  it('skips the ±2 window only where the first stage cannot pass: the findings are those of full scoring', () => {
    loadEngine();
    // the first stage's score never falls as the ±2 gain rises, so the largest gain allowed bounds it
    const base = {
      g4: 3,
      g2: 0,
      h4: 0,
      h2: 0,
      rel: 'same' as const,
      free: false,
      candL: 2,
      origL: 2,
      uO: 8,
      uC: 9,
      inWord: true,
      known: false,
      nCands: 4,
      edge: false,
      lead: 1,
      ddd: false,
    };
    for (const P of [MODE3, MODE4])
      for (const g4 of [-6, 0, 3, 9])
        for (let g2 = -20; g2 < 30; g2 += 2.5) {
          const at = (v: number) => rerankScore(P.prefilter!, rerankFeatures({ ...base, g4, g2: v }));
          expect(at(g2 + 2.5)).toBeGreaterThanOrEqual(at(g2));
        }
    // a training trace scores every candidate in full: the candidates the first stage passes there stay within the
    // bound on committed sentences, and the findings are those of the shortcut
    const sentences = ['own/spelling.tsv', 'native/errors.tsv'].flatMap((f) =>
      readFileSync(new URL(`../../engine/bench/${f}`, import.meta.url), 'utf8')
        .split('\n')
        .filter((l) => l && !l.startsWith('#'))
        .map((l) => l.split('\t')[1]),
    );
    for (const mode of [3, 4] as const) {
      const shortcut = sentences.map((t) => JSON.stringify(check(t, { mode })));
      let passed = 0,
        most = -Infinity;
      setSpellTrace((r) => {
        if (r.score === -Infinity) return;
        passed++;
        most = Math.max(most, (r.x[2] - r.x[1]) * 10);
      });
      try {
        const full = sentences.map((t) => JSON.stringify(check(t, { mode })));
        expect(full).toEqual(shortcut);
      } finally {
        setSpellTrace(null);
      }
      expect(passed).toBeGreaterThan(50);
      expect(most).toBeLessThanOrEqual(G2_SLACK);
    }
  });

  it('the second language model (libime) scores well-formed text lower than its misspelling', () => {
    const lm2 = new LanguageModel({ bin: 'lm2.bin.gz', vocab: 'lm2-vocab.txt.gz', tri: 'lm2-3.bin.gz' });
    expect(lm2.vocabSize).toBeGreaterThan(160000);
    for (const [good, bad] of [
      ['我们讨论这个问题', '我们讨论这个问提'],
      ['他的成绩很好', '他的成积很好'],
      ['中华人民共和国', '中华人名共和国'],
    ]) {
      expect(lm2.score(good)).toBeLessThan(lm2.score(bad) - 3);
    }
    // trigram contexts over 131,072 words use the wider key (CSL3 version 2): the stored trigram is found
    const id = (w: string) => lm2.id(w);
    expect(id('中华')).toBeGreaterThan(0);
    expect(lm2.tri(id('中华'), id('人民'), id('共和国'))).toBeLessThan(0.2);
    expect(lm2.bi(id('人民'), id('共和国'))).toBeGreaterThan(lm2.tri(id('中华'), id('人民'), id('共和国')) + 0.5);
  });
});

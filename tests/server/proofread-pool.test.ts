import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckerPool } from '../../server/workers/checker/pool';

let pool: CheckerPool;
beforeAll(async () => {
  pool = new CheckerPool({ workers: 1 }, process.env.WORKER_BUNDLE_DIR);
  await pool.ready();
}, 60_000);
afterAll(async () => pool.close());

describe('checker worker pool', () => {
  it('checks in a worker and keeps a dictionary by key after sending it once', async () => {
    const dict = {
      key: 'u1:a',
      value: { wrongWords: [{ word: '萍果', correct: '苹果', source: 'personal' as const }] },
    };
    const first = await pool.check('本公司的萍果很好吃。', { mode: 3 }, 'g1', dict);
    expect(first).toEqual([expect.objectContaining({ start: 4, end: 6, suggestions: ['苹果'], type: 5 })]);
    // second time the pool sends only the key; the worker still applies the dictionary
    const second = await pool.check('他买了萍果。', { mode: 3 }, 'g1', dict);
    expect(second).toEqual([expect.objectContaining({ start: 3, end: 5, type: 5 })]);
    const without = await pool.check('他买了萍果。', { mode: 3 }, 'g1');
    expect(without.some((i) => i.type === 5)).toBe(false);
  });

  it('takes tasks round-robin across groups, so a short check is not stuck behind a long one', async () => {
    const order: string[] = [];
    const long = Array.from({ length: 12 }, (_, n) =>
      pool.check(`第${n}段：我们今天讨论了下一阶段的工作安排。`, {}, 'long').then(() => order.push(`long${n}`)),
    );
    const short = pool.check('短的检查。', {}, 'short').then(() => order.push('short'));
    await Promise.all([...long, short]);
    expect(order.indexOf('short')).toBeLessThan(3);
  });

  it('cancels the queued tasks of a group', async () => {
    const tasks = Array.from({ length: 8 }, (_, n) => pool.check(`第${n}段：取消测试的文字内容。`, {}, 'cancel-me'));
    const cancelled = pool.cancelGroup('cancel-me');
    expect(cancelled).toBeGreaterThanOrEqual(6);
    const settled = await Promise.allSettled(tasks);
    expect(settled.filter((s) => s.status === 'rejected')).toHaveLength(cancelled);
  });
});

describe('checker workers share one engine image', () => {
  it('the first worker loads the lexicons; the others view its buffer instead of loading their own', async () => {
    const three = new CheckerPool({ workers: 3 }, process.env.WORKER_BUNDLE_DIR);
    try {
      await three.ready();
      // the others start once the first is ready; each takes a check when it is
      const texts = Array.from({ length: 9 }, (_, n) => `第${n}段：他的发言真是画龙点晴。`);
      const results = await Promise.all(texts.map((t) => three.check(t, { mode: 3 })));
      for (const r of results) expect(r.map((i) => i.suggestions[0])).toContain('画龙点睛');
      for (let waited = 0; three.status().ready < 3 && waited < 30_000; waited += 100)
        await new Promise((r) => setTimeout(r, 100));
      const status = three.status();
      expect(status.ready).toBe(3);
      expect(status.sources.filter((s) => s === 'shared')).toHaveLength(2);
      expect(status.imageBytes).toBeGreaterThan(30 * 1048576);
    } finally {
      await three.close();
    }
  }, 90_000);
});

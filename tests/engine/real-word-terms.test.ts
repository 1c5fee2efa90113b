/**
 * Precision kinds of engine/rules/precision.ts measured on the real-document and learner benches: a real-word change
 * inside a word of the text needs a sure speller in mode 3, an ASCII full stop ends the clause of the preposition 在,
 * and a verb after 在 that ends like a place word (加上) closes no place phrase. All sentences are written for these
 * tests.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { check, engineParts, loadEngine } from '../../engine/index';
import { prepositionFrame, setPrecisionGuards } from '../../engine/rules/precision';
import { apply, expectWellFormed } from './helpers';

beforeAll(() => {
  loadEngine();
}, 120_000);

afterEach(() => setPrecisionGuards(true));

/** the typo-category findings (0-7) of text in a mode, with the guards on or off */
function typos(text: string, mode: 3 | 4, guards = true) {
  setPrecisionGuards(guards);
  const issues = check(text, { mode });
  setPrecisionGuards(true);
  expectWellFormed(text, issues);
  return issues.filter((i) => /^[0-7]$/.test(i.category)).map((i) => `${i.original}→${i.suggestions[0] ?? ''}`);
}

describe('a real-word change inside a word of the text needs a sure speller in mode 3', () => {
  it.each([
    ['任一字符都可以用作分隔符。', '一→意'],
    ['这些文件都作为保存公共程序的库使用。', '程→秩'],
  ])('leaves %s alone in mode 3 (flagged without the guards)', (text, finding) => {
    expect(typos(text, 3, false)).toContain(finding);
    expect(typos(text, 3)).not.toContain(finding);
  });
  it('keeps a sure real-word change (改变 → 改编)', () => {
    const text = '这部电影改变自一部同名小说。';
    expect(apply(text, check(text, { mode: 3 }))).toBe('这部电影改编自一部同名小说。');
  });
  it('keeps a homophone of the same tone, a variant spelling (联接 → 连接)', () => {
    const text = '请检查网络联接是否正常。';
    expect(typos(text, 3)).toContain('联→连');
  });
  it('leaves mode 4 as it was', () => {
    const text = '任一字符都可以用作分隔符。';
    expect(typos(text, 4)).toEqual(typos(text, 4, false));
  });
});

describe('the clause of the preposition 在', () => {
  it('ends at an ASCII full stop before a space or a Chinese character', () => {
    const text = '该选项不在提供. 在开始前请先备份';
    expect(prepositionFrame(text, text.indexOf('在'))).toBe(false);
    expect(prepositionFrame('该选项不在提供.在开始前请先备份', 4)).toBe(false);
  });
  it('does not end at a full stop inside a number or a file name', () => {
    expect(prepositionFrame('在3.5版之前', 0)).toBe(true);
    expect(prepositionFrame('在ls.1文件中', 0)).toBe(true);
  });
  it('is closed by no verb ending like a place word right after 在 (在加上)', () => {
    const dict = engineParts().dict;
    expect(prepositionFrame('在加上房东对我很好', 0, dict)).toBe(false);
    expect(prepositionFrame('在桌上放着书', 0, dict)).toBe(true);
    expect(prepositionFrame('在考上大学之后', 0, dict)).toBe(true);
  });
  it('mends 在加上 for 再加上 and keeps 在桌上', () => {
    const text = '房间很大，在加上房东对我很好，我很满意。';
    for (const mode of [3, 4] as const) expect(apply(text, check(text, { mode }))).toBe(text.replace('在加', '再加'));
    expect(typos('书在桌上放着，你自己拿。', 3)).not.toContain('在→再');
  });
});

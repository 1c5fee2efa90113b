/**
 * Kinds of wrong findings seen on published documents (engine/rules/precision.ts, measured by the real-document
 * bench). Each kind: text the engine flagged before the guard (checked with the guards off, so the test shows the kind
 * is real), left alone now, and, where the kind has a real error, that error still mended. All sentences are written
 * for these tests.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { check, engineParts, loadEngine } from '../../engine/index';
import { afterLatin, falseKind, setPrecisionGuards } from '../../engine/rules/precision';
import type { Issue } from '../../engine/types';
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

/** text flagged with the guards off is left alone with them on, in both modes */
function guarded(text: string, finding: string) {
  expect(typos(text, 4, false)).toContain(finding);
  for (const mode of [3, 4] as const) expect(typos(text, mode)).not.toContain(finding);
}

function mends(text: string, fixed: string) {
  for (const mode of [3, 4] as const) expect(apply(text, check(text, { mode }))).toBe(fixed);
}

describe('the preposition 在 is no 再 where its phrase closes later in the clause', () => {
  it.each([
    ['设置为 2 时，在用命令调用任何函数的时候输出一行跟踪。'],
    ['在一次连接关闭之后卸载文件系统。'],
    ['并且不在花括号之间时按空格分词。'],
  ])('leaves %s alone', (text) => guarded(text, '在→再'));
  it('still mends 在 for 再 with no place or time phrase', () => {
    mends('你别在说了，我都明白。', '你别再说了，我都明白。');
  });
});

describe('哪 before a measure word asks an embedded question', () => {
  it('leaves 修改哪些权限位 alone', () => guarded('管理员可以修改哪些权限位。', '哪→那'));
});

describe('a grammatical character before a word the text makes is not fused into another word', () => {
  it('leaves 是作为 alone', () => guarded('这个表是作为临时表创建的。', '是→示'));
  it('still mends 是 for 适 where no word follows', () => {
    mends('他的身体状况不是合参加比赛。', '他的身体状况不适合参加比赛。');
  });
});

describe('a missing character mends a broken word, it does not widen good text', () => {
  it('never supplies a negation outside an idiom', () => guarded('连接时并需要提供口令。', '并需要→并不需要'));
  it.each([
    ['从串行线中读入字符。', '串行线→串行总线'],
    ['读操作阻塞时返回错误。', '读操作→读写操作'],
  ])('leaves %s alone', (text, finding) => guarded(text, finding));
  it('leaves a form the text writes twice alone (a term of the text)', () => {
    expect(typos('这个选项用来关掉一个服务项。', 3)).toContain('服务项→服务项目');
    guarded('这个选项用来关掉一个服务项。关掉的服务项不再接受连接。', '服务项→服务项目');
  });
  it('still mends an idiom and a common word missing a character', () => {
    mends('商品一上市，一度供不求。', '商品一上市，一度供不应求。');
    mends('面对困难，我们要迎难而，勇往直前。', '面对困难，我们要迎难而上，勇往直前。');
    mends('安装程序会自动检测操作统的版本。', '安装程序会自动检测操作系统的版本。');
  });
});

describe('a swap the models barely prefer reads across a word boundary', () => {
  it.each([
    ['如果后面已没有制表位则跳至行尾。', '至行→行至'],
    ['在调用程序前会先检查用户名。', '前会→会前'],
    ['首先在已定义的段中搜索。', '段中→中段'],
  ])('leaves %s alone', (text, finding) => guarded(text, finding));
  it('still mends a swapped word', () => {
    mends('请将据数库的备份文件发给我。', '请将数据库的备份文件发给我。');
  });
});

describe('a common word is not replaced by another word', () => {
  it('leaves 它指示一个转换的开始 alone', () => guarded('遇到百分号时，它指示一个转换的开始。', '指示→只是'));
});

describe('a compound after a Latin or numeric token is the writer’s', () => {
  // the models see no left context there; the engine flags no such compound today, so the guard is checked directly
  const issue = (start: number, original: string, cand: string, id: 'spell.same' | 'spell.shape'): Issue => ({
    start,
    end: start + 1,
    original,
    suggestions: [cand],
    category: id === 'spell.same' ? '1' : '5',
    level: 1,
    message: '',
    note: { id, args: { orig: original, cand, a: original, pa: '', b: cand, pb: '' } },
  });
  const lex = () => {
    const e = engineParts();
    return { lm: e.lm, dict: e.dict, isWord: (w: string) => e.nonword.isWord(w), known: (w: string) => e.lm.has(w) };
  };
  it('drops a change of the character right after the token', () => {
    expect(afterLatin('按Alt键切换', 4)).toBe(true);
    expect(afterLatin('型号是 10base2 (细缆)', 13)).toBe(true);
    expect(falseKind(lex(), '按Alt键切换窗口。', issue(4, '键', '件', 'spell.same'))).toBe(true);
  });
  it('keeps a change further on (编号A1B2问提: 提 → 题)', () => {
    expect(afterLatin('编号A1B2问提', 7)).toBe(false);
    expect(falseKind(lex(), '编号A1B2问提。', issue(7, '提', '题', 'spell.same'))).toBe(false);
    mends('编号A1B2问提，请核对。', '编号A1B2问题，请核对。');
  });
});

describe('a preposition doubled across two words is no doubling', () => {
  it('leaves 可以以受控的方式 alone', () => guarded('段落缩进可以以受控的方式构造出来。', '以以→以'));
  it('still mends a doubled preposition or a doubled character after a word', () => {
    mends('这次是该乐团首次在在国内演出。', '这次是该乐团首次在国内演出。');
    mends('我们将竭尽全力力，确保交付。', '我们将竭尽全力，确保交付。');
  });
});

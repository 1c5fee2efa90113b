/**
 * Native writers' slips the first native set had few of: a wrong character in an idiom that makes a word with its
 * neighbour, a measure word doubled after a numeral, a word written reversed where the reverse is a word too,
 * 的 before a comparison complement, and findings that meet inside one word, which must together give one correct
 * text. Each has text that must be fixed and correct text that must be left alone. All sentences are written for
 * these tests.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { check, loadEngine } from '../../engine/index';
import { fix } from './helpers';

beforeAll(() => {
  loadEngine();
}, 120_000);

describe('findings that meet make one correct sentence', () => {
  it('two substitutions mending halves of one word: only the one the context wants stays', () => {
    // 蜿→蔓 and 延→蜒 each make a word (蔓延, 蜿蜒); both applied make 蔓蜒
    const { out, issues } = fix('小路沿着山坡蜿延而上，两旁开满了野花。');
    expect(out).toBe('小路沿着山坡蜿蜒而上，两旁开满了野花。');
    expect(issues).toHaveLength(1);
  });
  it.each(['大火迅速蔓延，浓烟笼罩了整条街道。', '远处是蜿蜒起伏的群山。'])('leaves %s alone', (text) => {
    expect(check(text)).toEqual([]);
  });
});

describe('one numeral for another is no slip', () => {
  it.each(['这次讲座共吸引了两千余名学生到场。', '该厂去年生产汽车三千辆。'])('leaves %s alone', (text) => {
    expect(check(text).filter((i) => i.original.length === 1 && /[十百千万]/.test(i.original))).toEqual([]);
  });
  it('a doubled particle before an amount is mended without touching the amount', () => {
    expect(fix('这次讲座共吸引了了两千余名学生到场。').out).toBe('这次讲座共吸引了两千余名学生到场。');
  });
});

describe('a measure word doubled after a numeral other than 一', () => {
  it.each([
    ['学校今年招收新生五千个个，比去年多一成。', '学校今年招收新生五千个，比去年多一成。'],
    ['仓库里存放着三百台台设备。', '仓库里存放着三百台设备。'],
  ])('%s', (text, right) => {
    expect(fix(text).out).toBe(right);
  });
  it.each(['一台台设备整齐地排列在车间里。', '村里有两个个体户。', '问题一个个都解决了。'])(
    'leaves %s alone',
    (text) => {
      expect(check(text)).toEqual([]);
    },
  );
});

describe('a two-character word written reversed, the reverse a word too', () => {
  it.each([
    ['看到这一幕，她的中心充满了喜悦。', '看到这一幕，她的心中充满了喜悦。'],
    ['请按时改修系统配置文件。', '请按时修改系统配置文件。'],
  ])('%s', (text, right) => {
    const { out, issues } = fix(text);
    expect(out).toBe(right);
    expect(issues[0].category).toBe('7');
  });
  it.each(['新的体育中心将于年底建成。', '请在修改合同前与法务部门沟通。', '他心中充满了感激。'])(
    'leaves %s alone',
    (text) => {
      expect(check(text)).toEqual([]);
    },
  );
});

describe('an idiom whose wrong character makes a word with its neighbour', () => {
  it('脍炙人心 → 脍炙人口 (心 and 口 neither sound nor look alike; 人心 is a word)', () => {
    const { out, issues } = fix('这些老歌至今仍脍炙人心，久唱不衰。');
    expect(out).toBe('这些老歌至今仍脍炙人口，久唱不衰。');
    expect(issues[0].note?.id).toBe('nonword.idiom');
  });
  it.each(['这项政策深得人心，群众纷纷点赞。', '这部作品脍炙人口，流传很广。', '全市上下齐心协力抗击洪水。'])(
    'leaves %s alone, in fine proofreading too',
    (text) => {
      expect(check(text, { mode: 4 })).toEqual([]);
    },
  );
});

describe('的 before a comparison complement', () => {
  it.each([
    ['新系统运行的比原来快多了。', '新系统运行得比原来快多了。'],
    ['这台机器转的比那台慢。', '这台机器转得比那台慢。'],
  ])('%s', (text, right) => {
    expect(fix(text).out).toBe(right);
  });
  it.each([
    ['这篇文章写的很好，大家都爱读。', '这篇文章写得很好，大家都爱读。'],
    ['今年的宣传工作做的扎实有效。', '今年的宣传工作做得扎实有效。'],
  ])('a thing made or said before its verb is its topic: %s', (text, right) => {
    expect(fix(text).out).toBe(right);
  });
  it.each(['老师说的很对。', '这篇文章写的是他的童年。', '今年工作做的事情很多。'])('leaves %s alone', (text) => {
    expect(check(text)).toEqual([]);
  });
  it.each(['我写的比他的短一些。', '她买的比我的便宜。', '今年的产量比去年高。'])('leaves %s alone', (text) => {
    expect(check(text)).toEqual([]);
  });
});

describe('a character written three times whose double is a word', () => {
  it.each([
    ['他常常常去图书馆看书。', '他常常去图书馆看书。'],
    ['我刚刚刚把文件发给你。', '我刚刚把文件发给你。'],
  ])('%s', (text, right) => {
    expect(fix(text).out).toBe(right);
  });
  it.each(['门外传来咚咚咚的敲门声。', '大家哈哈哈地笑了起来。', '他常常去图书馆看书。'])('leaves %s alone', (text) => {
    expect(check(text)).toEqual([]);
  });
});

describe('two neighbours swapped inside an idiom, the pair no word either way', () => {
  it('一如见故 → 一见如故', () => {
    const { out, issues } = fix('两人一如见故，相谈甚欢。');
    expect(out).toBe('两人一见如故，相谈甚欢。');
    expect(issues[0].note?.id).toBe('nonword.swap');
  });
  it.each(['两人一见如故，相谈甚欢。', '比赛的结果出乎意料。'])('leaves %s alone', (text) => {
    expect(check(text)).toEqual([]);
  });
});

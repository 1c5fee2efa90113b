/**
 * Non-words (engine/nonword.ts): a written form no lexicon knows, one edit from a word or an idiom, is found and
 * fixed on its own evidence: a wrong character, a doubled character or word, a missing character, two swapped
 * characters. Each kind has examples that must be fixed and correct text that must be left alone.
 * All sentences are written for these tests.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { check, loadEngine } from '../../engine/index';
import { fix } from './helpers';

beforeAll(() => {
  loadEngine();
});

describe('non-word: a wrong character inside a word or an idiom', () => {
  it.each([
    ['他做事总是一丝不狗，从不马虎。', '他做事总是一丝不苟，从不马虎。'],
    ['他们俩配合默契，可谓天衣无逢。', '他们俩配合默契，可谓天衣无缝。'],
    ['这篇文章写得层次分明，条理清析。', '这篇文章写得层次分明，条理清晰。'],
  ])('%s', (text, right) => {
    expect(fix(text).out).toBe(right);
  });
  it.each([
    // a radical beside the whole character it is added to (凝 = 冫 + 疑, 钉 = 钅 + 丁)
    ['这支球队的疑聚力很强，几个老队员功不可没。', '这支球队的凝聚力很强，几个老队员功不可没。'],
    ['墙上的螺丝丁已经松了。', '墙上的螺丝钉已经松了。'],
    // 司 after 贵 belongs to 贵司: no surname that starts a name
    ['望贵司谅介，我方将尽快补发。', '望贵司谅解，我方将尽快补发。'],
    // nor 张 before a conjunction, which no given name is
    ['请在合同上签字盖张并寄回。', '请在合同上签字盖章并寄回。'],
  ])('look-alikes and names: %s', (text, right) => {
    expect(fix(text).out).toBe(right);
  });
  it.each([
    // look-alikes the pixel overlap misses, by glyph and strokes (glyphs.txt)
    ['老人步履瞒跚地走进了诊室。', '老人步履蹒跚地走进了诊室。'],
    ['雨停了，我暮然发现天边挂着彩虹。', '雨停了，我蓦然发现天边挂着彩虹。'],
    ['他读完信，潜然泪下。', '他读完信，潸然泪下。'],
  ])('look-alikes by glyph: %s', (text, right) => {
    expect(fix(text).out).toBe(right);
  });
  it.each([
    '我们把暮色中的小镇拍了下来。',
    '潜水员已下潜至十米深处。',
    '他一直瞒着家里人。',
    '孩子们在草地上跑来跑去。',
  ])('leaves real words with look-alikes alone: %s', (text) => {
    expect(check(text)).toEqual([]);
  });
  it.each([
    '彭湃是中国农民运动的领袖之一。',
    '王凝之是王羲之的儿子。',
    '彭德怀是一位元帅。',
    '他叫江遂，是我的同学。',
    '司马光砸缸的故事家喻户晓。',
  ])('leaves names alone: %s', (text) => {
    expect(check(text)).toEqual([]);
  });
  it('names the word it makes, with the evidence', () => {
    const { issues } = fix('他做事总是一丝不狗，从不马虎。');
    const i = issues.find((x) => x.original === '狗')!;
    expect(i.message).toContain('一丝不苟');
    expect(i.level).toBe(1);
  });
  it.each([
    '这家餐厅的招牌菜让食客们赞不绝口。',
    '他在会上发言，一口气讲了半个小时。',
    '我们明天上午九点在会议室开会。',
    '她把这本小说借给了同学。',
  ])('leaves correct text alone: %s', (text) => {
    expect(check(text)).toEqual([]);
  });
});

describe('repeated words and characters', () => {
  it.each([
    ['工程进度必须必须按计划推进。', '工程进度必须按计划推进。'],
    ['请大家按时提交交材料。', '请大家按时提交材料。'],
    ['他对待工作一向认真负责责。', '他对待工作一向认真负责。'],
    ['这个问题我们已经经讨论过了。', '这个问题我们已经讨论过了。'],
    // 起 closing a time does not double
    ['本协议自签字之日起起生效。', '本协议自签字之日起生效。'],
    // after a word only the newer model knows (点赞), that model judges
    ['大家纷纷为这些志愿者点赞赞。', '大家纷纷为这些志愿者点赞。'],
    // a double that is a word itself (扬扬) after the word its first copy completes
    ['远处传来悠扬扬的笛声。', '远处传来悠扬的笛声。'],
  ])('%s', (text, right) => {
    expect(fix(text).out).toBe(right);
  });
  it.each([
    '你先看看这份材料，再提意见。',
    '我们去公园走走，散散步。',
    '他每天都高高兴兴地去上班。',
    '这个问题值得大家研究研究。',
    '孩子们一个个都很懂事。',
    '我常常想起小时候的事情。',
    '她轻轻松松地通过了考试。',
    '天天锻炼身体，人人都能受益。',
    '医生让他平时多走走路。',
    '敌军节节败退。',
    '他一脸得意扬扬的样子。',
  ])('keeps reduplication: %s', (text) => {
    expect(check(text).filter((i) => i.category === '4')).toEqual([]);
  });
});

describe('a character missing from a fixed expression', () => {
  it.each([
    ['面对困难，我们要迎难而，勇往直前。', '面对困难，我们要迎难而上，勇往直前。'],
    ['他说话总是言不由，让人捉摸不透。', '他说话总是言不由衷，让人捉摸不透。'],
    ['他说起话来滔滔不，一讲就是半天。', '他说起话来滔滔不绝，一讲就是半天。'],
    // from a set phrase of six, and from a common word of three
    ['王老师几十年如日地坚守在三尺讲台上。', '王老师几十年如一日地坚守在三尺讲台上。'],
    ['我们要推动产业实现跨式发展。', '我们要推动产业实现跨越式发展。'],
  ])('%s', (text, right) => {
    const { out, issues } = fix(text);
    expect(out).toBe(right);
    expect(issues.some((i) => i.category === '3')).toBe(true);
  });
  it.each([
    '工作中遇到问题，请及时联系我们。',
    '他迎难而上，终于完成了任务。',
    '会议结束后，大家陆续离开了会场。',
    // a measure word left out reads as well (上个世纪)
    '他在上世纪九十年代来到深圳。',
    '这种跨越式发展令人瞩目。',
    '他一日三餐都在食堂吃。',
    '从今天起，我们每天锻炼一小时。',
  ])('leaves whole expressions alone: %s', (text) => {
    expect(check(text).filter((i) => i.category === '3')).toEqual([]);
  });
});

describe('two swapped characters', () => {
  it.each([
    ['请把会议的录记整理后发给我。', '请把会议的记录整理后发给我。'],
    ['这份告报需要在周五前提交。', '这份报告需要在周五前提交。'],
  ])('%s', (text, right) => {
    const { out, issues } = fix(text);
    expect(out).toBe(right);
    expect(issues.some((i) => i.category === '7')).toBe(true);
  });
  it.each(['这份报告需要在周五前提交。', '请把会议记录整理后发给我。', '他们的合作十分愉快。'])(
    'leaves words alone: %s',
    (text) => {
      expect(check(text).filter((i) => i.category === '7')).toEqual([]);
    },
  );
});

describe('native writers’ correct text that once drew findings', () => {
  it.each([
    '多年的心愿终于了了，老人的脸上露出了笑容。',
    '这项政策既使企业得到实惠，又使群众享受便利。',
    '他既要工作，也要照顾家人。',
    '工作中遇到问题，请及时联系我们。',
    '我们可以经过这里去车站。',
    '这笔费用由单位承担，财政不另行拨款。',
    // a current term the models know less well than an older word of the same sound (当时)
    '本次培训是党史学习教育的重要内容。',
  ])('%s', (text) => {
    expect(check(text)).toEqual([]);
  });
  it('a real 既使 before a concession is still 即使, and a doubled particle after a verb still goes', () => {
    expect(fix('既使下雨，我们也要去。').out).toBe('即使下雨，我们也要去。');
    expect(fix('救援队伍抵达了了事故现场。').out).toBe('救援队伍抵达了事故现场。');
  });
});

describe('the list of common miswritten words is a boost, not a gate', () => {
  it('a listed form the segmentation keeps apart is reported even where the models hesitate', () => {
    expect(fix('老朋友们围坐一桌，谈笑风声，十分热闹。').out).toBe('老朋友们围坐一桌，谈笑风生，十分热闹。');
  });
  it('a listed form across a word boundary still needs its context', () => {
    expect(check('我们可以经过这座桥。')).toEqual([]);
  });
});

describe('confidence', () => {
  const text = '这个问提我们已经经讨论过了，他做事一丝不狗。下载完成后请较验文件,请大家注意。';
  it('every finding carries one; mode 3 returns only the confident ones', () => {
    for (const mode of [3, 4] as const) {
      const issues = check(text, { mode });
      expect(issues.length).toBeGreaterThan(2);
      for (const i of issues) {
        expect(i.confidence).toBeGreaterThanOrEqual(0);
        expect(i.confidence).toBeLessThanOrEqual(1);
        if (mode === 3) expect(i.confidence).toBeGreaterThanOrEqual(0.5);
      }
    }
  });
  it('mode 4 keeps every mode 3 finding and adds the less certain ones', () => {
    const three = check(text, { mode: 3 });
    const four = check(text, { mode: 4 });
    for (const i of three) expect(four).toContainEqual(i);
    const added = four.filter((i) => !three.some((j) => j.start === i.start && j.end === i.end));
    expect(added.map((i) => i.original)).toContain('较');
    for (const i of added.filter((x) => x.original === '较')) expect(i.confidence).toBeLessThan(0.5);
  });
});

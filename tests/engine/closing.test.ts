/**
 * Unclosed quotes and brackets (10-2): the opener is always pointed at; where the grammar of the marks leaves
 * one place for the closer, a second finding inserts it there. Sentences written for these tests.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { check, loadEngine } from '../../engine/index';
import { apply, expectWellFormed } from './helpers';

beforeAll(() => {
  loadEngine();
});

const pairs = (text: string) => {
  const issues = check(text).filter((i) => i.category === '10-2');
  expectWellFormed(text, issues);
  return { issues, out: apply(text, issues) };
};

describe('a suggested closing place where it is clear', () => {
  it.each([
    // a quotation after a colon that runs to the end of the paragraph
    ['王经理在会上说：“这个季度的任务必须按时完成。', '王经理在会上说：“这个季度的任务必须按时完成。”'],
    // a quoted sentence that opens the sentence, the narrator after it
    ['“明天几点出发？他一边收拾行李一边问。', '“明天几点出发？”他一边收拾行李一边问。'],
    ['「到家了。她轻声说。', '「到家了。」她轻声说。'],
    // a quoted term before the word it names
    ['这次活动以“绿色出行、低碳生活为主题，吸引了很多市民。', '这次活动以“绿色出行、低碳生活”为主题，吸引了很多市民。'],
    ['他始终坚持“质量至上的理念。', '他始终坚持“质量至上”的理念。'],
    // a title before what is done with it
    ['请大家认真学习《关于加强档案管理工作的通知精神。', '请大家认真学习《关于加强档案管理工作的通知》精神。'],
    ['据《光明日报报道，这项工程已经完工。', '据《光明日报》报道，这项工程已经完工。'],
    ['双方签署了《战略合作协议（修订稿），约定了合作范围。', '双方签署了《战略合作协议（修订稿）》，约定了合作范围。'],
    // a bracket holding a reference or a code
    ['具体要求详见附件（见附表2填写后报送。', '具体要求详见附件（见附表2）填写后报送。'],
    ['应符合（GB 50300—2013的有关要求。', '应符合（GB 50300—2013）的有关要求。'],
    ['点击【保存按钮即可。', '点击【保存】按钮即可。'],
    // a short aside closes before the next clause mark
    ['这本书（第三版，去年出版后很受读者欢迎。', '这本书（第三版），去年出版后很受读者欢迎。'],
    // a bracket naming a term after 简称 closes after the term; an unclosed term closes before its predicate, with
    // its bracket
    ['双方（以下简称“合作方”应共同遵守本协议。', '双方（以下简称“合作方”）应共同遵守本协议。'],
    ['本公司（以下简称“我方与贵司签订协议。', '本公司（以下简称“我方”）与贵司签订协议。'],
  ])('%s', (text, right) => {
    const { issues, out } = pairs(text);
    expect(out).toBe(right);
    // the opener's finding says where the closer belongs
    expect(issues.find((i) => '“「《（【'.includes(i.original))?.message).toContain('应在');
  });
});

describe('no suggestion where the place is not clear, no finding where the marks pair', () => {
  it.each([
    // a quotation after a colon followed by more narration: where it ends is a guess
    '他说：“我们先走吧。大家都同意了，只有小李还在犹豫',
    // a long stretch after a quotation mark is no term
    '他把这份长达三十页的报告称为“一份关于城市交通发展和公共服务设施布局的系统性研究',
  ])('%s', (text) => {
    const { issues } = pairs(text);
    expect(issues).toHaveLength(1);
    expect(issues[0].suggestions).toEqual([]);
  });
  it.each([
    '他说：“我明天再来。”',
    '《关于加强档案管理工作的通知》（以下简称《通知》）已经印发。',
    '“你好。”\n“你好！”他回答。',
    '会议（暂定）下周三召开。',
  ])('%s', (text) => {
    expect(pairs(text).issues).toEqual([]);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { check, loadEngine } from '../../engine/index';
import { apply, expectWellFormed } from './helpers';

beforeAll(() => {
  loadEngine();
});

/** the text after accepting every 的/地/得 finding (family 0), and those findings */
function fixed(text: string) {
  const issues = check(text, { mode: 3 });
  expectWellFormed(text, issues);
  const mine = issues.filter((i) => i.category === '0');
  return { out: apply(text, mine), mine };
}

const expectFixes = (cases: Array<[string, string]>) => {
  for (const [text, want] of cases) {
    const { out, mine } = fixed(text);
    expect(out, text).toBe(want);
    // one finding per wrong particle, each one character wide with a reason
    for (const i of mine) {
      expect(i.end - i.start).toBe(1);
      expect('的地得').toContain(text[i.start]);
      expect('的地得').toContain(i.suggestions[0]);
      expect(i.message).toMatch(/^“[的地得]”应为“[的地得]”：/);
    }
  }
};

const expectNoFinding = (texts: string[]) => {
  for (const t of texts)
    expect(
      check(t, { mode: 3 }).filter((i) => i.category === '0'),
      t,
    ).toEqual([]);
};

describe('的 -> 得 before an idiom that closes the clause as the verb’s complement', () => {
  it('a state the action reached', () => {
    expectFixes([
      ['这次年会组织的井井有条，大家都很满意。', '这次年会组织得井井有条，大家都很满意。'],
      ['警方终于把案情调查的水落石出。', '警方终于把案情调查得水落石出。'],
    ]);
  });
  it('not where the idiom names a thing, nor after a degree word', () => {
    expectNoFinding([
      '这是我们讨论的重中之重。',
      '他所追求的尽善尽美。',
      '他却无比的盛气凌人。',
      '我们讨论的问题很多。',
    ]);
  });
});

describe('的 -> 得 before a complement of degree or result', () => {
  it('after a verb, a degree word and a quality closing the clause', () => {
    expectFixes([
      ['这座城市发展的非常迅速。', '这座城市发展得非常迅速。'],
      ['这项工程推进的又快又好。', '这项工程推进得又快又好。'],
      ['这次活动筹备的相当周到，大家都很满意。', '这次活动筹备得相当周到，大家都很满意。'],
    ]);
  });
  it('after 把/被, whatever the verb, the phrase after the particle is its complement', () => {
    expectFixes([
      ['她把房间收拾的干净整洁。', '她把房间收拾得干净整洁。'],
      ['树叶被风吹的沙沙作响。', '树叶被风吹得沙沙作响。'],
    ]);
  });
  it('after a feeling: extreme degree, a potential complement, 直/连……都', () => {
    expectFixes([
      ['这些天他忙的要命。', '这些天他忙得要命。'],
      ['听到这个消息，她高兴的合不拢嘴。', '听到这个消息，她高兴得合不拢嘴。'],
      ['他气的直跺脚。', '他气得直跺脚。'],
      ['他累的连饭都不想吃了。', '他累得连饭都不想吃了。'],
    ]);
  });
});

describe('的 -> 地 between a manner word and a verb phrase beyond doubt', () => {
  it('a preposition opens the verb phrase', () => {
    expectFixes([
      ['志愿者们热心的为游客指路。', '志愿者们热心地为游客指路。'],
      ['工作人员耐心的向顾客解释退货规则。', '工作人员耐心地向顾客解释退货规则。'],
    ]);
  });
  it('the verb carries an aspect or a direction', () => {
    expectFixes([
      ['雨后，蜗牛缓慢的爬了出来。', '雨后，蜗牛缓慢地爬了出来。'],
      ['她悄悄的走进了房间。', '她悄悄地走进了房间。'],
    ]);
  });
  it('an auxiliary before the manner word, or an object no compound noun ends in', () => {
    expectFixes([
      ['我们应当虚心的听取群众意见。', '我们应当虚心地听取群众意见。'],
      ['我们会及时的处理您的投诉。', '我们会及时地处理您的投诉。'],
      ['请务必仔细的阅读这份说明。', '请务必仔细地阅读这份说明。'],
      ['我们要不断的提高自己。', '我们要不断地提高自己。'],
    ]);
  });
  it('a reduplicated adverb alone before a comma', () => {
    expectFixes([['渐渐的，街上的行人少了。', '渐渐地，街上的行人少了。']]);
  });
});

describe('地 -> 的 between a quality and the noun it modifies', () => {
  it('the noun closes its phrase and both language models agree', () => {
    expectFixes([
      ['他送给我一件珍贵地礼物。', '他送给我一件珍贵的礼物。'],
      ['这是一条宽阔地马路。', '这是一条宽阔的马路。'],
      ['这里有美丽地风景。', '这里有美丽的风景。'],
    ]);
  });
});

describe('correct 的/地/得 stay', () => {
  it('的 that makes a noun phrase of what was said, known, seen or bought', () => {
    expectNoFinding([
      '他说的很对。',
      '我知道的很少。',
      '我买的很便宜。',
      '这是我见过的最美的风景。',
      '我们见过的最感人的场面就是这个。',
    ]);
  });
  it('是……的, possessives and attributive 的 before nouns and nominalised verbs', () => {
    expectNoFinding([
      '他是昨天来的。',
      '这本书是我的。',
      '他是认真的。',
      '这些数据是系统自动生成的。',
      '认真的学习态度很重要。',
      '我们受到了热情的接待。',
      '他得到了大家热情的帮助。',
      '我们需要耐心的指导。',
      '经过医生仔细的检查，他放心了。',
      '这是经过认真的分析得出的结论。',
      '这种认真的做法值得推广。',
      '他们的热情的接待令人感动。',
      '一个个的问题都解决了。',
      '大红的灯笼挂了起来。',
    ]);
  });
  it('a verb phrase after 的 that is the subject of the sentence', () => {
    expectNoFinding([
      '老师耐心的讲解让我们明白了道理。',
      '积极的参与是成功的前提。',
      '会上讨论的非常重要的问题已经解决了。',
    ]);
  });
  it('feelings before nouns, and 连 or 直 inside words', () => {
    expectNoFinding([
      '伤心的眼泪流了下来。',
      '紧张的连队生活也很充实。',
      '痛苦的直接原因是贫穷。',
      '屋里有一种说不出来的冷。',
    ]);
  });
  it('a state predicated with 的 before a comma', () => {
    expectNoFinding(['她的英文好好的，不用担心。', '一切都是慢慢的，急不来。', '夜静静的，没有一点声音。']);
  });
  it('correct 得 and 地, 得 as a modal or a verb, and 地 as a noun or inside a word', () => {
    expectNoFinding([
      '他高兴得跳了起来。',
      '她慢慢地走了。',
      '他很快地跑了过去。',
      '孩子们高高兴兴地上学去了。',
      '他家的日子过得红红火火。',
      '天黑了，我得走了。',
      '你得早点出发。',
      '他得了冠军。',
      '地上有水。',
      '这片土地很肥沃。',
      '当地的村民很热情。',
      '我们的目的地是北京。',
    ]);
  });
  it('地 before a verb that jieba tags as a noun, after an auxiliary, or as the noun "place"', () => {
    expectNoFinding([
      '噪音会严重地危害听力。',
      '要全面地规划城市。',
      '我们不能懒惰地浪费时间。',
      '适用当事人住所地法律。',
    ]);
  });
});

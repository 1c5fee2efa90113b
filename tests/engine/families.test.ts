import { beforeAll, describe, expect, it } from 'vitest';
import { check, loadEngine } from '../../engine/index';
import { apply, expectWellFormed } from './helpers';

beforeAll(() => {
  loadEngine();
});

function fixed(text: string, category: string, opts = {}) {
  const issues = check(text, opts);
  expectWellFormed(text, issues);
  return { issues, out: apply(text, issues, category), mine: issues.filter((i) => i.category === category) };
}

describe('spelling families', () => {
  it('1 同音: homophone inside a common word, with pinyin evidence', () => {
    const { out, mine } = fixed('我们明天在会议室讨论这个问提。', '1');
    expect(out).toBe('我们明天在会议室讨论这个问题。');
    expect(mine[0].message).toContain('tí');
    expect(mine[0].level).toBe(1);
  });
  it('1 同音: 管里 -> 管理, 旅形 -> 旅行; 成积 -> 成绩 (other tone) in mode 4', () => {
    expect(fixed('我们要加强安全管里。', '1').out).toBe('我们要加强安全管理。');
    expect(fixed('这是一次很难忘的旅形。', '1').out).toBe('这是一次很难忘的旅行。');
    expect(fixed('他的成积一直很好。', '1', { mode: 4 }).out).toBe('他的成绩一直很好。');
  });
  it('5 形近: glyph neighbours (眼晴 -> 眼睛, 末经 -> 未经)', () => {
    expect(fixed('她的眼晴很大，也很漂亮。', '5').out).toBe('她的眼睛很大，也很漂亮。');
    expect(fixed('不能随意传播末经证实的消息。', '5').out).toBe('不能随意传播未经证实的消息。');
  });
  it('1 同音 in a longer word (锻练 -> 锻炼, 差措 -> 差错)', () => {
    expect(fixed('他每天早上坚持锻练身体，所以身体一直很好。', '1').out).toBe(
      '他每天早上坚持锻炼身体，所以身体一直很好。',
    );
    expect(fixed('他平时工作非常认真，从来没有出过差措。', '1').out).toBe('他平时工作非常认真，从来没有出过差错。');
  });
  it('1 同音: a whole word for another that reads the same (起夜 -> 企业, 兵法 -> 并发), one finding over the word', () => {
    const a = fixed('这家公司的起夜文化很有特色。', '1');
    expect(a.out).toBe('这家公司的企业文化很有特色。');
    expect(a.mine).toHaveLength(1);
    expect(a.mine[0]).toMatchObject({ original: '起夜', suggestions: ['企业'] });
    expect(a.mine[0].message).toContain('qǐ yè');
    expect(fixed('患者要多喝水，注意休息，预防兵法症。', '1').out).toBe('患者要多喝水，注意休息，预防并发症。');
    expect(fixed('被告人被判处三年有期图形。', '1').out).toBe('被告人被判处三年有期徒刑。');
    // hk: traditional suggestion, offsets into the original text; mode 4 keeps it
    expect(fixed('這家公司的起夜文化很有特色。', '1', { lang: 'hk' }).out).toBe('這家公司的企業文化很有特色。');
    expect(fixed('这家公司的起夜文化很有特色。', '1', { mode: 4 }).out).toBe('这家公司的企业文化很有特色。');
  });
  it('the built-in list of common miswritten words, each confirmed in context', () => {
    expect(fixed('我以经把报告交给老师了。', '1').out).toBe('我已经把报告交给老师了。');
    expect(fixed('这个时侯大家都在开会。', '1').out).toBe('这个时候大家都在开会。');
    expect(fixed('我们应该再接再励。', '1').out).toBe('我们应该再接再厉。');
    // two characters off at once (默/墨 and 陈/成), which no one-character pass corrects
    expect(fixed('面对新情况，我们不能默守陈规。', '1').out).toBe('面对新情况，我们不能墨守成规。');
    // the category follows the characters: a shared component is 形近 (赅/骇 share 亥), a rhyme 谐音 (苦/骨,
    // 什/怎 above), no relation plain misuse (0: 船/舟; 去 qù does not rhyme with 出 chū)
    expect(fixed('这篇短文写得言简意骇。', '5').mine[0].message).toContain('字形相近（骇/赅）');
    const rhyme = fixed('那段经历让人刻苦铭心。', '2');
    expect(rhyme.out).toBe('那段经历让人刻骨铭心。');
    expect(rhyme.mine[0].message).toContain('读音相近');
    expect(fixed('我们要有破釜沉船的决心。', '0').out).toBe('我们要有破釜沉舟的决心。');
    expect(fixed('危急关头，他挺身而去。', '0').out).toBe('危急关头，他挺身而出。');
    const own = fixed('这是他自已的事情。', '5');
    expect(own.out).toBe('这是他自己的事情。');
    expect(own.mine[0].message).toContain('常见误写');
    // the wrong form inside right words is left alone: 一前一后, 他门口, 跟本人
    for (const t of ['他们一前一后走进教室。', '他门口停着一辆车。', '请跟本人联系。']) expect(check(t), t).toEqual([]);
    // 什么办 is 怎么办, but not in 什么办法, 为什么办不到, 什么办不成
    expect(fixed('这种时候该什么办？', '2').out).toBe('这种时候该怎么办？');
    for (const t of ['不管什么办法都试过了。', '这件事为什么办不到？', '天下没有什么办不成的事。'])
      expect(check(t), t).toEqual([]);
    // hk: found in traditional text, suggested in traditional characters
    const hk = check('我以經吃飯了。', { lang: 'hk' });
    expect(hk.map((i) => [i.original, i.suggestions[0]])).toEqual([['以經', '已經']]);
    // regional forms of Hong Kong and Taiwan are misspellings only in cn
    expect(check('他这样说实在太过份了。').map((i) => [i.original, i.suggestions[0]])).toEqual([['过份', '过分']]);
    expect(check('他這樣說實在太過份了。', { lang: 'hk' })).toEqual([]);
    // wherever the speller or the non-word pass meets them: 处份 is no word in simplified text, 喝采 a lesser form
    expect(apply('给予该同志警告处份。', check('给予该同志警告处份。'))).toBe('给予该同志警告处分。');
    expect(check('觀眾連連喝采。', { lang: 'hk' })).toEqual([]);
    // allowed words silence it
    expect(check('我以经吃饭了。', { allowedWords: ['以经'] })).toEqual([]);
  });
  it(
    'a miswritten word found once is corrected where it recurs, and in its ' +
      'reduplicated form; a recurring two-character form is a term',
    () => {
      const zoo = fixed('周末我们去了动物院。我觉得上海的动物院比北京的大。', '1');
      expect(zoo.out).toBe('周末我们去了动物园。我觉得上海的动物园比北京的大。');
      expect(zoo.mine).toHaveLength(2);
      expect(zoo.mine[1]).toMatchObject({ original: '院', suggestions: ['园'] });
      const easy = fixed('这份工作比较经松。周末大家经经松松地去爬山。', '5');
      expect(easy.out).toBe('这份工作比较轻松。周末大家轻轻松松地去爬山。');
      expect(easy.mine[1]).toMatchObject({ original: '经经', suggestions: ['轻轻'] });
      expect(easy.mine[1].message).toContain('重叠');
      // hk: traditional text, traditional suggestions at the original offsets
      const hk = check('週末我們去了動物院。我覺得上海的動物院比北京的大。', { lang: 'hk' });
      expect(hk.map((i) => [i.start, i.original, i.suggestions[0]])).toEqual([
        [8, '院', '園'],
        [18, '院', '園'],
      ]);
      // a two-character form the speller corrects is taken for a name or a term where it recurs (at the cost
      // of a writer's repeated slip of this kind, which is then left)
      expect(fixed('这是我住的地房。', '1').out).toBe('这是我住的地方。');
      expect(check('我住的地房跟你住的地房不一样。')).toEqual([]);
      expect(check('晓兰家的服装店生意很好，晓兰也很高兴。')).toEqual([]);
      expect(check('他拿出一块玄玉，这块玄玉很值钱。')).toEqual([]);
      // a recurrence inside an allowed word is left alone
      expect(
        fixed('周末我们去了动物院。新开的动物院餐厅很好吃。', '1', { allowedWords: ['动物院餐厅'] }).mine,
      ).toHaveLength(1);
    },
  );
  it('the same words where they are right stay, and so does a reduplicated given name', () => {
    for (const t of [
      '他熟读兵法，善于用兵。',
      '老人年纪大了，晚上常常起夜。',
      '这张图形很复杂。',
      '这起事件引起了广泛关注。',
      '不是林翩翩又是谁？',
    ]) {
      expect(
        check(t).filter((i) => i.category === '1' || i.category === '2'),
        t,
      ).toEqual([]);
    }
  });
  it(
    'characters of a novel are names: a surname standing alone with one or two ' + 'characters after it is left alone',
    () => {
      for (const t of ['宫司夜面色变得凝重。', '凤燚则严肃地说道。', '纪宁则是出于谨慎。'])
        for (const mode of [3, 4] as const) expect(check(t, { mode }), t).toEqual([]);
    },
  );
  it('的 is weighed only against 地/得, never turned into a content character', () => {
    for (const mode of [3, 4] as const) expect(check('更何况是龙皇的气息。', { mode })).toEqual([]);
  });
  it('the pronouns 他/她/它 are never changed into each other (the context seldom settles who is meant)', () => {
    for (const t of ['这张旧书桌陪了我十年，我每天都会和它在一起。', '那只小猫很怕生，我每天都会和它在一起。']) {
      for (const mode of [3, 4] as const) expect(check(t, { mode }), `${mode} ${t}`).toEqual([]);
    }
  });
  it('纪录 and 记录 are variants of one word, never turned into each other; 记念 is still 纪念', () => {
    for (const t of ['这项成绩刷新了历史纪录。', '他在比赛中打破了世界记录。', '请做好会议纪录。']) {
      for (const mode of [3, 4] as const) expect(check(t, { mode }), `${mode} ${t}`).toEqual([]);
    }
    expect(fixed('今天是我们的记念日。', '1').out).toBe('今天是我们的纪念日。');
  });
  it('a surname followed by a particle is not a name: 不段的 -> 不断的', () => {
    expect(fixed('这种现象在社会上不段的出现。', '1').out.slice(0, 10)).toBe('这种现象在社会上不断');
    expect(fixed('我们应该不段的学习新知识。', '1').out.slice(0, 6)).toBe('我们应该不断');
  });
  it('2 谐音: fuzzy sounds (n/l, r/l, -n/-ng) in both modes', () => {
    for (const mode of [3, 4] as const) {
      expect(fixed('他对这件事情很热情，也很仍真。', '2', { mode }).out).toBe('他对这件事情很热情，也很认真。');
      expect(fixed('他工作一直很仍真。', '2', { mode }).out).toBe('他工作一直很认真。');
    }
  });
  it('mode 4 searches wider: same-sound characters that complete no word', () => {
    expect(fixed('孩子门在操场上玩。', '1', { mode: 4 }).out).toBe('孩子们在操场上玩。');
    expect(check('孩子门在操场上玩。', { mode: 3 })).toEqual([]);
    // the 的/得 rule decides in both modes, with or without a degree word
    for (const mode of [3, 4] as const) {
      expect(fixed('他们跑的快。', '0', { mode }).out).toBe('他们跑得快。');
      expect(fixed('他们跑的很快。', '0', { mode }).out).toBe('他们跑得很快。');
    }
  });
  it(
    'characters built around the same component (竟/意, 快/决, 袂/决) are shape ' +
      'neighbours; mode 4 takes the rarer ones too',
    () => {
      for (const [t, want] of [
        ['领导对此非常满竟。', '领导对此非常满意。'],
        ['这个问题必须马上解快。', '这个问题必须马上解决。'],
        ['这件事要由法院来裁袂。', '这件事要由法院来裁决。'],
      ]) {
        for (const mode of [3, 4] as const) {
          const f = fixed(t, '5', { mode });
          expect(f.out, `${mode} ${t}`).toBe(want);
          expect(f.mine[0].message).toContain('字形相近');
        }
      }
      // 唆 is rarer: the speller takes it in mode 4 only, but 教酸 is no word, so mode 3 finds it as a non-word
      for (const mode of [3, 4] as const) {
        expect(fixed('他因为教酸他人犯罪被判刑。', '5', { mode }).out).toBe('他因为教唆他人犯罪被判刑。');
      }
      // the same characters where they are right stay
      for (const t of ['他竟然没有来。', '你要快点决定。', '我们要尽快解决这个问题。', '这种酸奶很好喝。']) {
        for (const mode of [3, 4] as const) expect(check(t, { mode }), t).toEqual([]);
      }
    },
  );
  it('mode 4 keeps every mode 3 spelling finding and adds to them', () => {
    for (const t of [
      '我们要加强安全管里，他每天早上坚持锻练身体。',
      '他对这件事情很热情，也很仍真，孩子门在操场上玩。',
      '不能随意传播末经证实的消息，她的眼晴很大。',
    ]) {
      const spell = (mode: 3 | 4) =>
        check(t, { mode })
          .filter((i) => ['0', '1', '2', '5'].includes(i.category))
          .map((i) => `${i.start}${i.suggestions[0]}`);
      const m3 = spell(3),
        m4 = spell(4);
      expect(m3.length).toBeGreaterThan(0);
      for (const f of m3) expect(m4).toContain(f);
    }
    expect(check('孩子门在操场上玩。', { mode: 4 }).length).toBeGreaterThan(
      check('孩子门在操场上玩。', { mode: 3 }).length,
    );
  });
  it('correct sentences stay untouched', () => {
    for (const t of [
      '今年的粮食产量再创新高，农民的收入也有了明显增长。',
      '老师耐心地回答了同学们提出的每一个问题。',
      '医生建议他多喝水，多休息，按时吃药。',
      '经过三年的努力，这个项目终于顺利完成了。',
    ]) {
      expect(check(t)).toEqual([]);
      expect(check(t, { mode: 4 })).toEqual([]);
    }
  });
});

describe('family 0: 的/地/得 and common misuse', () => {
  it('阿 closing a clause is the interjection 啊; words ending in 阿 and the prefix stay', () => {
    const a = fixed('这里的风景真美阿！', '0');
    expect(a.out).toBe('这里的风景真美啊！');
    expect(a.mine[0].message).toContain('语气词');
    expect(fixed('他说他听不懂阿。', '0').out).toBe('他说他听不懂啊。');
    for (const t of ['这位法官刚正不阿，大家都很尊敬他。', '阿姨，您好。', '我们明天去看阿姨。'])
      expect(check(t), t).toEqual([]);
  });
  it('adverbial 的 before a verb becomes 地', () => {
    expect(fixed('他高兴的跳了起来。', '0').out).toBe('他高兴地跳了起来。');
    expect(fixed('孩子们开心的笑了。', '0').out).toBe('孩子们开心地笑了。');
    expect(check('她露出开心的笑容。')).toEqual([]);
  });
  it('的 before a complement becomes 得', () => {
    expect(fixed('她把房间打扫的干干净净。', '0').out).toBe('她把房间打扫得干干净净。');
    expect(fixed('他跑的非常快。', '0').out).toBe('他跑得非常快。');
  });
  it('的/地/得 from the characters when the segmentation fuses the particle with a neighbour', () => {
    expect(fixed('周末大家都玩的很开心。', '0').out).toBe('周末大家都玩得很开心。');
    expect(fixed('那几年我们过的很快乐。', '0').out).toBe('那几年我们过得很快乐。');
    expect(fixed('他长的很高。', '0').out).toBe('他长得很高。');
    expect(fixed('希望大家平平安安的活到一百岁。', '0').out).toBe('希望大家平平安安地活到一百岁。');
    expect(fixed('她是个漂亮得姑娘。', '0').out).toBe('她是个漂亮的姑娘。');
  });
  it('得 for 地 or 的 where both language models agree with the context', () => {
    const cases: Array<[string, string]> = [
      ['他默默得忍受着一切。', '他默默地忍受着一切。'],
      ['他们开开心心得回家了。', '他们开开心心地回家了。'],
      ['这是我们得教室。', '这是我们的教室。'],
      ['她讲了很多好听得故事。', '她讲了很多好听的故事。'],
      // a complement that itself modifies a noun
      ['孩子们玩的很开心的样子真可爱。', '孩子们玩得很开心的样子真可爱。'],
    ];
    for (const [text, want] of cases) expect(fixed(text, '0').out, text).toBe(want);
    // 得 as a verb, as "must", and in complements stays
    for (const t of [
      '他媳妇得癌症好几年了。',
      '我们得走了。',
      '这件衣服贵得吓人。',
      '天气热得我们受不了。',
      '这次考试他得满分。',
      '她高兴得跳了起来。',
    ]) {
      expect(
        check(t).filter((i) => i.category === '0'),
        t,
      ).toEqual([]);
    }
  });
  it('的/地/得 rules leave complements of feeling, noun phrases and nominalised verbs alone', () => {
    for (const t of [
      '他高兴得要飞上天。',
      '她累得走不动了。',
      '眼中带着深深的嫉妒！',
      '这些都是点点滴滴的知识。',
      '他说的很好，大家都同意。',
      '吃吃喝喝的满足最简单。',
      '这种做法将会严重地危害健康。',
      '我看到的很多人都笑了。',
    ]) {
      expect(
        check(t).filter((i) => i.category === '0'),
        t,
      ).toEqual([]);
    }
  });
  it('那/哪 follow the sentence: 哪 where it asks or generalises, 那 where it points', () => {
    for (const mode of [3, 4] as const) {
      expect(fixed('你明天想去那里玩？', '0', { mode }).out).toBe('你明天想去哪里玩？');
      expect(fixed('无论走到那里，我都会想你。', '0', { mode }).out).toBe('无论走到哪里，我都会想你。');
      for (const t of ['从那里，我们可以走到火车站。', '所以决定好了去那里了。'])
        expect(check(t, { mode }), t).toEqual([]);
    }
  });
  it('下次在 + verb becomes 再', () => {
    expect(fixed('这个问题我们下次在讨论吧。', '0').out).toBe('这个问题我们下次再讨论吧。');
  });
  it('在 after a first step (…后在 + verb) becomes 再; 在 + a place stays', () => {
    expect(fixed('我们核对清单后在通知各部门领取。', '0').out).toBe('我们核对清单后再通知各部门领取。');
    expect(check('他大学毕业后在上海工作了三年。')).toEqual([]);
    expect(check('吃完晚饭后在院子里散步。')).toEqual([]);
  });
  it('那 + a measure word after 无论/不管/不论 in the same clause becomes 哪', () => {
    expect(fixed('不管出现那种故障，都要先切断电源。', '0').out).toBe('不管出现哪种故障，都要先切断电源。');
    expect(fixed('无论你选那个方案，我们都全力支持。', '0').out).toBe('无论你选哪个方案，我们都全力支持。');
    // the clause already asks (谁), offers alternatives (还是), or the concession closes before 那
    for (const t of [
      '无论那个人是谁，都要按规定登记。',
      '无论是那个方案还是这个方案，都需要重新评估。',
      '他无论在任何情况下都不放弃的那种精神令人敬佩。',
      '生死不论的那种比赛，我不参加。',
    ])
      expect(
        check(t).filter((i) => i.suggestions[0] === '哪'),
        t,
      ).toEqual([]);
  });
  it('即 in 既……也/又…… with the same verb becomes 既; 即是 alone stays', () => {
    expect(fixed('这本书即是教材，也是一本很好的参考书。', '0').out).toBe('这本书既是教材，也是一本很好的参考书。');
    expect(fixed('新系统即有查询功能，又有统计功能。', '0').out).toBe('新系统既有查询功能，又有统计功能。');
    for (const t of ['他即是我们要找的人。', '收到通知后请立即是否参加报名。', '会议结束后即有专车送大家回酒店。'])
      expect(
        check(t).filter((i) => i.suggestions[0] === '既'),
        t,
      ).toEqual([]);
  });
  it('leaves correct uses alone', () => {
    expect(check('这是我的书，那是你的笔。')).toEqual([]);
    expect(check('他高兴地跳了起来。')).toEqual([]);
  });
});

describe('families 3 遗漏 / 4 冗余 / 7 语序', () => {
  it('4: repeated function character and repeated word', () => {
    expect(fixed('我们的的目标是完成任务。', '4').out).toBe('我们的目标是完成任务。');
    expect(fixed('这个方案需要我们我们认真研究。', '4').out).toBe('这个方案需要我们认真研究。');
  });
  it('4: legitimate reduplication is not redundancy', () => {
    expect(check('我们研究研究再做决定。').filter((i) => i.category === '4')).toEqual([]);
    expect(check('孩子们常常在公园里玩耍。')).toEqual([]);
  });
  it('4: a doubled aspect particle closing the clause', () => {
    expect(fixed('他昨天已经把作业做完了了。', '4').out).toBe('他昨天已经把作业做完了。');
    expect(fixed('这件事情我们已经讨论过过了。', '4').out).toBe('这件事情我们已经讨论过了。');
    expect(check('小时了了，大未必佳。').filter((i) => i.category === '4')).toEqual([]);
  });
  it(
    '4/3: distributive and emphatic repetition, a word boundary inside the pair, ' +
      'and one-off idioms are left alone',
    () => {
      for (const t of [
        '若是要我亲自一个一个去抓人，你们就等着吧。',
        '这一刀真的很强很强。',
        '他完全可以以压倒性的优势取胜。',
        '问话犹如一把把锋利的匕首。',
        '每天无忧无虑，自自在在的。',
      ]) {
        expect(
          check(t).filter((i) => i.category === '4'),
          t,
        ).toEqual([]);
      }
      // a substitution inside an idiom is not an omission: no 3 finding that would give 四五脏六腑 or 漫无目的地
      for (const t of ['他伤得很重，四脏六腑都有裂痕。', '人生如果只是漫无目地不知要做什么，就会很迷茫。']) {
        expect(
          check(t).filter((i) => i.category === '3'),
          t,
        ).toEqual([]);
      }
    },
  );
  it('3: a missing character in an idiom', () => {
    expect(fixed('这些年来他始如一地坚持自己的理想。', '3').out).toBe('这些年来他始终如一地坚持自己的理想。');
  });
  it('3: where several idioms lose a character to the same three, a far commoner one still stands for them', () => {
    // 一丝不苟 (jieba count 112) against 一毫不苟 / 一字不苟 / 一笔不苟 (3-6)
    expect(fixed('她工作起来一不苟，从不出错。', '3').out).toBe('她工作起来一丝不苟，从不出错。');
  });
  it('7: swapped characters', () => {
    expect(fixed('我们必须尽快决解这个问题。', '7').out).toBe('我们必须尽快解决这个问题。');
  });
});

describe('rule families', () => {
  it('8-x: built-in sensitive words are hints with a category and type 3', () => {
    const issues = check('警方破获了一起网络赌博案件，该官员因贪污受贿被查处。');
    const cats = issues.map((i) => [i.category, i.type, i.level, i.suggestions.length]);
    expect(cats).toContainEqual(['8-2', 3, 3, 0]);
    expect(cats).toContainEqual(['8-11', 3, 3, 0]);
  });
  it('9-1: a city that does not belong to the province', () => {
    const text = '他的地址是广东省杭州市西湖区文三路100号。';
    const { mine } = fixed(text, '9-1');
    expect(mine).toHaveLength(1);
    expect(mine[0].original).toBe('广东省');
    expect(mine[0].suggestions).toEqual(['浙江省']);
    expect(check('他的地址是浙江省杭州市西湖区文三路100号。')).toEqual([]);
  });
  it('9-1: a district that does not belong to the city', () => {
    const { mine } = fixed('公司位于江苏省南京市浦东新区。', '9-1');
    expect(mine[0].original).toBe('南京市');
    expect(mine[0].suggestions).toContain('上海市');
  });
  it('9-2: impossible dates and weekday mismatches', () => {
    expect(fixed('会议定于2023年2月29日召开。', '9-2').mine).toHaveLength(1);
    expect(check('会议定于2024年2月29日召开。')).toEqual([]);
    expect(fixed('活动将在2024年13月5日举行。', '9-2').mine).toHaveLength(1);
    expect(fixed('2024年10月1日（星期一）是国庆节。', '9-2').out).toBe('2024年10月1日（星期二）是国庆节。');
    expect(check('2024年10月1日（星期二）是国庆节。')).toEqual([]);
  });
  it('10-1 .. 10-5 punctuation and spacing', () => {
    expect(fixed('今天天气很好,我们去公园散步吧。', '10-1').out).toBe('今天天气很好，我们去公园散步吧。');
    // the opener is pointed at, and the closer goes where the quotation after the colon ends
    const quote = fixed('他说：“我明天再来。', '10-2');
    expect(quote.mine.map((i) => i.original)).toEqual(['“', '。']);
    expect(quote.out).toBe('他说：“我明天再来。”');
    expect(check('他说：“我明天再来。”')).toEqual([]);
    expect(fixed('我们明天见面，，不见不散。', '10-3').out).toBe('我们明天见面，不见不散。');
    expect(fixed('我们 明天见面。', '10-4').out).toBe('我们明天见面。');
    // a press byline parts the role from the name by a space
    expect(check('本报讯（记者 王磊）昨日，新大楼正式启用。').filter((i) => i.category === '10-4')).toEqual([]);
    expect(fixed('我们的记者 明天到。', '10-4').out).toBe('我们的记者明天到。');
    expect(fixed('他想了很久...终于开口了。', '10-5').out).toBe('他想了很久……终于开口了。');
    expect(fixed('这次考试的第１名是他。', '10-5').out).toBe('这次考试的第1名是他。');
  });
  it('12-1 / 12-2 leaders and 12-3 amounts (advanced, type 11)', () => {
    const leaders = [
      { name: '王建国', titles: ['市长'] },
      { name: '李红梅', titles: ['市委书记'] },
    ];
    const a = fixed('市委书记王建国出席了开幕式。', '12-1', { leaders, advancedProofreading: true });
    expect(a.out).toBe('市长王建国出席了开幕式。');
    expect(a.mine[0].type).toBe(11);
    expect(fixed('市长王建华出席了开幕式。', '12-2', { leaders, advancedProofreading: true }).out).toBe(
      '市长王建国出席了开幕式。',
    );
    expect(check('市长王建国出席了开幕式。', { leaders, advancedProofreading: true })).toEqual([]);
    // a leader list is the user's own opt-in: it applies without the advanced flag, amounts do not
    expect(fixed('市委书记王建国出席了开幕式。', '12-1', { leaders }).out).toBe('市长王建国出席了开幕式。');
    expect(check('合同总价为人民币壹万贰仟元整（¥12,500.00）。').filter((i) => i.category === '12-3')).toEqual([]);
    // 12-4: leaders listed together in another order than the dictionary's; a meeting of two is no list
    const order = fixed('市委书记李红梅、市长王建国出席了会议。', '12-4', { leaders });
    expect(order.out).toBe('市长王建国、市委书记李红梅出席了会议。');
    expect(order.mine[0].level).toBe(2);
    expect(check('王建国、李红梅出席。', { leaders })).toEqual([]);
    expect(check('李红梅会见了王建国。', { leaders }).filter((i) => i.category.startsWith('12'))).toEqual([]);
    const m = fixed('合同总价为人民币壹万贰仟元整（¥12,500.00）。', '12-3', { advancedProofreading: true });
    expect(m.out).toBe('合同总价为人民币壹万贰仟伍佰元整（¥12,500.00）。');
  });
});

describe('checkOptions bits', () => {
  it('selects families', () => {
    const text = '我们讨论这个问提,好吗';
    expect(
      check(text)
        .map((i) => i.category)
        .sort(),
    ).toEqual(['1', '10-1']);
    expect(check(text, { checkOptions: 1 }).map((i) => i.category)).toEqual(['1']);
    expect(check(text, { checkOptions: 32 }).map((i) => i.category)).toEqual(['10-1']);
    expect(check(text, { checkOptions: 0 })).toEqual([]);
  });
});

// List words (built-in and custom sensitive words, key words, custom wrong words) are found through invisible format
// characters and in full-width or capital forms, with offsets into the text as written, so applying a
// suggestion replaces the whole disguised span; a word is never made by joining across a space or a line break.
import { beforeAll, describe, expect, it } from 'vitest';
import { check, loadEngine, Bits, type Issue } from '../../engine/index';
import { foldForMatch, WordMatcher } from '../../engine/rules/matcher';
import { apply, expectWellFormed } from './helpers';

beforeAll(() => {
  loadEngine();
});

const ZWSP = '\u200b';
/** Every format character the probe used, and more of category Cf. */
const HIDDEN = [
  ...['\u200b', '\u200c', '\u200d', '\u200e', '\u200f', '\u2060', '\ufeff', '\u00ad'],
  ...['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u{e0041}'],
];

const SENSITIVE = Bits.sensitive;
const listed = (issues: Issue[], type: number) => issues.filter((i) => i.type === type);
const span = (text: string, i: Issue) => text.slice(i.start, i.end);

describe('foldForMatch', () => {
  it('drops format characters, folds full-width ASCII and Latin capitals, and maps back to the original', () => {
    const text = `Ａ${ZWSP}b\u202eＣ 中\u{e0041}文\n`;
    const f = foldForMatch(text);
    expect(f.text).toBe('abc 中文\n');
    // Ａ ZWSP b RLO Ｃ space 中 U+E0041 (two units) 文 \n
    expect([...f.from]).toEqual([0, 2, 4, 5, 6, 9, 10]);
    expect([...f.to]).toEqual([1, 3, 5, 6, 7, 10, 11]);
  });

  it('keeps astral characters whole and spaces, line breaks and ideographic spaces as they are', () => {
    const f = foldForMatch('𠀀 a\u3000b\r\n');
    expect(f.text).toBe('𠀀 a\u3000b\r\n');
    expect([...f.from.slice(0, 2)]).toEqual([0, 0]);
    expect([...f.to.slice(0, 2)]).toEqual([2, 2]);
  });

  it('leaves an unfolded matcher exact', () => {
    const m = new WordMatcher<number>();
    m.add('K粉', 1);
    expect(m.find(`k粉 K${ZWSP}粉 K粉`).map((x) => x.start)).toEqual([7]);
  });
});

describe('Unicode tricks', () => {
  /** Each disguise of 海洛因 or 色情服务 a probe sent through /v2/check, as written, and what it hides. */
  const DISGUISES: Array<[string, string]> = [
    ['海\u034F洛因', '海洛因'], // combining grapheme joiner
    ['海\uFE0F洛因', '海洛因'], // variation selector 16
    ['海\uFE00洛因', '海洛因'], // variation selector 1
    ['海\u{E0100}洛因', '海洛因'], // variation selector 17 (supplement, astral)
    ['海\u{E01EF}洛\u{E0100}因', '海洛因'],
    ['海\u3164洛因', '海洛因'], // Hangul filler
    ['海\uFFA0洛因', '海洛因'], // half-width Hangul filler
    ['海\u115F洛因', '海洛因'], // Hangul choseong filler
    ['海\uF915因', '海洛因'], // compatibility ideograph of 洛
    ['\u2F8A情服务', '色情服务'], // Kangxi radical 色
    ['海\u0301洛因', '海洛因'], // combining acute accent
    ['海\u0301\u0301\u200B\u0302洛因', '海洛因'], // a run of marks and a zero-width space
    ['海\uF915\uFE0F因', '海洛因'], // a compatibility ideograph and a selector after it
  ];

  it('foldForMatch drops ignorables and marks between Han characters and maps compatibility forms', () => {
    for (const [written, word] of DISGUISES) {
      const f = foldForMatch(`他们${written}交易`);
      expect(f.text, JSON.stringify(written)).toBe(`他们${word}交易`);
      // every folded unit maps back into the text as written, and the word's span covers the whole disguise
      expect(f.from[2]).toBe(2);
      expect(f.to[2 + word.length - 1]).toBe(2 + written.length);
    }
  });

  it('keeps marks, selectors and fillers that do not sit between two Han characters', () => {
    expect(foldForMatch('cafe\u0301 海\u0301').text).toBe('cafe\u0301 海\u0301');
    expect(foldForMatch('a\uFE0Fb 海\uFE0F。').text).toBe('a\uFE0Fb 海\uFE0F。');
    // the compatibility form is still folded where no mark is dropped
    expect(foldForMatch('\uF915 \u2F8A').text).toBe('洛 色');
  });

  it('built-in sensitive words are found through each disguise, start/end covering it whole', () => {
    for (const [written, word] of DISGUISES) {
      const text = `他们在${written}交易中被抓。`;
      const issues = check(text, { checkOptions: SENSITIVE });
      expectWellFormed(text, issues);
      const hit = listed(issues, 3);
      expect(hit, JSON.stringify(written)).toHaveLength(1);
      expect(span(text, hit[0])).toBe(written);
      expect(hit[0].message).toContain(`“${word}”`);
      // removing the finding's span removes the trick with the word
      expect(text.slice(0, hit[0].start) + text.slice(hit[0].end)).toBe('他们在交易中被抓。');
    }
  });

  it('personal and team sensitive, key and wrong words are found through the same tricks', () => {
    const text = '内部代号：绝\u034F密计划，重\uFE0F点工程，\uF915阳纸贵，萍\u3164果。';
    const issues = check(text, {
      checkOptions: SENSITIVE | Bits.dictionary,
      sensitiveWords: [{ word: '绝密计划', source: 'team' }],
      keyWords: [{ word: '重点工程', source: 'personal' }],
      wrongWords: [
        { word: '洛阳纸贵', correct: '洛阳纸贵啊', source: 'team' },
        { word: '萍果', correct: '苹果', source: 'personal' },
      ],
    });
    expectWellFormed(text, issues);
    expect(listed(issues, 6).map((i) => span(text, i))).toEqual(['绝\u034F密计划']);
    expect(listed(issues, 9).map((i) => span(text, i))).toEqual(['重\uFE0F点工程']);
    expect(listed(issues, 7).map((i) => span(text, i))).toEqual(['\uF915阳纸贵']);
    const wrong = listed(issues, 5);
    expect(wrong.map((i) => span(text, i))).toEqual(['萍\u3164果']);
    expect(apply(text, wrong)).toBe('内部代号：绝\u034F密计划，重\uFE0F点工程，\uF915阳纸贵，苹果。');
  });

  it('an allowed word written plainly silences the disguised list word', () => {
    const text = '他们在海\uFE0F洛因交易中被抓。';
    expect(listed(check(text, { checkOptions: SENSITIVE }), 3)).toHaveLength(1);
    expect(listed(check(text, { checkOptions: SENSITIVE, allowedWords: ['海洛因'] }), 3)).toEqual([]);
  });
});

describe('built-in sensitive words', () => {
  it('are found with a format character inside; start/end cover the disguised span', () => {
    for (const hidden of HIDDEN) {
      const text = `他们在${'海洛'}${hidden}因交易中被抓。`;
      const issues = check(text, { checkOptions: SENSITIVE });
      expectWellFormed(text, issues);
      const hit = listed(issues, 3);
      expect(hit, JSON.stringify(hidden)).toHaveLength(1);
      expect(hit[0].start).toBe(3);
      expect(hit[0].end).toBe(6 + hidden.length);
      expect(hit[0].original).toBe(`海洛${hidden}因`);
      // the message quotes the word as it reads, never the invisible character
      expect(hit[0].message).toContain('“海洛因”');
    }
  });

  it('are found with several hidden characters and in full-width or small Latin forms', () => {
    const text = `禁止${ZWSP}吸\u00ad${ZWSP}毒，远离Ｋ粉和k粉。`;
    const hits = listed(check(text, { checkOptions: SENSITIVE }), 3).map((i) => span(text, i));
    expect(hits).toEqual([`吸\u00ad${ZWSP}毒`, 'Ｋ粉', 'k粉']);
  });

  it('are not made by joining characters across a space, a line break or an ideographic space', () => {
    for (const text of ['海洛 因', '海洛\n因', '海洛\r\n因', '海洛\u3000因', '海洛\u00a0因', 'K 粉']) {
      expect(listed(check(text, { checkOptions: SENSITIVE }), 3), JSON.stringify(text)).toEqual([]);
    }
  });
});

describe('custom sensitive, key and wrong words', () => {
  it('custom and team sensitive words are found through hidden characters and full-width forms', () => {
    const text = `内部代号：绝${ZWSP}密计划与ＡＢ${'\u2060'}Ｃ项目。`;
    const issues = check(text, {
      checkOptions: SENSITIVE,
      sensitiveWords: [
        { word: '绝密计划', source: 'personal' },
        { word: 'abc项目', category: '8-3', source: 'team' },
      ],
    });
    expectWellFormed(text, issues);
    expect(listed(issues, 4).map((i) => span(text, i))).toEqual([`绝${ZWSP}密计划`]);
    expect(listed(issues, 6).map((i) => [span(text, i), i.category])).toEqual([['ＡＢ\u2060Ｃ项目', '8-3']]);
  });

  it('key words are found through a bidi override and still not across a line break', () => {
    const text = `本季度重\u202e点工程进展顺利。\n重\n点工程另行安排。`;
    const issues = check(text, { checkOptions: Bits.dictionary, keyWords: [{ word: '重点工程', source: 'personal' }] });
    expect(listed(issues, 9).map((i) => [i.start, i.end])).toEqual([[3, 8]]);
  });

  it('a wrong word split by a zero-width space is replaced as a whole, hidden character included', () => {
    const text = `请把萍${ZWSP}果放进冰箱，萍 果不行。`;
    const wrongWords = [{ word: '萍果', correct: '苹果', source: 'personal' as const }];
    const issues = check(text, { checkOptions: Bits.dictionary, wrongWords });
    expectWellFormed(text, issues);
    const wrong = listed(issues, 5);
    expect(wrong).toHaveLength(1);
    expect(wrong[0]).toMatchObject({ start: 2, end: 5, original: `萍${ZWSP}果`, suggestions: ['苹果'] });
    expect(apply(text, wrong)).toBe('请把苹果放进冰箱，萍 果不行。');
  });

  it('a wrong word whose only difference from its correction is case is offered where the case differs', () => {
    const text = 'Wechat 和 WeChat 和 ＷＥＣＨＡＴ';
    const wrongWords = [{ word: 'Wechat', correct: 'WeChat' }];
    const issues = listed(check(text, { checkOptions: Bits.dictionary, wrongWords }), 5);
    expectWellFormed(text, issues);
    expect(issues.map((i) => i.original)).toEqual(['Wechat', 'ＷＥＣＨＡＴ']);
  });

  it('an allowed word silences a list word however it is disguised', () => {
    const text = `他们在海洛${ZWSP}因交易中被抓，Ｋ粉也是。`;
    expect(listed(check(text, { checkOptions: SENSITIVE }), 3).map((i) => span(text, i))).toEqual([
      `海洛${ZWSP}因`,
      'Ｋ粉',
    ]);
    const issues = check(text, { checkOptions: SENSITIVE, allowedWords: ['海洛因', 'k粉'] });
    expect(listed(issues, 3)).toEqual([]);
  });

  it('a word library’s hits name the library; the user’s own entries name none', () => {
    const text = '萍果和重点工程都涉及赌博。';
    const issues = check(text, {
      checkOptions: Bits.dictionary | Bits.sensitive,
      wrongWords: [{ word: '萍果', correct: '苹果', source: 'personal', library: 3 }],
      keyWords: [{ word: '重点工程', source: 'personal', library: 4 }],
      sensitiveWords: [{ word: '赌博', source: 'personal' }],
    });
    expect(listed(issues, 5).map((i) => i.library)).toEqual([3]);
    expect(listed(issues, 9).map((i) => i.library)).toEqual([4]);
    expect(listed(issues, 4).map((i) => 'library' in i)).toEqual([false]);
  });
});

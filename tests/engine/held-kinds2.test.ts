/**
 * More native writers' slips: an idiom's character replaced by one related to it by neither sound nor shape, a
 * doubled character whose double is no word, a word of two that lost its second character before a particle, and a
 * word written reversed whose reverse makes a longer word with its neighbour. Each has text that must be fixed and
 * correct text that must be left alone. All sentences are written for these tests.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { check, loadEngine } from '../../engine/index';
import { fix } from './helpers';

beforeAll(() => {
  loadEngine();
}, 120_000);

describe('an idiom held but for one character that neither sounds nor looks like the right one', () => {
  it.each([
    ['他这样做无异于画蛇添手，反而坏了事。', '他这样做无异于画蛇添足，反而坏了事。'],
    ['这种守株待鸟的做法不可取。', '这种守株待兔的做法不可取。'],
  ])('%s', (text, want) => {
    expect(fix(text).out).toBe(want);
  });
  it('three characters that several idioms share say nothing of which was meant (截然/迥然/全然不同)', () => {
    expect(check('他们的想法回然不同。').filter((i) => i.suggestions[0] === '截')).toEqual([]);
  });
  it.each(['随着一声炸响，烟花照亮了夜空。', '大家各抒己见，会议开得很热烈。', '这件事他做得画蛇添足。'])(
    'leaves %s alone',
    (text) => {
      expect(check(text)).toEqual([]);
    },
  );
});

describe('a doubled character whose double is no word', () => {
  it.each([
    ['今年全县粮食产产量再创新高。', '今年全县粮食产量再创新高。'],
    ['这是一项惠民民的工程。', '这是一项惠民的工程。'],
  ])('%s', (text, want) => {
    expect(fix(text).out).toBe(want);
  });
  it.each([
    '他们走走停停，看了一路风景。',
    '屋子里静悄悄的，小河哗哗地流。',
    '婷婷今年五岁了。',
    '他把衣服洗得干干净净。',
    // a double that is a word, after a word of three that holds one copy (常回家): as written
    '我们要常常回家看看父母。',
  ])('leaves %s alone', (text) => {
    expect(check(text).filter((i) => i.category === '4')).toEqual([]);
  });
});

describe('a word of two that lost its second character before a particle', () => {
  it('平等互的原则 → 平等互利的原则', () => {
    expect(fix('他们坚持平等互的原则。').out).toBe('他们坚持平等互利的原则。');
  });
  it.each(['这是我的书。', '她是我的妻。', '屋里很暗。', '请关灯。'])('leaves %s alone', (text) => {
    expect(check(text).filter((i) => i.category === '3')).toEqual([]);
  });
});

describe('a word written reversed whose reverse makes a longer word with its neighbour', () => {
  it('学科家 → 科学家', () => {
    expect(fix('他是一位著名的学科家。').out).toBe('他是一位著名的科学家。');
  });
  it.each(['物理是一门基础学科。', '他讲了一个交通安全的故事。', '这些政策对企业的发展很合适。'])(
    'leaves %s alone',
    (text) => {
      expect(check(text).filter((i) => i.category === '7')).toEqual([]);
    },
  );
});

import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { check, loadEngine, CATEGORIES, RESULT_TYPES, Bits, ALL_STANDARD } from '../../engine/index';
import { apply, expectWellFormed } from './helpers';

let loadMs = 0;
beforeAll(() => {
  loadMs = loadEngine().loadMs;
});

describe('loading and metadata', () => {
  it('loads the lexicons once (the load-time target is measured by `npm run bench`, not here)', () => {
    expect(loadMs).toBeGreaterThan(0);
    expect(loadEngine().loadMs).toBe(loadMs);
  });
  it('exports category metadata for every spec code with a bit in 127 or the advanced bit', () => {
    const codes = CATEGORIES.map((c) => c.code);
    for (const c of ['0', '1', '2', '3', '4', '5', '7', '9-1', '9-2', '11', '12-1', '12-2', '12-3'])
      expect(codes).toContain(c);
    for (let k = 1; k <= 12; k++) expect(codes).toContain(`8-${k}`);
    for (let k = 1; k <= 5; k++) expect(codes).toContain(`10-${k}`);
    for (const c of CATEGORIES) {
      expect(c.cn && c.en && c.hk).toBeTruthy();
      expect(c.bit & (ALL_STANDARD | Bits.advanced)).toBe(c.bit);
    }
    expect(RESULT_TYPES.map((r) => r.type)).toEqual([3, 4, 5, 6, 7, 9, 10, 11]);
  });
});

describe('protected spans', () => {
  it('never flags inside URLs, e-mail addresses, numbers or Latin words', () => {
    const text =
      '详见http://example.com/wen-ti,ok 或写信到 wenti.help@example.org，编号A1B2问提,金额12.5万元，iPhone手机。';
    const issues = check(text);
    expectWellFormed(text, issues);
    const protectedSpans = [
      /http:\/\/example\.com\/wen-ti,ok/,
      /wenti\.help@example\.org/,
      /A1B2/,
      /12\.5/,
      /iPhone/,
    ].map((re) => {
      const m = re.exec(text)!;
      return [m.index, m.index + m[0].length];
    });
    for (const i of issues) for (const [s, e] of protectedSpans) expect(i.start < e && s < i.end).toBe(false);
    // the real error next to them is still found
    expect(issues.some((i) => i.original === '提' && i.suggestions[0] === '题')).toBe(true);
  });
  it('does not change likely proper names', () => {
    const spelling = (t: string, mode: 3 | 4 = 3) =>
      check(t, { mode }).filter((i) => ['0', '1', '2', '5'].includes(i.category));
    expect(spelling('诸葛亮是三国时期的政治家。')).toEqual([]);
    for (const t of ['刚洗过澡的苏怜卿披着一头长发。', '王婷听见有人叫她。', '陈烈除了力气大，还很聪明。']) {
      expect(spelling(t)).toEqual([]);
      expect(spelling(t, 4)).toEqual([]);
    }
    // an error elsewhere in the sentence is still found
    expect(spelling('王婷在会上讨论了这个问提。').map((i) => i.suggestions[0])).toEqual(['题']);
  });
});

describe('custom dictionaries', () => {
  it('custom wrong words: type 5 (personal) and 7 (team), with the correction', () => {
    const text = '请把登陆页面改一下，再检查帐号。';
    const issues = check(text, {
      wrongWords: [
        { word: '登陆页面', correct: '登录页面', source: 'personal' },
        { word: '帐号', correct: '账号', source: 'team' },
      ],
    });
    expectWellFormed(text, issues);
    const a = issues.find((i) => i.original === '登陆页面')!;
    expect(a.type).toBe(5);
    expect(a.suggestions).toEqual(['登录页面']);
    expect(issues.find((i) => i.original === '帐号')!.type).toBe(7);
    expect(apply(text, issues)).toBe('请把登录页面改一下，再检查账号。');
  });
  it('custom sensitive words: category and type 4 / 6; key words: category 11, type 9 / 10', () => {
    const text = '项目代号青松计划，涉及北辰工程。';
    const issues = check(text, {
      sensitiveWords: [
        { word: '青松计划', category: '8-6', source: 'personal' },
        { word: '北辰工程', source: 'team' },
      ],
      keyWords: [
        { word: '项目代号', source: 'personal' },
        { word: '涉及', source: 'team' },
      ],
    });
    const by = (w: string) => issues.find((i) => i.original === w)!;
    expect([by('青松计划').category, by('青松计划').type]).toEqual(['8-6', 4]);
    expect([by('北辰工程').category, by('北辰工程').type]).toEqual(['8-1', 6]);
    expect([by('项目代号').category, by('项目代号').type]).toEqual(['11', 9]);
    expect([by('涉及').category, by('涉及').type]).toEqual(['11', 10]);
  });
  it('allowed words silence matches of every family', () => {
    const text = '我们讨论这个问提，网络赌博不可取。';
    expect(check(text).length).toBeGreaterThanOrEqual(2);
    expect(check(text, { allowedWords: ['问提', '网络赌博'] })).toEqual([]);
  });
  it('dictionary results are switched by bit 64 and sensitive words by bit 8', () => {
    const opts = { wrongWords: [{ word: '赛博空间', correct: '网络空间' }], sensitiveWords: [{ word: '青松计划' }] };
    expect(check('赛博空间与青松计划', { ...opts, checkOptions: 127 - 64 }).map((i) => i.original)).toEqual([
      '青松计划',
    ]);
    expect(check('赛博空间与青松计划', { ...opts, checkOptions: 127 - 8 }).map((i) => i.original)).toEqual([
      '赛博空间',
    ]);
  });
});

describe('hk (traditional input)', () => {
  it('checks traditional text, suggests in traditional, offsets into the original', () => {
    const text = '我們明天在會議室討論這個問提。';
    const issues = check(text, { lang: 'hk' });
    expectWellFormed(text, issues);
    expect(issues).toHaveLength(1);
    expect(issues[0].original).toBe('提');
    expect(issues[0].suggestions).toEqual(['題']);
    expect(apply(text, issues)).toBe('我們明天在會議室討論這個問題。');
    expect(check('我們明天在會議室討論這個問題。', { lang: 'hk' })).toEqual([]);
  });
  it('custom wrong words written in traditional characters work', () => {
    const issues = check('請檢查帳號。', { lang: 'hk', wrongWords: [{ word: '帳號', correct: '賬號' }] });
    expect(issues.map((i) => [i.original, i.suggestions[0], i.type])).toEqual([['帳號', '賬號', 5]]);
  });
});

describe('robustness', () => {
  it('handles empty input, surrogate pairs and odd characters', () => {
    expect(check('')).toEqual([]);
    const text = '𠮷野家的问提😀，\u0000好吗';
    const issues = check(text);
    expectWellFormed(text, issues);
  });
  it('a 1 MB input completes with valid offsets', () => {
    const parts = [
      '我们明天在会议室讨论这个问提。',
      '今年的粮食产量再创新高，农民的收入也有了明显增长。',
      'Version 2.0 was released on 2024-05-01, see https://example.com.',
      '他高兴的跳了起来,大家都笑了。',
      '合同编号：HT-2024-0815，金额为12,500.00元。',
    ];
    const chunks: string[] = [];
    let bytes = 0;
    for (let k = 0; bytes < 1024 * 1024; k++) {
      const piece = parts[k % parts.length] + (k % 7 === 6 ? '\n' : '');
      chunks.push(piece);
      bytes += Buffer.byteLength(piece);
    }
    const text = chunks.join('');
    const issues = check(text);
    expect(issues.length).toBeGreaterThan(1000);
    const bad = issues.filter((i) => text.slice(i.start, i.end) !== i.original || i.end <= i.start);
    expect(bad).toEqual([]);
  }, 120_000);
});

describe('CLI', () => {
  it('--jsonl reads {id,text} lines and writes {id,issues}', () => {
    const root = path.resolve(__dirname, '..', '..');
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'engine/cli.ts', '--jsonl', '--mode', '4'], {
      cwd: root,
      input: '{"id":1,"text":"讨论这个问提"}\n{"id":"b","text":"没有问题。"}\n',
      encoding: 'utf8',
    });
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0].id).toBe(1);
    expect(lines[0].issues[0]).toMatchObject({ start: 5, end: 6, original: '提', suggestions: ['题'], category: '1' });
    expect(lines[1]).toEqual({ id: 'b', issues: [] });
  }, 20_000);
});

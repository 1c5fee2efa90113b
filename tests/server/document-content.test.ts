import { describe, expect, it } from 'vitest';
import {
  contentFromHtml,
  contentFromText,
  htmlBlocks,
  normalizeText,
  openIssues,
  trackedParagraphs,
  validateFixes,
  type StoredIssue,
} from '../../server/formats/documents/content';

const issue = (text: string, original: string, from = 0, message = `“${original}”有误`): StoredIssue => {
  const start = text.indexOf(original, from);
  return { start, end: start + original.length, original, suggestions: ['改'], category: '1', level: 1, message };
};

describe('document content', () => {
  it(
    'one line per leaf block: headings, list items (nested too), table cells, ' +
      'inline runs beside blocks; <br> is a space',
    () => {
      const html =
        '<h1>标题</h1><p>第一段<strong>加粗</strong>文字。<br>续行</p><ul><li>甲<ul><li>甲一</li></ul>' +
        '</li><li><p>乙</p></li></ul><table><tr><td>格一</td><td><p>格二</p></td></tr></tabl' +
        'e><p> </p><p><img src="data:image/png;base64,AAAA"></p>';
      expect(htmlBlocks(html)).toEqual([
        { tag: 'h1', text: '标题' },
        { tag: 'p', text: '第一段加粗文字。 续行' },
        { tag: 'li', text: '甲' },
        { tag: 'li', text: '甲一' },
        { tag: 'p', text: '乙' },
        { tag: 'td', text: '格一' },
        { tag: 'p', text: '格二' },
      ]);
      expect(contentFromHtml('<p onclick="x()">a<script>alert(1)</script></p><p>b</p>')).toMatchObject({
        html: '<p>a</p><p>b</p>',
        text: 'a\nb',
      });
    },
  );

  it('normalises text like the stored form and maps offsets onto it', () => {
    const raw = '  第一行  有空格\r\n\n\t第二行\n   \n末行 ';
    const { text, map } = normalizeText(raw);
    expect(text).toBe('第一行 有空格\n第二行\n末行');
    for (const word of ['有空格', '第二行', '末行']) {
      const at = raw.indexOf(word);
      expect(text.slice(map(at), map(at + word.length))).toBe(word);
    }
    expect(map(raw.length)).toBe(text.length);
  });

  it('saving text with as many lines keeps the structure (lists, tables, headings, unchanged emphasis)', () => {
    const before =
      '<h2>标题</h2><p>有<strong>重点</strong>的段落</p><ul><li>问提一</li></ul><table><tbody><tr><td>格</td></tr></tbody></table>';
    const after = contentFromText('标题\n有重点的段落\n问题一\n格', before);
    expect(after.html).toBe(
      '<h2>标题</h2><p>有<strong>重点</strong>的段落</p><ul><li>问题一</li></ul><table><tbody><tr><td>格</td></tr></tbody></table>',
    );
    expect(after.text).toBe('标题\n有重点的段落\n问题一\n格');
    // a different line count: paragraphs, a known heading stays a heading, markup in text stays text
    const added = contentFromText('标题\n新的一段 <b>x</b>\n有重点的段落\n问题一\n格', before);
    expect(added.html).toBe(
      '<h2>标题</h2>\n<p>新的一段 &lt;b&gt;x&lt;/b&gt;</p>\n<p>有重点的段落</p>\n<p>问题一</p>\n<p>格</p>',
    );
  });

  it('validates accepted fixes against the saved text', () => {
    const text = '我们讨论这个问题。\n第二段';
    const ok = { start: 7, end: 8, original: '提', replacement: '题' };
    expect(validateFixes(text, [ok])).toEqual([ok]);
    expect(() => validateFixes(text, [{ ...ok, replacement: '提' }])).toThrow(/不一致|没有改动/);
    expect(() => validateFixes(text, [{ ...ok, end: 99 }])).toThrow(/超出/);
    expect(() => validateFixes(text, [ok, { start: 7, end: 9, original: '提。', replacement: '题。' }])).toThrow(
      /重叠/,
    );
    expect(() => validateFixes(text, [{ start: 9, end: 10, original: 'x', replacement: '\n' }])).toThrow(/跨段落/);
  });

  it(
    'tracked paragraphs: fixes as deletion + insertion, findings as comments ' +
      '(overlapping ones merged, those on a fix dropped), headings kept',
    () => {
      const blocks = [
        { tag: 'h1', text: '关于问题的通知' },
        { tag: 'p', text: '我们讨论这个问题，在次开会。' },
        { tag: 'li', text: '删除了多余字' },
      ];
      const text = blocks.map((b) => b.text).join('\n');
      const fixAt = text.indexOf('问题，');
      const fixes = [
        { start: fixAt + 1, end: fixAt + 2, original: '提', replacement: '题' },
        { start: text.indexOf('多余字') + 2, end: text.indexOf('多余字') + 2, original: '的', replacement: '' },
      ];
      const issues = [
        issue(text, '在次'),
        issue(text, '次开', 0, '第二条'),
        issue(text, '问题，'),
        issue(text, '通知'),
      ];
      const paragraphs = trackedParagraphs(blocks, fixes, issues);
      expect(paragraphs[0]).toEqual({
        heading: 1,
        segments: [{ text: '关于问题的' }, { text: '通知', comment: '“通知”有误（建议：改）' }],
      });
      expect(paragraphs[1].segments).toEqual([
        { text: '我们讨论这个问' },
        { deleted: '提' },
        { inserted: '题' },
        { text: '，' },
        { text: '在次开', comment: '“在次”有误（建议：改）\n第二条（建议：改）' },
        { text: '会。' },
      ]);
      expect(paragraphs[2]).toEqual({ segments: [{ text: '删除了多余' }, { deleted: '的' }, { text: '字' }] });
      expect(openIssues(issues, [{ start: issues[0].start, end: issues[0].end, original: '在次' }])).toHaveLength(3);
    },
  );
});

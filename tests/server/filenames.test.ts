// Uploaded file names are stored and shown without controls, bidi overrides or other format characters
// (a right-to-left override makes "abc\u202Egpj.docx" display as "abcxcod.jpg").
import { Document, Packer, Paragraph, TextRun } from 'docx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILENAME_MAX, sanitizeFilename } from '../../server/formats/filenames';
import { call, CLIENT_HEADERS, form, register, startTestApp, type TestApp } from './helpers';

const RLO = '\u202e';
/** Controls and format characters no stored or shown name may hold. */
const UNSAFE = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp();
  token = await register(t, '13522229901');
}, 60_000);
afterAll(async () => t.close());

const docx = async (text: string) =>
  Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph({ children: [new TextRun(text)] })] }] }));

async function post(url: string, parts: Parameters<typeof form>[0]) {
  const { payload, contentType } = form(parts);
  const headers = { ...CLIENT_HEADERS, authorization: `Bearer ${token}`, 'content-type': contentType };
  const res = await t.app.inject({ method: 'POST', url, headers, payload });
  return { status: res.statusCode, json: res.json(), headers: res.headers };
}

describe('sanitizeFilename', () => {
  it('strips bidi overrides and isolates, zero-width and other format characters, C0 and C1 controls', () => {
    expect(sanitizeFilename(`abc${RLO}gpj.docx`)).toBe('abcgpj.docx');
    expect(sanitizeFilename('a\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069b.txt')).toBe('ab.txt');
    expect(sanitizeFilename('报\u200b告\u200c\u200d\u200e\u200f\u2060\ufeff\u00ad.docx')).toBe('报告.docx');
    expect(sanitizeFilename('a\u0000b\tc\r\nd\u007f\u0085\u009fe\u2028\u2029.pdf')).toBe('abcde.pdf');
  });

  it('keeps ordinary names, spaces inside and non-Latin text as they are', () => {
    for (const name of [
      '年度报告 (终稿).docx',
      'Report v2.final.pdf',
      '東京　会議.txt',
      'naïve café.md',
      '😀 表情.docx',
    ]) {
      expect(sanitizeFilename(name)).toBe(name);
    }
  });

  it('takes the last path segment, trims, and falls back when nothing is left', () => {
    expect(sanitizeFilename('C:\\fakepath\\报告.docx')).toBe('报告.docx');
    expect(sanitizeFilename('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFilename(`  ${RLO} 名字.txt \u200b `)).toBe('名字.txt');
    expect(sanitizeFilename(`\u202e\u200b`)).toBe('文件');
    expect(sanitizeFilename('..', '文档')).toBe('文档');
    expect(sanitizeFilename('', '词库')).toBe('词库');
  });

  it('limits the length in code points and keeps the extension', () => {
    const long = `${'长'.repeat(300)}.docx`;
    const short = sanitizeFilename(long);
    expect(Array.from(short)).toHaveLength(FILENAME_MAX);
    expect(short.endsWith('.docx')).toBe(true);
    // astral characters are never cut in half
    const emoji = sanitizeFilename(`${'😀'.repeat(250)}.txt`);
    expect(emoji.isWellFormed()).toBe(true);
    expect(Array.from(emoji)).toHaveLength(FILENAME_MAX);
    expect(emoji.endsWith('.txt')).toBe(true);
    // no extension to keep: just cut
    expect(Array.from(sanitizeFilename('字'.repeat(300)))).toHaveLength(FILENAME_MAX);
  });
});

describe('uploads store and show the sanitised name', () => {
  it('a document named "abc\\u202Egpj.docx" is stored, listed and read without the override', async () => {
    const file = { name: 'file', filename: `abc${RLO}gpj.docx`, data: await docx('我们明天讨论这个问题。') };
    const up = await post('/misscut/document/v1/upload', [file]);
    expect(up.status).toBe(200);
    const id = up.json.result.id as number;
    const page = await call(t.app, 'GET', '/misscut/document/v1/page?num=1&size=20', undefined, token);
    const listed = page.json.result.list.find((d: { id: number }) => d.id === id);
    expect(listed.name).toBe('abcgpj.docx');
    const one = await call(t.app, 'GET', `/misscut/document/v1/edit_upload_get?id=${id}`, undefined, token);
    expect(one.json.result.name).toBe('abcgpj.docx');
  });

  it('the dictionary import keeps the sanitised name for its failures file', async () => {
    const file = { name: 'file', filename: `词库${RLO}vsc.txt`, type: 'text/plain', data: '没有类型的词\n' };
    const res = await post('/dict/v1/upload_words', [file]);
    expect(res.status).toBe(200);
    expect(res.json.result.failed).toBe(1);
    const failures = await call(t.app, 'GET', '/dict/down_words_failed_to_upload', undefined, token);
    expect(failures.status).toBe(200);
    const disposition = String(failures.res.headers['content-disposition']);
    expect(disposition).toContain(encodeURIComponent('词库vsc-导入失败.csv'));
    expect(decodeURIComponent(disposition.split("''")[1])).not.toMatch(UNSAFE);
  });

  it('compare and doc2html answer with the sanitised names', async () => {
    const diff = await post('/misscut/v1/doc/diff', [
      { name: 'file', filename: `原\u200b稿${RLO}txt.docx`, data: await docx('第一段文字。') },
      { name: 'compare_file', filename: `修改\u2066稿\u2069.docx`, data: await docx('第一段文本。') },
    ]);
    expect(diff.status).toBe(200);
    expect(diff.json.result.original_name).toBe('原稿txt.docx');
    expect(diff.json.result.revised_name).toBe('修改稿.docx');

    const file = { name: 'file', filename: `通知${RLO}fdp.docx`, data: await docx('通知正文。') };
    const html = await post('/misscut/doc_check/v1/doc2html', [file]);
    expect(html.status).toBe(200);
    expect(html.json.result.name).toBe('通知fdp.docx');
  });
});

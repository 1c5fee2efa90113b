import {
  Document,
  ExternalHyperlink,
  HeadingLevel,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
} from 'docx';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTrackedDocx } from '../../server/formats/documents/docx-export';
import { sanitize } from '../../server/formats/documents/sanitize';
import { unzip } from '../../server/formats/documents/zip';
import { bombZip, CLIENT_HEADERS, call, form, register, startTestApp, type TestApp } from './helpers';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp();
  token = await register(t, '13522220001');
});
afterAll(async () => t.close());

async function doc2html(filename: string, data: Buffer, auth = token) {
  const { payload, contentType } = form([{ name: 'file', filename, data }]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/misscut/doc_check/v1/doc2html',
    headers: { ...CLIENT_HEADERS, 'content-type': contentType, ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
    payload,
  });
  return { status: res.statusCode, json: res.json() };
}

const font = { eastAsia: '仿宋_GB2312' };

async function sampleDocx(): Promise<Buffer> {
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun('关于开展检查的通知')] }),
          new Paragraph({
            children: [
              new TextRun({ text: '请各单位注意<script>alert(1)</script>安全。', font }),
              new TextRun({ text: '加粗', bold: true }),
            ],
          }),
          new Paragraph({
            children: [
              new ExternalHyperlink({ link: 'javascript:alert(1)', children: [new TextRun('恶意链接')] }),
              new ExternalHyperlink({ link: 'https://example.org/', children: [new TextRun('正常链接')] }),
            ],
          }),
          new Paragraph({ text: '第一项', bullet: { level: 0 } }),
          new Paragraph({ text: '第二项', bullet: { level: 0 } }),
          new Table({
            rows: [
              new TableRow({
                children: [
                  new TableCell({ children: [new Paragraph('单元格甲')] }),
                  new TableCell({ children: [new Paragraph('单元格乙')] }),
                ],
              }),
            ],
          }),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

describe('doc2html', () => {
  it('converts a .docx with headings, lists, tables and links into sanitised HTML', async () => {
    const res = await doc2html('通知.docx', await sampleDocx());
    expect(res.status).toBe(200);
    const { html, name, word_count } = res.json.result;
    expect(name).toBe('通知.docx');
    expect(html).toContain('<h1>关于开展检查的通知</h1>');
    expect(html).toMatch(/<ul><li>第一项<\/li><li>第二项<\/li><\/ul>/);
    expect(html).toContain('单元格甲');
    expect(html).toContain('<table>');
    expect(html).toContain('<strong>加粗</strong>');
    // Text that looks like markup stays text; the javascript: link loses its href, the https one keeps it.
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/javascript:/i);
    expect(html).toContain('href="https://example.org/"');
    expect(html).toContain('恶意链接');
    expect(word_count).toBeGreaterThan(20);
  });

  it('converts .txt (UTF-8 with BOM) and .md, escaping raw HTML', async () => {
    const txt = await doc2html(
      'a.txt',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('第一行\r\n\r\n第二行<img src=x onerror=alert(1)>')]),
    );
    expect(txt.status).toBe(200);
    expect(txt.json.result.html).toBe('<p>第一行</p>\n<p>第二行&lt;img src=x onerror=alert(1)&gt;</p>');
    const md = await doc2html(
      'b.md',
      Buffer.from(
        '# 标题\n\n正文 **重点** [坏](javascript:alert(1)) <iframe src="x"></iframe>\n\n- ' +
          '甲\n- 乙\n\n| 列1 | 列2 |\n| --- | --- |\n| 一 | 二 |\n',
      ),
    );
    expect(md.status).toBe(200);
    const html: string = md.json.result.html;
    expect(html).toContain('<h1>标题</h1>');
    expect(html).toContain('<strong>重点</strong>');
    expect(html).toContain('<ul><li>甲</li><li>乙</li></ul>');
    expect(html).toContain('<td>一</td>');
    expect(html).not.toMatch(/javascript:|<iframe/i);
  });

  it('the sanitiser removes scripts, handlers, dangerous URLs, embeds and styles', () => {
    const dirty =
      '<p onclick="x()" style="background:url(javascript:alert(1))">文<script>alert(1)</script>字</p>' +
      '<a href="javascript:alert(1)">a</a><a href="JaVaScRiPt&#58;alert(1)">b</a><a href="vbscript:x">c</a>' +
      ('<img src="x" onerror="alert(1)"><img src="data:image/svg+xml;base64,' +
        'PHN2Zz4="><img src="data:image/png;base64,iVBORw0KGgo=">') +
      '<iframe src="https://evil"></iframe><object data="x"></object><embed src="x"><style>p{color:red}</style>' +
      '<svg><script>alert(1)</script></svg><form action="x"><input></form><math><mi>x</mi></math>' +
      // raw-text elements: what is inside is never given back as markup (the xmp stored XSS of sanitize-html)
      '<xmp><img src=x onerror=alert(3)></xmp><noembed><img src=x onerror=alert(4)></noembed>' +
      '<noframes><script>alert(5)</script></noframes><plaintext><img src=x onerror=alert(6)>';
    const clean = sanitize(dirty);
    expect(clean).not.toMatch(
      /on\w+=|javascript|vbscript|<script|<iframe|<object|<embed|<style|style=|<svg|<form|<input|svg\+xml/i,
    );
    expect(clean).not.toMatch(/alert\([3-6]\)/);
    expect(clean).toContain('<p>文字</p>');
    expect(clean).toContain('<img src="data:image/png;base64,iVBORw0KGgo=" />');
  });

  it('refuses empty, disguised, non-docx zips, corrupt files and zip bombs with clear errors', async () => {
    const empty = await doc2html('a.docx', Buffer.alloc(0));
    expect(empty).toMatchObject({ status: 400, json: { code: 400, result: null } });
    expect(empty.json.msg).toContain('文件为空');

    const exe = await doc2html('report.docx', Buffer.concat([Buffer.from('MZ\x90\x00'), Buffer.alloc(200)]));
    expect(exe.status).toBe(400);
    expect(exe.json.msg).toContain('可执行文件');

    const zip = new JSZip();
    zip.file('readme.txt', 'hello');
    const notDocx = await doc2html('a.docx', await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }));
    expect(notDocx.status).toBe(400);
    expect(notDocx.json.msg).toContain('word/document.xml');

    const good = await sampleDocx();
    const truncated = await doc2html('a.docx', good.subarray(0, Math.floor(good.length / 2)));
    expect(truncated.status).toBe(400);
    expect(truncated.json.msg).toContain('损坏');

    const bomb = await doc2html('bomb.docx', bombZip(50 * 1024 * 1024));
    expect(bomb.status).toBe(413);
    expect(bomb.json.msg).toContain('解压后过大');

    // Headers claim 1 KB, the data inflates to 8 MB: inflation stops at the declared size.
    const liar = await doc2html('liar.docx', bombZip(8 * 1024 * 1024, 1024));
    expect(liar.status).toBe(413);

    const many = new JSZip();
    for (let i = 0; i < 5001; i++) many.file(`f${i}.xml`, '');
    const flood = await doc2html('many.docx', await many.generateAsync({ type: 'nodebuffer', compression: 'STORE' }));
    expect(flood.status).toBe(413);
    expect(flood.json.msg).toContain('条目过多');

    const wrongType = await doc2html('a.exe', Buffer.from('hello'));
    expect(wrongType.status).toBe(400);
    expect(wrongType.json.msg).toContain('不支持的文件类型');
    const binaryTxt = await doc2html('a.txt', Buffer.from([0, 1, 2, 3, 0x41]));
    expect(binaryTxt.status).toBe(400);

    // The server is still fine.
    expect((await doc2html('ok.txt', Buffer.from('正常'))).status).toBe(200);
  });

  it('needs a token', async () => {
    expect((await doc2html('a.txt', Buffer.from('x'), '')).status).toBe(401);
  });
});

describe('html2doc/stream', () => {
  it('writes a .docx keeping headings, lists, tables, emphasis and explicit eastAsia fonts', async () => {
    const html =
      '<h1>关于开展检查的通知</h1><h2>一、总体要求</h2><h3>（一）工作目标</h3><p>各单位要<strong>高度重视</strong>，' +
      '<em>认真</em>落实。<script>alert("x")</script></p>' +
      ('<ul><li>项目甲</li><li>项目乙</li></ul><ol><li>第一步</li></ol><table><tr><th>名称</th><t' +
        'h>数量</th></tr><tr><td>桌子</td><td>3</td></tr></table>');
    const res = await call(t.app, 'POST', '/misscut/doc_check/v1/html2doc/stream', { html, title: '检查通知' }, token);
    expect(res.status).toBe(200);
    expect(res.res.headers['content-type']).toContain(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(res.res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('检查通知.docx')}`);
    const parts = unzip(res.res.rawPayload);
    const xml = parts.get('word/document.xml')!.toString('utf8');
    for (const text of ['关于开展检查的通知', '一、总体要求', '（一）工作目标', '高度重视', '项目甲', '第一步', '桌子'])
      expect(xml).toContain(text);
    expect(xml).not.toContain('alert');
    expect(xml).toContain('w:eastAsia="仿宋_GB2312"');
    expect(xml).toContain('w:eastAsia="黑体"');
    expect(xml).toContain('w:eastAsia="楷体_GB2312"');
    expect(xml).toContain('w:eastAsia="宋体"');
    expect(xml).toContain('<w:tbl>');
    expect(xml).toMatch(/<w:numPr>/);
    expect(xml).toMatch(/<w:b\/>[\s\S]*?高度重视/);
    expect(xml).toContain('w:lineRule="exact"');
    expect(xml).toContain('<w:pgSz w:w="11906" w:h="16838"');
    expect(parts.get('docProps/core.xml')!.toString()).toContain('检查通知');
    // Round trip through doc2html keeps the structure.
    const back = await doc2html('back.docx', res.res.rawPayload);
    expect(back.status).toBe(200);
    expect(back.json.result.html).toContain('<h1>关于开展检查的通知</h1>');
    expect(back.json.result.html).toContain('<li>项目甲</li>');
    expect(back.json.result.html).toContain('桌子');
  });

  it('refuses an empty body', async () => {
    expect((await call(t.app, 'POST', '/misscut/doc_check/v1/html2doc/stream', { html: '' }, token)).status).toBe(400);
  });
});

describe('tracked-changes export', () => {
  it('writes insertions and deletions as Word revisions and findings as comments', async () => {
    const buffer = await buildTrackedDocx(
      [
        { heading: 1, segments: [{ text: '会议通知' }] },
        {
          segments: [
            { text: '我们' },
            { deleted: '在次' },
            { inserted: '再次', comment: '错别字：在次 → 再次' },
            { text: '召开会议，' },
            { text: '必需', comment: '建议改为“必须”' },
            { text: '参加。' },
          ],
        },
      ],
      { author: '校对助手', date: new Date('2026-01-02T03:04:05Z') },
    );
    const parts = unzip(buffer);
    const xml = parts.get('word/document.xml')!.toString('utf8');
    const tracked = '<w:del w:id="\\d+" w:author="校对助手" w:date="2026-01-02T03:04:05Z">';
    expect(xml).toMatch(new RegExp(`${tracked}[\\s\\S]*?<w:delText xml:space="preserve">在次</w:delText>`));
    expect(xml).toMatch(
      /<w:ins w:id="\d+" w:author="校对助手" w:date="2026-01-02T03:04:05Z">[\s\S]*?<w:t xml:space="preserve">再次<\/w:t>/,
    );
    expect(xml.match(/<w:commentRangeStart w:id="\d+"\/>/g)).toHaveLength(2);
    expect(xml.match(/<w:commentReference w:id="\d+"\/>/g)).toHaveLength(2);
    expect(xml).toContain('w:eastAsia="仿宋_GB2312"');
    const comments = parts.get('word/comments.xml')!.toString('utf8');
    expect(comments).toContain('错别字：在次 → 再次');
    expect(comments).toContain('建议改为“必须”');
    expect(comments).toContain('w:author="校对助手"');
  });
});

// A .docx's formatting through the editor (server/formats/documents/docx-format.ts): a bold, centred 22 pt title,
// underlined and italic words and a right-aligned date are read into block classes and inline tags (never style
// attributes), survive the sanitizer and a save, and both exports write them back.
import { AlignmentType, Document, Packer, Paragraph, TextRun } from 'docx';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { contentFromText, htmlBlocks, trackedParagraphs } from '../../server/formats/documents/content';
import { buildTrackedDocx, htmlToDocx } from '../../server/formats/documents/docx-export';
import { documentToHtml } from '../../server/formats/documents/load';
import { sanitize } from '../../server/formats/documents/sanitize';

async function sample(): Promise<Buffer> {
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({
            alignment: AlignmentType.CENTER,
            children: [new TextRun({ text: '关于召开年度会议的通知', bold: true, size: 44 })],
          }),
          new Paragraph({
            children: [
              new TextRun('请各部门'),
              new TextRun({ text: '按时参加', underline: {} }),
              new TextRun({ text: '并提前准备', italics: true }),
              new TextRun('。'),
            ],
          }),
          new Paragraph({ alignment: AlignmentType.RIGHT, children: [new TextRun('二〇二六年十一月')] }),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

async function documentXml(data: Buffer): Promise<string> {
  return (await (await JSZip.loadAsync(data)).file('word/document.xml')?.async('string')) ?? '';
}

describe('formatting of a .docx in the editor', () => {
  it('reads bold, centring and size of a title, inline underline and italics, and right alignment', async () => {
    const { html } = await documentToHtml({
      filename: '通知.docx',
      mimetype: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      data: await sample(),
    });
    expect(html).toContain('<p class="wb-align-center wb-bold wb-size-xl"><strong>关于召开年度会议的通知</strong></p>');
    expect(html).toContain('<u>按时参加</u>');
    expect(html).toContain('<em>并提前准备</em>');
    expect(html).toContain('<p class="wb-align-right">二〇二六年十一月</p>');
    expect(html).not.toMatch(/style=|\uE000|\uE001/);
  });

  it('keeps only the known classes, never a style attribute', () => {
    const clean = sanitize(
      '<p class="wb-bold evil" style="color:red">甲</p><span class="wb-size-xl">乙</span>' +
        '<h1 class="wb-align-right x">丙</h1>',
    );
    expect(clean).toBe('<p class="wb-bold">甲</p><span>乙</span><h1 class="wb-align-right">丙</h1>');
  });

  it('keeps the formatting through a save and writes it into both exports', async () => {
    const { html } = await documentToHtml({ filename: '通知.docx', mimetype: '', data: await sample() });
    // a save with one line changed: the blocks keep their classes
    const saved = contentFromText('关于召开年度会议的通知\n请各部门按时参加并提前准备。\n二〇二六年十二月', html);
    expect(saved.html).toContain('<p class="wb-align-center wb-bold wb-size-xl">');
    expect(saved.html).toContain('<p class="wb-align-right">二〇二六年十二月</p>');

    const clean = await documentXml(await htmlToDocx(saved.html, '通知'));
    const title = clean.slice(0, clean.indexOf('关于召开年度会议的通知'));
    expect(title.slice(title.lastIndexOf('<w:p>'))).toMatch(/<w:jc w:val="center"\/>.*<w:b\/>.*<w:sz w:val="44"\/>/s);
    expect(clean).toMatch(/<w:u w:val="single"\/>.*按时参加/s);
    expect(clean).toMatch(/<w:i\/>.*并提前准备/s);
    expect(clean).toMatch(/<w:jc w:val="right"\/>.*二〇二六年十二月/s);

    const tracked = await documentXml(
      await buildTrackedDocx(trackedParagraphs(htmlBlocks(saved.html), [], []), { title: '通知' }),
    );
    expect(tracked).toMatch(/<w:jc w:val="center"\/>.*<w:b\/>.*<w:sz w:val="44"\/>.*关于召开年度会议的通知/s);
    expect(tracked).toMatch(/<w:jc w:val="right"\/>.*二〇二六年十二月/s);
  });
});

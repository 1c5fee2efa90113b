import { AlignmentType, Document, Footer, LineRuleType, Packer, PageNumber, Paragraph, TextRun } from 'docx';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFormat } from '../../server/formats/format/check';
import { parseDocx } from '../../server/formats/format/resolver';
import { loadTemplates } from '../../server/formats/format/template-store';
import { unzip } from '../../server/formats/documents/zip';
import { CLIENT_HEADERS, call, register, startTestApp, type TestApp } from './helpers';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp();
  token = await register(t, '13533330001');
});
afterAll(async () => t.close());

async function formatCheck(filename: string, data: Buffer, templateId?: string) {
  const boundary = '----format-test-boundary';
  const parts = [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; ` +
        `filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    data,
    Buffer.from('\r\n'),
  ];
  if (templateId !== undefined)
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="template_id"\r\n\r\n${templateId}\r\n`),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const res = await t.app.inject({
    method: 'POST',
    url: '/misscut/v1/doc/format_check',
    headers: {
      ...CLIENT_HEADERS,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      authorization: `Bearer ${token}`,
    },
    payload: Buffer.concat(parts),
  });
  return { status: res.statusCode, json: res.json() };
}

const f = (eastAsia: string, ascii = 'Times New Roman') => ({ eastAsia, ascii, hAnsi: ascii });
const exact = { line: 560, lineRule: LineRuleType.EXACT };
type Opts = {
  align?: (typeof AlignmentType)[keyof typeof AlignmentType];
  color?: string;
  indent?: boolean;
  size?: number;
  rightChars?: number;
};
const para = (text: string, eastAsia: string, size: number, o: Opts = {}) =>
  new Paragraph({
    spacing: exact,
    alignment: o.align,
    indent: o.indent ? { firstLineChars: 200 } : o.rightChars ? { right: o.rightChars * 320 } : undefined,
    children: [new TextRun({ text, font: f(eastAsia), size, color: o.color })],
  });
const footer = (align: (typeof AlignmentType)[keyof typeof AlignmentType]) =>
  new Footer({
    children: [
      new Paragraph({
        alignment: align,
        children: [new TextRun({ children: ['— ', PageNumber.CURRENT, ' —'], font: f('宋体', '宋体'), size: 28 })],
      }),
    ],
  });

const GB_PAGE = { size: { width: 11906, height: 16838 }, margin: { top: 2098, left: 1587, right: 1474, bottom: 1984 } };

/** A conforming 通知 built the way a careful typist would. */
async function conforming(): Promise<Buffer> {
  const doc = new Document({
    evenAndOddHeaderAndFooters: true,
    sections: [
      {
        properties: { page: GB_PAGE },
        footers: { default: footer(AlignmentType.RIGHT), even: footer(AlignmentType.LEFT) },
        children: [
          para('××市人民政府文件', '方正小标宋简体', 72, { align: AlignmentType.CENTER, color: 'FF0000' }),
          para('×政发〔2024〕5号', '仿宋_GB2312', 32, { align: AlignmentType.CENTER }),
          para('关于开展安全生产检查的通知', '方正小标宋简体', 44, { align: AlignmentType.CENTER }),
          para('各区县人民政府，市政府各部门：', '仿宋_GB2312', 32),
          para('为做好安全生产工作，现将有关事项通知如下。', '仿宋_GB2312', 32, { indent: true }),
          para('一、检查范围', '黑体', 32, { indent: true }),
          para('（一）重点行业', '楷体_GB2312', 32, { indent: true }),
          para('1.危险化学品企业', '仿宋_GB2312', 32, { indent: true }),
          para('（1）生产企业', '仿宋_GB2312', 32, { indent: true }),
          para('全市各类企业都要开展自查。', '仿宋_GB2312', 32, { indent: true }),
          para('附件：安全生产检查表', '仿宋_GB2312', 32, { indent: true }),
          para('××市人民政府', '仿宋_GB2312', 32, { align: AlignmentType.RIGHT }),
          para('2024年3月1日', '仿宋_GB2312', 32, { align: AlignmentType.RIGHT, rightChars: 4 }),
          para('（此件公开发布）', '仿宋_GB2312', 32, { indent: true }),
          para('抄送：市委办公室，市人大常委会办公室。', '仿宋_GB2312', 28),
          para('××市人民政府办公室　　2024年3月1日印发', '仿宋_GB2312', 28),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

/**
 * Letter paper, Word's default margins, wrong fonts and sizes, a blue heading, 1999-style numbers and dates, no page
 * numbers.
 */
async function nonConforming(): Promise<Buffer> {
  const doc = new Document({
    sections: [
      {
        properties: {
          page: { size: { width: 12240, height: 15840 }, margin: { top: 1440, left: 1800, right: 1800, bottom: 1440 } },
        },
        children: [
          para('××市人民政府文件', '宋体', 72, { align: AlignmentType.CENTER }),
          para('×政发[2024]第05号', '仿宋_GB2312', 32, { align: AlignmentType.CENTER }),
          para('关于开展安全生产检查的通知', '宋体', 36),
          para('各区县人民政府:', '仿宋_GB2312', 32),
          para('为做好安全生产工作，现将有关事项通知如下。', '宋体', 24),
          para('一、检查范围', '仿宋_GB2312', 32, { indent: true }),
          para('（1）生产企业', '仿宋_GB2312', 32, { indent: true, color: '0000FF' }),
          para('××市人民政府', '仿宋_GB2312', 32, { align: AlignmentType.RIGHT }),
          para('二〇二四年三月一日', '仿宋_GB2312', 32, { align: AlignmentType.RIGHT }),
          para('抄送：市委办公室', '仿宋_GB2312', 32),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

describe('format check', () => {
  it('lists the templates from the data files', async () => {
    const res = await call(t.app, 'GET', '/misscut/v1/doc/template_types', undefined, token);
    expect(res.status).toBe(200);
    expect(res.json.result[0]).toMatchObject({
      id: 1,
      key: 'gbt9704-2012',
      name: expect.stringContaining('GB/T 9704'),
    });
    expect((await call(t.app, 'GET', '/misscut/v1/doc/template_types')).status).toBe(401);
  });

  it('finds every element of a conforming document and no errors', async () => {
    const res = await formatCheck('ok.docx', await conforming(), '1');
    expect(res.status).toBe(200);
    const report = res.json.result;
    expect(report.template_id).toBe(1);
    expect(report.elements.map((e: { element: string }) => e.element)).toEqual([
      'issuerMark',
      'docNumber',
      'title',
      'recipient',
      'body',
      'heading1',
      'heading2',
      'heading3',
      'heading4',
      'body',
      'attachmentNote',
      'signature',
      'date',
      'note',
      'cc',
      'imprint',
    ]);
    expect(report.violations).toEqual([]);
  });

  it('reports each violation with where it is, what was expected and what was found', async () => {
    const res = await formatCheck('bad.docx', await nonConforming());
    expect(res.status).toBe(200);
    const v: Array<{
      rule: string;
      element: string;
      paragraph: number | null;
      excerpt: string;
      expected: string;
      found: string;
      severity: string;
    }> = res.json.result.violations;
    const find = (rule: string, element: string) => v.find((x) => x.rule === rule && x.element === element);
    expect(find('paper', 'page')).toMatchObject({
      paragraph: null,
      expected: expect.stringContaining('A4'),
      found: '215.9mm×279.4mm',
    });
    expect(find('margin-top', 'page')).toMatchObject({ expected: expect.stringContaining('37.0mm'), found: '25.4mm' });
    expect(find('page-number', 'page')).toMatchObject({ found: '无页码' });
    expect(find('color', 'issuerMark')).toMatchObject({ paragraph: 0, severity: 'warning' });
    expect(find('pattern', 'docNumber')).toMatchObject({
      paragraph: 1,
      excerpt: '×政发[2024]第05号',
      expected: expect.stringContaining('〔'),
    });
    expect(find('size', 'title')).toMatchObject({ paragraph: 2, expected: '二号 22磅', found: '小二 18磅' });
    expect(find('align', 'title')).toMatchObject({ paragraph: 2, expected: '居中' });
    expect(find('pattern', 'recipient')).toMatchObject({ paragraph: 3, excerpt: '各区县人民政府:' });
    expect(find('font', 'body')).toMatchObject({ paragraph: 4, found: '宋体' });
    expect(find('size', 'body')).toMatchObject({ paragraph: 4, found: '小四 12磅' });
    expect(find('indent', 'body')).toMatchObject({ paragraph: 4, expected: '首行缩进2字', found: '首行缩进0字' });
    expect(find('font', 'heading1')).toMatchObject({
      paragraph: 5,
      expected: expect.stringContaining('黑体'),
      found: '仿宋_GB2312',
    });
    expect(find('heading-order', 'heading4')).toMatchObject({ paragraph: 6 });
    expect(find('color', 'heading4')).toMatchObject({
      paragraph: 6,
      severity: 'warning',
      expected: '黑色',
      found: '#0000FF',
    });
    expect(v.filter((x) => x.rule === 'color').map((x) => x.element)).toEqual(['issuerMark', 'heading4']);
    expect(find('pattern', 'date')).toMatchObject({ paragraph: 8, excerpt: '二〇二四年三月一日' });
    expect(find('date-position', 'date')).toMatchObject({ paragraph: 8, severity: 'warning', found: '居右，右空0字' });
    expect(find('size', 'cc')).toMatchObject({ paragraph: 9, expected: '四号 14磅', found: '三号 16磅' });
    expect(find('pattern', 'cc')).toBeDefined();
    for (const x of v) {
      expect(x.expected).not.toBe('');
      expect(x.found).not.toBe('');
    }
  });

  it('checks 份号, 密级, 紧急程度, numbered 附件说明 against the 附件 pages, and page-number size and sides', async () => {
    const body = (text: string) => para(text, '仿宋_GB2312', 32, { indent: true });
    const build = (o: { good: boolean }) =>
      Packer.toBuffer(
        new Document({
          evenAndOddHeaderAndFooters: true,
          sections: [
            {
              properties: { page: GB_PAGE },
              footers: o.good
                ? { default: footer(AlignmentType.RIGHT), even: footer(AlignmentType.LEFT) }
                : {
                    default: new Footer({
                      children: [
                        new Paragraph({
                          alignment: AlignmentType.CENTER,
                          children: [
                            new TextRun({
                              children: ['— ', PageNumber.CURRENT, ' —'],
                              font: f('宋体', '宋体'),
                              size: 21,
                            }),
                          ],
                        }),
                      ],
                    }),
                    even: footer(AlignmentType.RIGHT),
                  },
              children: [
                para(o.good ? '000001' : '01', '仿宋_GB2312', 32),
                para('机密★1年', o.good ? '黑体' : '仿宋_GB2312', 32),
                para('特急', o.good ? '黑体' : '宋体', 32),
                para('××市人民政府文件', '方正小标宋简体', 72, { align: AlignmentType.CENTER, color: 'FF0000' }),
                para('×政发〔2024〕5号', '仿宋_GB2312', 32, { align: AlignmentType.CENTER }),
                para('关于开展安全生产检查的通知', '方正小标宋简体', 44, { align: AlignmentType.CENTER }),
                para('各区县人民政府：', '仿宋_GB2312', 32),
                body('现将有关事项通知如下。'),
                body(o.good ? '附件：1.安全生产检查表' : '附件：安全生产检查表'),
                para(o.good ? '2.隐患排查清单' : '3.隐患排查清单。', '仿宋_GB2312', 32),
                para('××市人民政府', '仿宋_GB2312', 32, { align: AlignmentType.RIGHT }),
                para('2024年3月1日', '仿宋_GB2312', 32, { align: AlignmentType.RIGHT, rightChars: 4 }),
                para('附件1', o.good ? '黑体' : '仿宋_GB2312', 32),
                para('安全生产检查表', '方正小标宋简体', 44, { align: AlignmentType.CENTER }),
                ...(o.good
                  ? [
                      para('附件2', '黑体', 32),
                      para('隐患排查清单', '方正小标宋简体', 44, { align: AlignmentType.CENTER }),
                    ]
                  : []),
              ],
            },
          ],
        }),
      );
    const good = await formatCheck('good.docx', await build({ good: true }));
    expect(good.status).toBe(200);
    expect(good.json.result.elements.map((e: { element: string }) => e.element).slice(0, 3)).toEqual([
      'copyNumber',
      'secrecy',
      'urgency',
    ]);
    expect(
      good.json.result.elements
        .filter((e: { element: string }) => e.element.startsWith('attachment'))
        .map((e: { element: string }) => e.element),
    ).toEqual(['attachmentNote', 'attachmentNoteItem', 'attachment', 'attachment']);
    expect(good.json.result.violations).toEqual([]);

    const bad = await formatCheck('bad.docx', await build({ good: false }));
    const v: Array<{ rule: string; element: string; paragraph: number | null; expected: string; found: string }> =
      bad.json.result.violations;
    const find = (rule: string, element: string) => v.find((x) => x.rule === rule && x.element === element);
    expect(find('pattern', 'copyNumber')).toMatchObject({ paragraph: 0, expected: expect.stringContaining('6位') });
    expect(find('font', 'secrecy')).toMatchObject({
      paragraph: 1,
      expected: expect.stringContaining('黑体'),
      found: '仿宋_GB2312',
    });
    expect(find('font', 'urgency')).toMatchObject({ paragraph: 2, found: '宋体' });
    expect(find('attachment-numbering', 'attachmentNote')).toMatchObject({
      paragraph: 8,
      expected: '依次编号“1.”',
      found: '未编号',
    });
    expect(find('attachment-numbering', 'attachmentNoteItem')).toMatchObject({
      paragraph: 9,
      expected: '依次编号“2.”',
      found: '“3.”',
    });
    expect(find('pattern', 'attachmentNoteItem')).toMatchObject({ paragraph: 9 });
    expect(find('attachment-count', 'attachmentNote')).toMatchObject({
      expected: expect.stringContaining('1 个附件页'),
      found: '列出 2 个',
    });
    expect(find('font', 'attachment')).toMatchObject({ paragraph: 12, expected: expect.stringContaining('黑体') });
    expect(find('page-number-size', 'page')).toMatchObject({
      paragraph: null,
      expected: '四号 14磅',
      found: '五号 10.5磅',
    });
    expect(find('page-number-odd', 'page')).toMatchObject({ expected: '单页码居右空一字', found: '单页码居中' });
    expect(find('page-number-even', 'page')).toMatchObject({ expected: '双页码居左空一字', found: '双页码居右' });
  });

  it('places 成文日期 2-4 characters from the right edge, by right alignment and indent or by typed spaces', async () => {
    const positions = async (date: Paragraph) => {
      const doc = new Document({
        sections: [
          {
            properties: { page: GB_PAGE },
            children: [
              para('关于开展安全生产检查的通知', '方正小标宋简体', 44, { align: AlignmentType.CENTER }),
              para('现将有关事项通知如下。', '仿宋_GB2312', 32, { indent: true }),
              date,
            ],
          },
        ],
      });
      const report = checkFormat(parseDocx(unzip(await Packer.toBuffer(doc))), loadTemplates(undefined)[0]);
      expect(report.elements.at(-1)?.element).toBe('date');
      return report.violations.filter((v) => v.rule === 'date-position').map((v) => v.found);
    };
    expect(
      await positions(para('2024年3月1日', '仿宋_GB2312', 32, { align: AlignmentType.RIGHT, rightChars: 4 })),
    ).toEqual([]);
    expect(
      await positions(para('2024年3月1日', '仿宋_GB2312', 32, { align: AlignmentType.RIGHT, rightChars: 2 })),
    ).toEqual([]);
    // typed with full-width spaces: 18 spaces + 6 characters wide leaves 4 on the right
    expect(await positions(para('\u3000'.repeat(18) + '2024年3月1日', '仿宋_GB2312', 32))).toEqual([]);
    expect(await positions(para('2024年3月1日', '仿宋_GB2312', 32, { align: AlignmentType.CENTER }))).toEqual(['居中']);
    expect(await positions(para('2024年3月1日', '仿宋_GB2312', 32))).toEqual(['右侧空22字']);
  });

  it('resolves fonts and sizes through docDefaults, basedOn style chains and character styles', async () => {
    const doc = new Document({
      styles: {
        default: { document: { run: { font: f('仿宋_GB2312'), size: 32 } } },
        paragraphStyles: [
          {
            id: 'GwBase',
            name: 'Gw Base',
            run: { size: 32 },
            paragraph: { indent: { firstLineChars: 200 }, spacing: exact },
          },
          { id: 'GwBody', name: 'Gw Body', basedOn: 'GwBase' },
          { id: 'GwH1', name: 'Gw H1', basedOn: 'GwBody', run: { font: f('黑体') } },
        ],
        characterStyles: [{ id: 'WrongFont', name: 'Wrong Font', run: { font: f('宋体') } }],
      },
      sections: [
        {
          properties: { page: GB_PAGE },
          children: [
            new Paragraph({
              alignment: AlignmentType.CENTER,
              children: [new TextRun({ text: '关于做好检查工作的通知', font: f('方正小标宋简体'), size: 44 })],
            }),
            new Paragraph({ style: 'GwBody', children: [new TextRun('各单位要认真开展检查。')] }),
            new Paragraph({ style: 'GwH1', children: [new TextRun('一、工作要求')] }),
            new Paragraph({
              style: 'GwBody',
              children: [new TextRun({ text: '这一段的字体来自字符样式。', style: 'WrongFont' })],
            }),
          ],
        },
      ],
    });
    const parsed = parseDocx(unzip(await Packer.toBuffer(doc)));
    expect(parsed.paragraphs[1].main).toMatchObject({ eastAsia: '仿宋_GB2312', size: 32 });
    expect(parsed.paragraphs[1].props.firstLineChars).toBe(200);
    expect(parsed.paragraphs[2].main.eastAsia).toBe('黑体');
    expect(parsed.paragraphs[3].main.eastAsia).toBe('宋体');
    const report = checkFormat(parsed, loadTemplates(undefined)[0]);
    const onParagraph = (i: number) =>
      report.violations.filter((x) => x.paragraph === i).map((x) => `${x.element}:${x.rule}`);
    expect(onParagraph(1)).toEqual([]);
    expect(onParagraph(2)).toEqual([]);
    expect(onParagraph(3)).toEqual(['body:font']);
  });

  it('takes new templates from data files without code', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-templates-'));
    const gb = JSON.parse(
      readFileSync(join(__dirname, '../../server/formats/format/templates/gbt9704-2012.json'), 'utf8'),
    );
    writeFileSync(
      join(dir, 'house.json'),
      JSON.stringify({
        ...gb,
        id: 7,
        key: 'house',
        name: '本单位公文样式',
        elements: { ...gb.elements, body: { ...gb.elements.body, font: '宋体' } },
      }),
    );
    const previous = t.app.config.paths.formatTemplates;
    t.app.config.paths.formatTemplates = dir;
    try {
      const list = await call(t.app, 'GET', '/misscut/v1/doc/template_types', undefined, token);
      expect(list.json.result.map((x: { id: number }) => x.id)).toEqual([7]);
      const res = await formatCheck('ok.docx', await conforming(), '7');
      expect(res.json.result.template_name).toBe('本单位公文样式');
      const bodyFont = res.json.result.violations.filter(
        (x: { element: string; rule: string }) => x.element === 'body' && x.rule === 'font',
      );
      expect(bodyFont.length).toBe(2);
      expect((await formatCheck('ok.docx', await conforming(), '1')).status).toBe(404);
    } finally {
      t.app.config.paths.formatTemplates = previous;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses what is not a readable .docx', async () => {
    expect((await formatCheck('a.txt', Buffer.from('正文'))).json.msg).toContain('不支持的文件类型');
    expect((await formatCheck('a.docx', Buffer.from('MZ\x90\x00 not a document'))).status).toBe(400);
    expect((await formatCheck('a.docx', Buffer.alloc(0))).status).toBe(400);
    const good = await conforming();
    expect((await formatCheck('a.docx', good.subarray(0, 200))).status).toBe(400);
  });
});

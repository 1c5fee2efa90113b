import { Document, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareParagraphs } from '../../server/formats/diff/compare';
import { addGrant } from '../../server/domain/rights/ledger';
import { CLIENT_HEADERS, call, register, startTestApp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

async function userWith(phone: string, grants: Record<number, number>) {
  const token = await register(t, phone);
  const { uid } = (await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result;
  for (const [type, amount] of Object.entries(grants))
    await addGrant(t.app.db, uid, Number(type), amount, `test-${type}`);
  return token;
}

async function diff(token: string, a: { name: string; data: Buffer } | null, b: { name: string; data: Buffer } | null) {
  const boundary = '----diff-test-boundary';
  const parts: Buffer[] = [];
  for (const [field, file] of [
    ['file', a],
    ['compare_file', b],
  ] as const) {
    if (!file) continue;
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; ` +
          `filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const res = await t.app.inject({
    method: 'POST',
    url: '/misscut/v1/doc/diff',
    headers: {
      ...CLIENT_HEADERS,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      authorization: `Bearer ${token}`,
    },
    payload: Buffer.concat(parts),
  });
  return { status: res.statusCode, json: res.json() };
}

const docx = async (paragraphs: string[], table?: string[]) =>
  Packer.toBuffer(
    new Document({
      sections: [
        {
          children: [
            ...paragraphs.map(
              (p) => new Paragraph({ children: [new TextRun({ text: p, font: { eastAsia: '仿宋_GB2312' } })] }),
            ),
            ...(table
              ? [
                  new Table({
                    rows: [
                      new TableRow({ children: table.map((c) => new TableCell({ children: [new Paragraph(c)] })) }),
                    ],
                  }),
                ]
              : []),
          ],
        },
      ],
    }),
  );

/** A small real PDF (Helvetica text, one line per Tj), built by hand with a correct xref table. */
function simplePdf(pages: string[][]): Buffer {
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 4 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  pages.forEach((lines, i) => {
    const stream = `BT /F1 12 Tf 72 720 Td 14 TL ${lines.map((l) => `(${l}) Tj T*`).join(' ')} ET`;
    objects[pageIds[i]] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << ` +
      `/F1 3 0 R >> >> /Contents ${pageIds[i] + 1} 0 R >>`;
    objects[pageIds[i] + 1] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
  });
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = out.length;
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n${offsets
    .slice(1)
    .map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)
    .join('')}`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const V1 = [
  '关于召开年度工作会议的通知',
  '各部门：',
  '我们定于下周在次召开年度工作会议。',
  '请各部门提前准备汇报材料。',
  '会议期间请将手机调至静音。',
  '特此通知。',
];
const V2 = [
  '关于召开年度工作会议的通知',
  '各部门：',
  '我们定于下周再次召开年度总结会议。',
  '会议期间请将手机调至静音。',
  '请于周五前报送参会名单。',
  '特此通知。',
];

describe('document compare', () => {
  it('aligns paragraphs and finds character-level changes between two .docx files', async () => {
    const token = await userWith('13544440001', { 4096: 5 });
    const res = await diff(
      token,
      { name: 'v1.docx', data: await docx(V1, ['名称', '数量']) },
      { name: 'v2.docx', data: await docx(V2, ['名称', '总数']) },
    );
    expect(res.status).toBe(200);
    const r = res.json.result;
    expect(r.original_name).toBe('v1.docx');
    expect(r.revised_name).toBe('v2.docx');
    expect(r.original_text).toBe([...V1, '名称', '数量'].join('\n'));
    expect(r.revised_text).toBe([...V2, '名称', '总数'].join('\n'));
    expect(r.rows.map((row: { status: string }) => row.status)).toEqual([
      'equal',
      'equal',
      'changed',
      'deleted',
      'equal',
      'inserted',
      'equal',
      'equal',
      'changed',
    ]);
    const summary = r.changes.map(
      (c: { type: string; original_fragment: string; revised_fragment: string }) =>
        `${c.type}:${c.original_fragment}>${c.revised_fragment}`,
    );
    expect(summary).toEqual([
      'replace:在>再',
      'replace:工作>总结',
      'delete:请各部门提前准备汇报材料。>',
      'insert:>请于周五前报送参会名单。',
      'insert:>总',
      'delete:量>',
    ]);
    // Offsets point into the texts; rows and changes reference each other for navigation.
    for (const c of r.changes) {
      expect(r.original_text.slice(c.original_start, c.original_end)).toBe(c.original_fragment);
      expect(r.revised_text.slice(c.revised_start, c.revised_end)).toBe(c.revised_fragment);
    }
    const changedRow = r.rows[2];
    expect(changedRow).toMatchObject({ original: 2, revised: 2, changes: [0, 1] });
    expect(r.original_paragraphs[2]).toEqual({
      start: r.original_text.indexOf(V1[2]),
      end: r.original_text.indexOf(V1[2]) + V1[2].length,
    });
    expect(r.stats).toEqual({ equal: 5, changed: 2, deleted: 1, inserted: 1, changes: 6 });
  });

  it('compares a .docx with a .txt and consumes one docCompare', async () => {
    // New accounts get 5 compares by default (server/domain/rights/ledger.ts).
    const token = await userWith('13544440002', {});
    const res = await diff(
      token,
      { name: 'v1.docx', data: await docx(V1) },
      { name: 'v2.txt', data: Buffer.from(V1.join('\r\n\r\n') + '\n新增一句。') },
    );
    expect(res.status).toBe(200);
    expect(res.json.result.changes).toHaveLength(1);
    expect(res.json.result.changes[0]).toMatchObject({
      type: 'insert',
      revised_fragment: '新增一句。',
      original_paragraph: null,
    });
    const right = await call(t.app, 'GET', '/user/v1/get_user_right?user_right_type=4096', undefined, token);
    expect(right.status).toBe(200);
    expect(right.json.result.disposable_num).toBe(4);
    // Without grants the limit rights read as the server's ceilings (what the compare screen shows).
    const pages = await call(t.app, 'GET', '/user/v1/get_user_right?user_right_type=262144', undefined, token);
    expect(pages.json.result).toMatchObject({ disposable_num: 200, num_desc: '200页' });
    const size = await call(t.app, 'GET', '/user/v1/get_user_right?user_right_type=524288', undefined, token);
    expect(size.json.result).toMatchObject({ disposable_num: 20, num_desc: '20MB' });
    const { uid } = (await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result;
    await t.app.db
      .updateTable('right_grants' as never)
      .set({ remaining: 0 } as never)
      .where('uid' as never, '=', uid as never)
      .execute();
    const again = await diff(
      token,
      { name: 'a.txt', data: Buffer.from('甲') },
      { name: 'b.txt', data: Buffer.from('乙') },
    );
    expect(again.status).toBe(402);
    expect(again.json).toMatchObject({ code: 402, result: { kind: 1 } });
  });

  it('applies the compare limits (pages and size) with 413 and refuses unsupported input', async () => {
    const token = await userWith('13544440003', { 4096: 10, 262144: 1, 524288: 1 });
    const longText = Buffer.from('这是一个很长的段落。'.repeat(100));
    const pages = await diff(token, { name: 'a.txt', data: longText }, { name: 'b.txt', data: Buffer.from('短') });
    expect(pages.status).toBe(413);
    expect(pages.json.msg).toContain('1 页');
    const big = await diff(
      token,
      { name: 'a.txt', data: Buffer.alloc(1024 * 1024 + 10, 0x41) },
      { name: 'b.txt', data: Buffer.from('短') },
    );
    expect(big.status).toBe(413);
    expect(big.json.msg).toContain('1 MB');
    const pdf = await diff(
      token,
      { name: 'a.pdf', data: Buffer.from('%PDF-1.4\n%%EOF') },
      { name: 'b.txt', data: Buffer.from('短') },
    );
    expect(pdf.status).toBe(400);
    expect(pdf.json.msg).toContain('PDF');
    const exe = await diff(
      token,
      { name: 'a.docx', data: Buffer.from('MZ\x90\x00 program') },
      { name: 'b.txt', data: Buffer.from('短') },
    );
    expect(exe.status).toBe(400);
    const missing = await diff(token, { name: 'a.txt', data: Buffer.from('甲') }, null);
    expect(missing.status).toBe(400);
    // Nothing was consumed by refused calls.
    const ok = await diff(
      token,
      { name: 'a.txt', data: Buffer.from('甲乙') },
      { name: 'b.txt', data: Buffer.from('甲丙') },
    );
    expect(ok.status).toBe(200);
  });

  it('reads the text of PDFs (pdf.js) and counts their real pages against the limit', async () => {
    const token = await userWith('13544440004', { 4096: 5, 262144: 2 });
    const pdf = simplePdf([['Annual meeting notice', 'All departments:'], ['The meeting starts on Monday.']]);
    const res = await diff(
      token,
      { name: 'v1.pdf', data: pdf },
      { name: 'v2.txt', data: Buffer.from('Annual meeting notice\nAll departments:\nThe meeting starts on Tuesday.') },
    );
    expect(res.status).toBe(200);
    expect(res.json.result.original_text).toBe(
      'Annual meeting notice\nAll departments:\nThe meeting starts on Monday.',
    );
    expect(
      res.json.result.changes
        .map(
          (c: { original_fragment: string; revised_fragment: string }) =>
            `${c.original_fragment}>${c.revised_fragment}`,
        )
        .join(','),
    ).toMatch(/Mon>Tues|M>Tu/);
    const three = simplePdf([['a'], ['b'], ['c']]);
    const tooMany = await diff(token, { name: 'long.pdf', data: three }, { name: 'v2.txt', data: Buffer.from('a') });
    expect(tooMany.status).toBe(413);
    expect(tooMany.json.msg).toContain('约 3 页');
  });

  it('pairs reordered and rewritten paragraphs sensibly (unit)', () => {
    const r = compareParagraphs(
      ['甲乙丙丁戊己庚辛', '完全不同的内容在这里'],
      ['甲乙丙丁戊己庚壬', '另外一段新的话', '完全不同的内容在这里'],
    );
    expect(r.rows.map((x) => x.status)).toEqual(['changed', 'inserted', 'equal']);
    expect(compareParagraphs(['一样'], ['一样']).changes).toEqual([]);
    const ws = compareParagraphs(['文字 内容'], ['文字内容']);
    expect(ws.changes).toEqual([expect.objectContaining({ type: 'delete', original_fragment: ' ' })]);
  });
});

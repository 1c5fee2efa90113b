// PowerPoint presentations in the document pipeline: slide text in the presentation's order, a heading per slide
// so each finding names its slide, right 8 (pptCount) charged per upload and given back when the job fails, and
// old, disguised or incomplete files refused with their own messages.
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rightBalance, setDefaultRemaining } from '../../server/domain/rights/ledger';
import { call, CLIENT_HEADERS, form, register, startTestApp, type TestApp } from './helpers';

const NS =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ' +
  'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';

const run = (text: string) => `<a:r><a:rPr lang="zh-CN"/><a:t>${text}</a:t></a:r>`;
const para = (...runs: string[]) => `<a:p>${runs.join('')}<a:endParaRPr lang="zh-CN"/></a:p>`;
const shape = (...paras: string[]) =>
  `<p:sp><p:nvSpPr><p:cNvPr id="2" name="t"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr/>` +
  `<p:txBody><a:bodyPr/>${paras.join('')}</p:txBody></p:sp>`;
const table = (...cells: string[]) =>
  `<p:graphicFrame><a:graphic><a:graphicData><a:tbl><a:tr h="1">${cells
    .map((c) => `<a:tc><a:txBody><a:bodyPr/>${para(run(c))}</a:txBody></a:tc>`)
    .join('')}</a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
const slide = (...shapes: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><p:sld ${NS}><p:cSld><p:spTree>${shapes.join('')}</p:spTree></p:cSld></p:sld>`;

/** A presentation as PowerPoint writes one: slides listed in p:sldIdLst through the relationships (order given). */
async function pptx(slides: string[], order = slides.map((_, i) => i), parts: Record<string, string> = {}) {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="xml" ContentType="application/xml"/></Types>',
  );
  zip.file(
    'ppt/presentation.xml',
    `<?xml version="1.0"?><p:presentation ${NS}><p:sldIdLst>${order
      .map((i) => `<p:sldId id="${256 + i}" r:id="rId${i + 10}"/>`)
      .join('')}</p:sldIdLst></p:presentation>`,
  );
  zip.file(
    'ppt/_rels/presentation.xml.rels',
    '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      slides.map((_, i) => `<Relationship Id="rId${i + 10}" Target="slides/slide${i + 1}.xml"/>`).join('') +
      '</Relationships>',
  );
  slides.forEach((s, i) => zip.file(`ppt/slides/slide${i + 1}.xml`, s));
  for (const [name, content] of Object.entries(parts)) zip.file(name, content);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

let t: TestApp;
let token: string;
let uid: number;

beforeAll(async () => {
  t = await startTestApp({ jobs: { progressIntervalMs: 0 } });
  token = await register(t, '13566661001');
  uid = (await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result.uid;
}, 60_000);
afterAll(async () => t.close());

async function upload(filename: string, data: Buffer) {
  const { payload, contentType } = form([{ name: 'file', filename, data }]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/misscut/document/v1/upload',
    headers: { ...CLIENT_HEADERS, authorization: `Bearer ${token}`, 'content-type': contentType },
    payload,
  });
  return { status: res.statusCode, json: res.json() };
}

async function settle(id: number) {
  const until = Date.now() + 60_000;
  for (;;) {
    const res = await call(t.app, 'GET', `/misscut/document/v1/edit_upload_get?id=${id}`, undefined, token);
    expect(res.status).toBe(200);
    if (['done', 'failed', 'cancelled'].includes(res.json.result.status)) return res.json.result;
    if (Date.now() > until) throw new Error(`document ${id} still ${res.json.result.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('PowerPoint presentations', () => {
  it('reads the slides in the presentation order, a heading per slide, and finds the typo on its slide', async () => {
    const pptBefore = await rightBalance(t.app.db, uid, 8);
    const uploadsBefore = await rightBalance(t.app.db, uid, 256);
    const data = await pptx(
      [
        slide(shape(para(run('第一季度工作总结')), para(run('销售额'), run('稳步增长'), '<a:br/>', run('成本下降')))),
        slide(shape(para(run('我们明天讨论这个问提，请大家准时参加。'))), table('负责人', '完成时间')),
        slide(shape(para('<a:fld id="{1}" type="slidenum"><a:t>3</a:t></a:fld>')), shape(para())),
      ],
      // the second slide part is shown first
      [1, 0, 2],
    );
    const res = await upload('季度汇报.pptx', data);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.result.file_type).toBe('pptx');
    const done = await settle(res.json.result.id);
    expect(done.status).toBe('done');
    expect(done.text.split('\n')).toEqual([
      '第 1 张幻灯片',
      '我们明天讨论这个问提，请大家准时参加。',
      '负责人',
      '完成时间',
      '第 2 张幻灯片',
      '第一季度工作总结',
      '销售额稳步增长 成本下降',
      '第 3 张幻灯片',
      '3',
    ]);
    expect(done.html).toContain('<h2>第 1 张幻灯片</h2>');
    // the finding points into the first slide's line
    const typo = done.issues.find((i: { original: string; suggestions: string[] }) => i.suggestions.includes('题'));
    expect(typo, JSON.stringify(done.issues)).toBeTruthy();
    const lineStart = done.text.indexOf('我们明天');
    expect(done.text.slice(typo.start, typo.end)).toBe(typo.original);
    expect(typo.start).toBeGreaterThanOrEqual(lineStart);
    expect(typo.start).toBeLessThan(done.text.indexOf('第 2 张幻灯片'));
    // charged to the presentations' right, not to the document uploads
    expect(await rightBalance(t.app.db, uid, 8)).toBe(pptBefore - 1);
    expect(await rightBalance(t.app.db, uid, 256)).toBe(uploadsBefore);
  });

  it('refuses an old .ppt, a disguised .pptx and a .docx named .pptx, charging nothing', async () => {
    const before = await rightBalance(t.app.db, uid, 8);
    const ole = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]);
    const old = await upload('旧版.ppt', ole);
    expect(old.status).toBe(400);
    expect(old.json.msg_code).toBe('document.old_ppt');
    const renamed = await upload('旧版.pptx', ole);
    expect(renamed.json.msg_code).toBe('document.old_ppt');
    const text = await upload('假的.pptx', Buffer.from('这不是演示文稿'));
    expect(text.status).toBe(400);
    expect(text.json).toMatchObject({
      msg_code: 'document.not_pptx',
      msg: '文件内容与扩展名不符，不是有效的 PowerPoint 演示文稿',
    });
    expect(await rightBalance(t.app.db, uid, 8)).toBe(before);
  });

  it('fails the job of a zip that is no presentation, saying so, and gives the right back', async () => {
    const before = await rightBalance(t.app.db, uid, 8);
    const zip = new JSZip();
    zip.file('[Content_Types].xml', '<Types/>');
    zip.file('word/document.xml', '<w:document/>');
    const res = await upload('文档.pptx', await zip.generateAsync({ type: 'nodebuffer' }));
    expect(res.status).toBe(200);
    const failed = await settle(res.json.result.id);
    expect(failed).toMatchObject({ status: 'failed', error_code: 'document.zip_not_pptx' });
    expect(await rightBalance(t.app.db, uid, 8)).toBe(before);
  });

  it('answers 402 with the PPT message when right 8 is used up, and a .docx still uploads', async () => {
    await setDefaultRemaining(t.app.db, uid, 8, 0);
    const res = await upload('汇报.pptx', await pptx([slide(shape(para(run('你好'))))]));
    expect(res.status).toBe(402);
    expect(res.json).toMatchObject({ msg_code: 'document.ppt_exhausted', msg: 'PPT校对次数已用完' });
    const txt = await upload('说明.txt', Buffer.from('今天天气很好。'));
    expect(txt.status).toBe(200);
  });
});

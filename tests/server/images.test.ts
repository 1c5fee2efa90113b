// Image proofreading end to end on the real server with images drawn here (Chinese text in a CJK font): the upload
// is charged one image check, read by OCR in the heavy pool, checked, and the result arrives on the socket (type 2
// cmd 5) with a box on each finding where the text was drawn; the corrected text can be checked again; HEIC and
// files that are no image are refused before charging; an image without text fails and is given back.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import type { ImageResultData, ServerMessage } from '../../openapi/socket-protocol';
import { isImageResult } from '../../openapi/socket-protocol';
import { rightBalance } from '../../server/domain/rights/ledger';
import { greyTiff } from '../fixtures/tiff';
import { claimedJpeg, claimedPng } from '../fixtures/png';
import { call, CLIENT_HEADERS, form, register, startTestApp, type TestApp } from './helpers';
import { listen, SocketClient } from './proofread-support';

const FONTS = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc',
];
const SENTENCE = '请各部门认真研究群众反映的问提。';

let t: TestApp;
let base: string;
let token: string;
let other: string;
let uid: number;

beforeAll(async () => {
  const font = FONTS.find((f) => existsSync(f));
  if (!font) throw new Error('a CJK font is needed: apt-get install fonts-noto-cjk');
  GlobalFonts.registerFromPath(font, 'TestCJK');
  t = await startTestApp();
  base = await listen(t);
  token = await register(t, '13566664001');
  other = await register(t, '13566664002');
  uid = (await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result.uid;
}, 60_000);
afterAll(async () => t.close());

/** How a picture's lines are drawn: its size, the print's size, the first line's top and the lines' pitch. */
interface Drawing {
  width: number;
  height: number;
  px: number;
  top: number;
  pitch: number;
}

/**
 * A picture of lines of text: black print on white from x = 40, as a screenshot or a poster would be; by default one
 * line of 40 px print at y = 60 on 760 × 140.
 */
async function picture(
  text: string | string[],
  format: 'png' | 'jpeg' = 'png',
  { width, height, px, top, pitch }: Drawing = { width: 760, height: 140, px: 40, top: 60, pitch: 0 },
): Promise<Buffer> {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  context.fillStyle = '#000000';
  context.font = `${px}px TestCJK`;
  context.textBaseline = 'top';
  (Array.isArray(text) ? text : [text]).forEach((line, i) => context.fillText(line, 40, top + i * pitch));
  return format === 'png' ? canvas.encode('png') : canvas.encode('jpeg', 95);
}

async function upload(filename: string, data: Buffer, as = token) {
  const { payload, contentType } = form([{ name: 'file', filename, data }]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/misscut/v1/image/check',
    headers: { ...CLIENT_HEADERS, authorization: `Bearer ${as}`, 'content-type': contentType },
    payload,
  });
  return { status: res.statusCode, json: res.json() };
}

async function untilEnded(socket: SocketClient, taskId: number): Promise<ImageResultData> {
  for (;;) {
    const m: ServerMessage = await socket.next(90_000);
    if (m.index !== undefined) socket.send({ type: 1, cmd: 2, index: m.index });
    if (isImageResult(m) && m.data.task_id === taskId && ['done', 'failed'].includes(m.data.status)) return m.data;
  }
}

describe('image checks', () => {
  it('reads the picture, reports the typo with its box, and checks corrected text again', async () => {
    const before = await rightBalance(t.app.db, uid, 2);
    const socket = await SocketClient.open(base, token);
    const up = await upload('海报.jpg', await picture(SENTENCE, 'jpeg'));
    expect(up.status).toBe(200);
    const taskId = up.json.result.task_id;
    const result = await untilEnded(socket, taskId);
    await socket.close();
    expect(result).toMatchObject({ status: 'done', width: 760, height: 140 });
    expect(result.text).toContain('问提');
    expect(await rightBalance(t.app.db, uid, 2)).toBe(before - 1);
    const typo = result.issues!.find((i) => i.original === '提')!;
    expect(typo.suggestions).toEqual(['题']);
    // the finished check counts in the owner's metrics: its characters and findings
    const events = await t.app.db
      .selectFrom('check_events')
      .selectAll()
      .where('uid', '=', uid)
      .where('kind', '=', 'image')
      .execute();
    expect(events).toEqual([expect.objectContaining({ issues: result.issues!.length })]);
    expect(events[0].chars).toBeGreaterThan(10);
    // the box sits on the 15th character of the drawn line: x ≈ 40 + 14 x 40, y within the text's band
    const [[x, y, w, h]] = typo.boxes;
    expect(x).toBeGreaterThan(40 + 13 * 40);
    expect(x + w).toBeLessThan(40 + 16 * 40);
    expect(y).toBeGreaterThan(50);
    expect(y + h).toBeLessThan(115);
    // the same through the result call; nothing for another user
    const read = await call(t.app, 'GET', `/misscut/v1/image/result?task_id=${taskId}`, undefined, token);
    expect(read.json.result).toMatchObject({ task_id: taskId, status: 'done', text: result.text });
    const theirs = await call(t.app, 'GET', `/misscut/v1/image/result?task_id=${taskId}`, undefined, other);
    expect(theirs.json).toMatchObject({ code: 404, msg_code: 'image.unknown' });

    const fixed = result.text!.replace('问提', '问题');
    const again = await call(t.app, 'POST', '/misscut/v1/image/recheck', { task_id: taskId, text: fixed }, token);
    expect(again.status).toBe(200);
    expect(again.json.result).toMatchObject({ status: 'done', text: fixed, unsure: [] });
    expect(again.json.result.issues.some((i: { original: string }) => i.original === '提')).toBe(false);
    const stillTheirs = await call(t.app, 'POST', '/misscut/v1/image/recheck', { task_id: taskId, text: 'x' }, other);
    expect(stillTheirs.status).toBe(404);
    // nothing more was charged for the re-check
    expect(await rightBalance(t.app.db, uid, 2)).toBe(before - 1);
  }, 120_000);

  it("reads a page of large print in strips side by side, its boxes in the picture's own pixels", async () => {
    // eight lines of 64 px print: cut in two strips (one per heavy worker), each scaled down before it is read
    const lines = [
      '会议明确了今年工作的重点任务。',
      '各单位要加强协调配合。',
      '切实做好宣传引导工作。',
      '确保各项措施落到实处。',
    ];
    lines.push('及时总结推广好的经验做法。', '进一步健全长效机制。', SENTENCE, '会议要求抓好贯彻落实。');
    const png = await picture(lines, 'png', { width: 1200, height: 1000, px: 64, top: 40, pitch: 115 });
    const cut = await t.app.heavy.run('imageOcrCut', { data: png, parts: 2 });
    expect(cut.strips.map((s) => s.rect.top)).toEqual([0, expect.any(Number)]);
    expect(cut.strips[0].scale).toBeLessThan(0.75);
    const socket = await SocketClient.open(base, token);
    const up = await upload('讲话稿.png', png);
    expect(up.status).toBe(200);
    const result = await untilEnded(socket, up.json.result.task_id);
    await socket.close();
    expect(result).toMatchObject({ status: 'done', width: 1200, height: 1000 });
    // every line, in order
    expect(result.text!.replace(/\s+/g, '')).toContain('问提。会议要求');
    expect(result.text!.indexOf('会议明确')).toBeLessThan(result.text!.indexOf('问提'));
    const typo = result.issues!.find((i) => i.original === '提')!;
    // on the 7th line (drawn at y = 730) and its 15th character (x ≈ 40 + 14 × 64)
    const [[x, y, w, h]] = typo.boxes;
    expect(x).toBeGreaterThan(40 + 13 * 64);
    expect(x + w).toBeLessThan(40 + 16 * 64);
    expect(y).toBeGreaterThan(720);
    expect(y + h).toBeLessThan(810);
  }, 120_000);

  it('reads a TIFF scan through the OCR reader (the native canvas never sees it)', async () => {
    const canvas = createCanvas(760, 140);
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, 760, 140);
    context.fillStyle = '#000000';
    context.font = '40px TestCJK';
    context.textBaseline = 'top';
    context.fillText(SENTENCE, 40, 60);
    const rgba = context.getImageData(0, 0, 760, 140).data;
    const grey = Buffer.alloc(760 * 140);
    for (let i = 0; i < grey.length; i++) grey[i] = rgba[i * 4];
    const socket = await SocketClient.open(base, token);
    const taskId = (await upload('扫描.tif', greyTiff(760, 140, grey))).json.result.task_id;
    const result = await untilEnded(socket, taskId);
    await socket.close();
    expect(result).toMatchObject({ status: 'done', width: 760, height: 140 });
    expect(result.text).toContain('问提');
    expect(result.issues!.some((i) => i.original === '提')).toBe(true);
  }, 120_000);

  it('refuses HEIC and files that are no image before charging; a picture without text is given back', async () => {
    const before = await rightBalance(t.app.db, uid, 2);
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic'), Buffer.alloc(64)]);
    expect((await upload('photo.heic', heic)).json).toMatchObject({ code: 400, msg_code: 'image.heic_unsupported' });
    expect((await upload('a.png', Buffer.from('just some text'))).json).toMatchObject({
      code: 400,
      msg_code: 'image.type_unsupported',
    });
    expect((await upload('a.png', Buffer.alloc(0))).json.msg_code).toBe('upload.empty_file');
    // an image bomb (a header saying 400 megapixels) is refused from its header, before it is charged or decoded
    for (const bomb of [claimedPng(20_000, 20_000), claimedJpeg(8000, 6000)]) {
      expect((await upload('bomb.png', bomb)).json).toMatchObject({
        code: 400,
        msg_code: 'image.too_many_pixels',
        msg_params: { mp: 40 },
      });
    }
    expect(await rightBalance(t.app.db, uid, 2)).toBe(before);

    const socket = await SocketClient.open(base, token);
    const blank = await picture('');
    const taskId = (await upload('blank.png', blank)).json.result.task_id;
    expect(await untilEnded(socket, taskId)).toMatchObject({ status: 'failed', error_code: 'image.no_text' });
    // a broken picture with a PNG signature fails when it is read, and is given back too
    const broken = Buffer.concat([blank.subarray(0, 40), Buffer.alloc(200, 7)]);
    const brokenId = (await upload('broken.png', broken)).json.result.task_id;
    expect(await untilEnded(socket, brokenId)).toMatchObject({ status: 'failed', error_code: 'image.unreadable' });
    await socket.close();
    expect(await rightBalance(t.app.db, uid, 2)).toBe(before);
  }, 120_000);
});

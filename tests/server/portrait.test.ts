import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimedJpeg, claimedPng } from '../fixtures/png';
import { CLIENT_HEADERS, call, multipart, register, startTestApp, tinyPng, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

async function upload(token: string | undefined, field: string, filename: string, type: string, data: Buffer) {
  const { payload, contentType } = multipart(field, filename, type, data);
  const res = await t.app.inject({
    method: 'POST',
    url: '/user/portrait',
    headers: { ...CLIENT_HEADERS, 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload,
  });
  return { status: res.statusCode, json: res.json() };
}

describe('avatar upload', () => {
  it('a PNG replaces the generated avatar for its owner only', async () => {
    const a = await register(t, '13511110001', 'secret123', '甲');
    const b = await register(t, '13511110002', 'secret123', '乙');
    const png = tinyPng();
    expect(await upload(a, 'file', 'me.png', 'image/png', png)).toEqual({
      status: 200,
      json: { code: 200, msg: expect.any(String), result: null },
    });
    const mine = await call(t.app, 'GET', '/user/portrait', undefined, a);
    expect(mine.res.headers['content-type']).toBe('image/png');
    expect(mine.res.rawPayload.equals(png)).toBe(true);
    const theirs = await call(t.app, 'GET', '/user/portrait', undefined, b);
    expect(theirs.res.headers['content-type']).toMatch(/^image\/svg\+xml/);
  });

  it('refuses what is not a PNG or JPEG, whatever it claims to be', async () => {
    const token = await register(t, '13511110003');
    const res = await upload(token, 'file', 'evil.png', 'image/png', Buffer.from('<svg onload="alert(1)"/>'));
    expect(res.status).toBe(400);
    expect(res.json.msg).toContain('PNG');
  });

  it('refuses an image of more than 4096 × 4096 pixels from its header, before anything decodes it', async () => {
    const token = await register(t, '13511110007');
    // 20000 × 20000 is 400 megapixels, 1.6 GB decoded, in a file of a few hundred bytes
    for (const [name, type, data] of [
      ['bomb.png', 'image/png', claimedPng(20_000, 20_000)],
      ['wide.png', 'image/png', claimedPng(4097, 10)],
      ['tall.jpg', 'image/jpeg', claimedJpeg(10, 4097)],
    ] as const) {
      const res = await upload(token, 'file', name, type, data);
      expect(res.status, name).toBe(400);
      expect(res.json.msg_code).toBe('account.avatar_dimensions');
      expect(res.json.msg).toMatch(/^头像最大 4096×4096 像素，这张图片是 \d+×\d+$/);
    }
    expect((await upload(token, 'file', 'bomb.png', 'image/png', claimedPng(20_000, 20_000))).json.msg).toContain(
      '20000×20000',
    );
    // nothing was stored: the generated avatar is still served
    const mine = await call(t.app, 'GET', '/user/portrait', undefined, token);
    expect(mine.res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    // a header that cannot be read is refused too; 4096 × 4096 itself is taken
    const cut = tinyPng().subarray(0, 20);
    expect((await upload(token, 'file', 'cut.png', 'image/png', cut)).json.msg_code).toBe('image.unreadable');
    expect((await upload(token, 'file', 'max.png', 'image/png', claimedPng(4096, 4096))).status).toBe(200);
  });

  it('refuses more than 2 MB with 413', async () => {
    const token = await register(t, '13511110004');
    const big = Buffer.concat([tinyPng(), Buffer.alloc(2 * 1024 * 1024)]);
    const res = await upload(token, 'file', 'big.png', 'image/png', big);
    expect(res.status).toBe(413);
    expect(res.json.code).toBe(413);
  });

  it('needs the file part and a token', async () => {
    const token = await register(t, '13511110005');
    const wrongField = await upload(token, 'picture', 'me.png', 'image/png', tinyPng());
    expect(wrongField.status).toBe(400);
    expect(wrongField.json.msg).toContain('body.file is required');
    expect((await upload(undefined, 'file', 'me.png', 'image/png', tinyPng())).status).toBe(401);
  });

  it('cancellation deletes the avatar', async () => {
    const token = await register(t, '13511110006', 'secret123');
    await upload(token, 'file', 'me.png', 'image/png', tinyPng());
    const { uid } = (await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result;
    expect((await call(t.app, 'POST', '/user/cancellation', { password: 'secret123' }, token)).status).toBe(200);
    expect(await t.app.db.selectFrom('portraits').select('uid').where('uid', '=', uid).execute()).toEqual([]);
  });
});

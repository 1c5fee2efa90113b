import { Writable } from 'node:stream';
import { Document, Packer, Paragraph, TextRun } from 'docx';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../server/errors';
import { loadConfig } from '../../server/config';
import { wordCount } from '../../server/formats/documents/load';
import { listZip } from '../../server/formats/documents/zip';
import { HeavyPool } from '../../server/workers/heavy/pool';
import { countChars } from '../../server/domain/rights/ledger';
import { createUser } from '../../server/domain/accounts/users';
import { loggerOptions, redactUrl } from '../../server/logging';
import { ADMIN, bombZip, call, CLIENT_HEADERS, form, login, startTestApp, type TestApp } from './helpers';

/** A .docx of `paragraphs` paragraphs of ordinary Chinese text (about 60 characters each). */
async function bigDocx(paragraphs: number, varied = false): Promise<Buffer> {
  const line = '各地区各部门要认真贯彻落实本通知精神，结合实际制定具体措施，确保各项工作任务按期完成。';
  let seed = 7;
  // varied text compresses like real prose (a repeated line compresses to almost nothing)
  const random = () => {
    const chars = Array.from({ length: 80 }, () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return String.fromCharCode(0x4e00 + (seed % 3000));
    });
    return chars.join('');
  };
  const children = Array.from(
    { length: paragraphs },
    (_, i) => new Paragraph({ children: [new TextRun(varied ? random() : `${i + 1}. ${line}`)] }),
  );
  return Packer.toBuffer(new Document({ sections: [{ children }] }));
}

/** Posts one file as multipart form data. */
function postFile(t: TestApp, token: string, url: string, filename: string, data: Buffer) {
  const body = form([{ name: 'file', filename, data }]);
  return t.app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { 'content-type': body.contentType, ...CLIENT_HEADERS, authorization: `Bearer ${token}` },
  });
}

const docToHtml = (t: TestApp, token: string, data: Buffer) =>
  postFile(t, token, '/misscut/doc_check/v1/doc2html', 'big.docx', data);

const html2doc = (t: TestApp, token: string, html: string) =>
  call(t.app, 'POST', '/misscut/doc_check/v1/html2doc/stream', { html, name: '测试' }, token);

describe('heavy work runs in the bounded worker pool', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    // A small heap makes the out-of-memory path reachable with a few MB of input.
    t = await startTestApp({
      config: { heavy: { workers: 1, queueMax: 1, timeoutMs: 60_000, heapMb: 96, outputMax: 50e6 } },
    });
    token = await login(t.app, ADMIN.phone, ADMIN.password);
  }, 60_000);
  afterAll(async () => t.close());

  it('refuses HTML over the size limit with 413 before converting it', async () => {
    const huge = '<p>一</p>'.repeat(550_000);
    const res = await html2doc(t, token, huge);
    expect(res.status).toBe(413);
    expect(res.json.msg).toMatch(/文档内容过大/);
    expect((await call(t.app, 'GET', '/health')).status).toBe(200);
  });

  it('answers 413 when a conversion exhausts the worker memory, and the server carries on', async () => {
    const many = '<p>一段正文内容</p>'.repeat(300_000);
    const res = await html2doc(t, token, many);
    expect(res.status).toBe(413);
    expect(res.json.msg).toMatch(/内存限制/);
    // the worker was replaced: the next conversion works
    const ok = await html2doc(t, token, '<h1>标题</h1><p>正文</p>');
    expect(ok.status).toBe(200);
    expect(ok.res.rawPayload.subarray(0, 2).toString()).toBe('PK');
  }, 60_000);

  it('answers deeply nested HTML with a catalogue error, not 500', async () => {
    const nested = '<div>'.repeat(10_000) + '文字' + '</div>'.repeat(10_000);
    const res = await html2doc(t, token, nested);
    expect(res.status).toBe(400);
    expect(res.json.msg).toMatch(/嵌套过深/);
  });

  it('answers a deeply nested HTML save in the editor with a catalogue error, keeping the document', async () => {
    const text = Buffer.from('第一段正文。\n第二段正文。');
    const up = await postFile(t, token, '/misscut/document/v1/upload', '短文.txt', text);
    expect(up.statusCode).toBe(200);
    const id = up.json().result.id as number;
    let doc;
    for (let i = 0; i < 300; i++) {
      doc = (await call(t.app, 'GET', `/misscut/document/v1/edit_upload_get?id=${id}`, undefined, token)).json.result;
      if (doc.status === 'done' || doc.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(doc.status).toBe('done');
    const nested = '<div>'.repeat(10_000) + '改过的文字' + '</div>'.repeat(10_000);
    const res = await call(t.app, 'POST', '/misscut/document/v1/edit_upload_save', { id, html: nested }, token);
    expect(res.status).toBe(400);
    expect(res.json.msg).toMatch(/嵌套过深/);
    const after = (await call(t.app, 'GET', `/misscut/document/v1/edit_upload_get?id=${id}`, undefined, token)).json
      .result;
    expect(after.text).toBe(doc.text);
  }, 60_000);

  it('keeps the event loop free while a large document is checked for format', async () => {
    // about 5 MB of varied text: its format check held the event loop for about 2 s when it ran there
    const data = await bigDocx(16_000, true);
    let last = performance.now();
    let gap = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      gap = Math.max(gap, now - last);
      last = now;
    }, 5);
    let sawBusy = false;
    const probe = setInterval(() => {
      if (t.app.heavy.stats().busy > 0) sawBusy = true;
    }, 5);
    const res = await postFile(t, token, '/misscut/v1/doc/format_check', 'big.docx', data);
    await new Promise((r) => setTimeout(r, 30));
    clearInterval(ticker);
    clearInterval(probe);
    expect(res.statusCode).toBe(200);
    expect(res.json().result.violations.length).toBeGreaterThan(0);
    expect(sawBusy).toBe(true);
    // A generous bound for a loaded machine (test files run side by side on two cores): on the event loop the
    // check alone held it for about 2 s on a quiet one.
    expect(gap).toBeLessThan(1000);
  }, 90_000);

  it('turns work away with 503 and Retry-After when the queue is full', async () => {
    const data = await bigDocx(3000);
    const upload = () => docToHtml(t, token, data);
    // one worker, one queue place: of four at once, at least two are refused
    const answers = await Promise.all([upload(), upload(), upload(), upload()]);
    const busy = answers.filter((r) => r.statusCode === 503);
    expect(busy.length).toBeGreaterThanOrEqual(2);
    expect(Number(busy[0].headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(busy[0].json().msg).toMatch(/服务器繁忙/);
    expect(answers.filter((r) => r.statusCode === 200).length).toBeGreaterThanOrEqual(1);
    expect(answers.every((r) => r.statusCode === 200 || r.statusCode === 503)).toBe(true);
  }, 60_000);
});

describe("one user's share of the heavy pool", () => {
  it('holds at most three tasks of one user; another user is served meanwhile', async () => {
    const pool = new HeavyPool(
      { workers: 1, queueMax: 16, timeoutMs: 30_000, heapMb: 256, outputMax: 1e6 },
      loadConfig().tools,
    );
    try {
      const input = { filename: 'words.txt', data: Buffer.from('校对,1\n') };
      const mine = [1, 2, 3].map(() => pool.run('importFile', input, { owner: 7 }));
      const refused = await pool.run('importFile', input, { owner: 7 }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(AppError);
      const error = refused as AppError;
      expect([error.statusCode, error.msgCode, error.msgParams]).toEqual([429, 'rate.heavy_per_user', { max: 3 }]);
      expect(Number(error.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      const theirs = pool.run('importFile', input, { owner: 8 });
      expect((await Promise.all([...mine, theirs])).map((rows) => rows.length)).toEqual([1, 1, 1, 1]);
      // once done, the user has their share back
      expect(await pool.run('importFile', input, { owner: 7 })).toHaveLength(1);
    } finally {
      await pool.close();
    }
  }, 60_000);
});

describe('heavy work time limit', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({
      config: { heavy: { workers: 1, queueMax: 4, timeoutMs: 1000, heapMb: 512, outputMax: 50e6 } },
    });
    token = await login(t.app, ADMIN.phone, ADMIN.password);
  }, 60_000);
  afterAll(async () => t.close());

  it('stops a task over the time limit with 413 and serves the next one', async () => {
    const res = await html2doc(t, token, '<p>一段正文内容，用来测试超时。</p>'.repeat(60_000));
    expect(res.status).toBe(413);
    expect(res.json.msg).toMatch(/处理超过 1 秒/);
    expect((await html2doc(t, token, '<p>短文</p>')).status).toBe(200);
  }, 60_000);

  it("starts a task's time limit once its worker has loaded the task's libraries", async () => {
    const pool = new HeavyPool(
      { workers: 1, queueMax: 1, timeoutMs: 400, heapMb: 256, outputMax: 1e6 },
      loadConfig().tools,
    );
    try {
      // exceljs and the other import readers take over a second to load in a new worker; reading a line is instant
      const rows = await pool.run('importFile', { filename: 'words.txt', data: Buffer.from('校对,1\n') });
      expect(rows.map((r) => r.word)).toEqual(['校对']);
    } finally {
      await pool.close();
    }
  }, 60_000);
});

describe('archive limits', () => {
  it('refuses an archive whose entries each stay under the per-entry check but add up to a bomb', async () => {
    const zip = new JSZip();
    zip.file('[Content_Types].xml', '<Types/>');
    zip.file('word/document.xml', '<w:document/>');
    const zeros = Buffer.alloc(250 * 1024);
    for (let i = 0; i < 150; i++) zip.file(`word/media/pad${i}.bin`, zeros);
    const data = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    expect(data.length).toBeLessThan(1024 * 1024);
    expect(() => listZip(data)).toThrow(/压缩炸弹/);
  });

  it('still accepts an ordinary document', async () => {
    const entries = listZip(await bigDocx(200));
    expect(entries.some((e) => e.name === 'word/document.xml')).toBe(true);
  });
});

describe('multipart uploads', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    token = await login(t.app, ADMIN.phone, ADMIN.password);
  });
  afterAll(async () => t.close());

  const upload = (parts: Parameters<typeof form>[0]) => {
    const body = form(parts);
    return t.app.inject({
      method: 'POST',
      url: '/misscut/v1/image/check',
      payload: body.payload,
      headers: { 'content-type': body.contentType, ...CLIENT_HEADERS, authorization: `Bearer ${token}` },
    });
  };
  const file = (i: number) => ({
    name: `f${i}`,
    filename: `${i}.png`,
    type: 'image/png',
    data: Buffer.alloc(64 * 1024),
  });

  it('refuses more file parts, fields or parts than any call takes, before holding them in memory', async () => {
    // every file part would be read whole into memory before the route's schema looks at it
    const files = await upload(Array.from({ length: 300 }, (_, i) => file(i)));
    expect([files.statusCode, files.json().msg_code]).toEqual([413, 'upload.too_many_files']);
    const fields = await upload(Array.from({ length: 50 }, (_, i) => ({ name: `x${i}`, data: 'y' })));
    expect([fields.statusCode, fields.json().msg_code]).toEqual([413, 'upload.too_many_fields']);
    const parts = await upload([
      ...Array.from({ length: 2 }, (_, i) => file(i)),
      ...Array.from({ length: 8 }, (_, i) => ({ name: `x${i}`, data: 'y' })),
      { name: 'one-more', data: 'y' },
    ]);
    expect([parts.statusCode, parts.json().msg_code]).toEqual([413, 'upload.too_many_parts']);
    // two files (the compare call's) are still taken as far as the route's own checks
    const two = await upload([file(1), file(2)]);
    expect(two.statusCode).toBe(400);
  });
});

describe('dictionary imports', () => {
  it('refuses a workbook whose zip lies about its sizes before exceljs inflates it, off the event loop', async () => {
    const t = await startTestApp();
    try {
      const token = await login(t.app, ADMIN.phone, ADMIN.password);
      // 50 MB of zeros declared as 1 kB, under the name exceljs reads first
      const bomb = bombZip(50 * 1024 * 1024, 1024, 'xl/workbook.xml');
      const run = vi.spyOn(t.app.heavy, 'run');
      const res = await postFile(t, token, '/dict/v1/upload_words', 'words.xlsx', bomb);
      expect(res.statusCode).toBe(413);
      expect(res.json().msg).toMatch(/解压后过大/);
      // read in the heavy pool, not on the event loop
      expect(run.mock.calls.map(([name]) => name)).toContain('importFile');
      run.mockRestore();
      // an ordinary text import still works
      const ok = await postFile(t, token, '/dict/v1/upload_words', 'words.txt', Buffer.from('校对,1\n'));
      expect(ok.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  }, 60_000);
});

describe('secrets never reach the log', () => {
  it('redacts token, apiKey, password and code query parameters', () => {
    expect(redactUrl('/ws?token=abc.def&endpoint=1')).toBe('/ws?token=[REDACTED]&endpoint=1');
    expect(redactUrl('/v2/check?apiKey=k-123&text=x')).toBe('/v2/check?apiKey=[REDACTED]&text=x');
    expect(redactUrl('/a?password=p&code=123456&x=1')).toBe('/a?password=[REDACTED]&code=[REDACTED]&x=1');
    expect(redactUrl('/plain/path')).toBe('/plain/path');
    for (const name of [
      'new_password',
      'newPassword',
      'pwd',
      'passwd',
      'old_code',
      'sms_code',
      'verify_code',
      'share_id',
      'ticket',
      'state',
      'wechat_code',
    ]) {
      expect(redactUrl(`/u?${name}=LEAK&x=1`)).toBe(`/u?${name}=[REDACTED]&x=1`);
    }
    for (const name of ['authorization', 'auth', 'bearer', 'secret', 'api-key', 'x-api-key']) {
      expect(redactUrl(`/u?${name}=LEAK`)).not.toContain('LEAK');
    }
  });

  it('logs requests without the bearer token, the socket token or an API key', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const options = loggerOptions('info', { LOG_FORMAT: 'json' });
    const t = await startTestApp({ logger: { ...(options as object), stream } });
    try {
      const token = await login(t.app, ADMIN.phone, ADMIN.password);
      await t.app.inject({ method: 'GET', url: `/ws?token=${token}&endpoint=1`, headers: CLIENT_HEADERS });
      await t.app.inject({ method: 'POST', url: '/v2/check?apiKey=secret-api-key-value&text=x&language=zh-CN' });
      await t.app.inject({
        method: 'GET',
        url: '/user/info',
        headers: { ...CLIENT_HEADERS, authorization: `Bearer ${token}` },
      });
      const log = lines.join('');
      expect(log).toContain('/ws?token=[REDACTED]');
      expect(log).not.toContain(token);
      expect(log).not.toContain('secret-api-key-value');
      expect(log).not.toContain(ADMIN.password);
    } finally {
      await t.close();
    }
  }, 60_000);
});

describe('password guesses sent in parallel', () => {
  it('checks at most five before the lock, however many arrive at once', async () => {
    const t = await startTestApp();
    try {
      const token = await login(t.app, ADMIN.phone, ADMIN.password);
      const guesses = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          call(t.app, 'PUT', '/user/pwd', { old_password: `guess-${i}`, new_password: 'new-password-1' }, token),
        ),
      );
      const checked = guesses.filter((g) => g.status === 400).length;
      expect(checked).toBeLessThanOrEqual(5);
      expect(guesses.filter((g) => g.status === 429).length).toBe(30 - checked);
      expect(guesses.find((g) => g.status === 429)?.json.msg).toMatch(/分钟后再试/);
      // the right password is refused too while the lock holds
      const right = await call(
        t.app,
        'PUT',
        '/user/pwd',
        { old_password: ADMIN.password, new_password: 'new-password-1' },
        token,
      );
      expect(right.status).toBe(429);
    } finally {
      await t.close();
    }
  });
});

describe('accounts created at the same moment', () => {
  it('answers 409 to the second of two registrations of one phone, never 500', async () => {
    const t = await startTestApp();
    try {
      const both = await Promise.allSettled(
        [0, 1].map(() => createUser(t.app.db, { phone: '13900000401', password: 'same-moment-1' })),
      );
      expect(both.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const refused = both.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(refused?.reason).toBeInstanceOf(AppError);
      expect((refused?.reason as AppError).statusCode).toBe(409);
    } finally {
      await t.close();
    }
  });
});

describe('counting characters and words in one pass', () => {
  it('counts as the regular expressions did: non-space code points, and CJK characters plus Latin/digit runs', () => {
    expect(countChars('中文 English\t123\u3000混合\n')).toBe(14);
    expect(countChars('𠀀𠀁 x')).toBe(3);
    expect(countChars('\u00a0\ufeff\u2028')).toBe(0);
    expect(wordCount('中文 English 123 混合')).toBe(6);
    expect(wordCount('abc中def')).toBe(3);
    expect(wordCount('ＡＢＣ test42，我们')).toBe(3);
  });
});

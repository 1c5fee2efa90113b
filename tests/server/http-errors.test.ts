import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { loadConfig } from '../../server/config';
import { ADMIN, CLIENT_HEADERS, call, login, startTestApp, type TestApp } from './helpers';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp({ config: { bodyLimit: 64 * 1024 } });
  token = await login(t.app, ADMIN.phone, ADMIN.password);
});
afterAll(async () => t.close());

const post = (url: string, payload: string, contentType = 'application/json') =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { ...CLIENT_HEADERS, 'content-type': contentType, authorization: `Bearer ${token}` },
    payload,
  });

describe('bad input gets the envelope with a readable msg', () => {
  it('malformed JSON -> 400', async () => {
    const res = await post('/user/login', '{"phone": "13800000000", ');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 400,
      msg: '请求体不是有效的 JSON',
      msg_code: 'request.malformed_json',
      result: null,
    });
  });

  it('a number where a string belongs -> 400 naming the field', async () => {
    const res = await call(t.app, 'POST', '/user/login', { phone: 13800000000, password: 'x' });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      code: 400,
      msg: '请求参数错误：body.phone must be string',
      msg_code: 'request.invalid',
      msg_params: { field: 'body.phone', problem: 'must be string' },
      result: null,
    });
  });

  it('a missing field -> 400 naming it', async () => {
    const res = await call(t.app, 'POST', '/user/register', { phone: '13800000001', password: 'secret123' });
    expect(res.status).toBe(400);
    expect(res.json.msg).toContain('body.code is required');
  });

  it('a value outside the enum -> 400 listing the allowed values', async () => {
    const res = await call(t.app, 'POST', '/user/sms_code', { phone: '13800000001', purpose: 'spam' });
    expect(res.status).toBe(400);
    expect(res.json.msg).toContain('body.purpose must be one of "register", "phone", "reset"');
  });

  it('a pattern mismatch -> 400', async () => {
    const res = await call(t.app, 'POST', '/user/sms_code', { phone: '12345', purpose: 'register' });
    expect(res.status).toBe(400);
    expect(res.json.msg).toContain('body.phone');
  });

  it('an empty JSON body on a call that needs one -> 400', async () => {
    const res = await post('/user/leave_message', '');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(400);
  });

  it('a body over the limit -> 413', async () => {
    const res = await post('/user/leave_message', JSON.stringify({ content: 'x'.repeat(100 * 1024) }));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ code: 413, msg: '请求体过大', msg_code: 'request.body_too_large', result: null });
  });

  it('a content type the call does not take -> 415 envelope', async () => {
    const res = await post('/user/leave_message', 'content=hi', 'application/x-www-form-urlencoded');
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe(415);
  });

  it('an unknown route -> 404 envelope', async () => {
    for (const [method, url] of [
      ['GET', '/user/nothing_here'],
      ['POST', '/misscut/v9/none'],
      ['DELETE', '/user/user_info'],
    ] as const) {
      const res = await call(t.app, method, url);
      expect(res.status).toBe(404);
      expect(res.json).toEqual({
        code: 404,
        msg: `接口不存在：${method} ${url}`,
        msg_code: 'request.no_route',
        msg_params: { method, path: url },
        result: null,
      });
    }
  });

  it('tracking parameters in the query do not break a call', async () => {
    const res = await call(t.app, 'GET', '/user/user_info?bd_vid=abc&qhclickid=1&up_id=x', undefined, token);
    expect(res.status).toBe(200);
  });
});

describe('server errors hide their details', () => {
  it('a failing database answers 500 系统异常 without the cause', async () => {
    const logged: string[] = [];
    const broken = await startTestApp({
      logger: { level: 'error', stream: { write: (line: string) => logged.push(line) } },
    });
    // Break the storage under a running app: the handler's query throws.
    await broken.app.db.schema.dropTable('tokens').execute();
    const res = await call(broken.app, 'POST', '/user/login', { phone: ADMIN.phone, password: ADMIN.password });
    expect(res.status).toBe(500);
    expect(res.json).toEqual({ code: 500, msg: '系统异常', msg_code: 'server.internal', result: null });
    expect(JSON.stringify(res.json)).not.toMatch(/tokens|SQLITE|table/i);
    // The cause goes to the log instead.
    expect(logged.join('')).toMatch(/no such table: tokens/);
    await broken.close();
  });
});

describe('system calls', () => {
  it('GET /health reports the database', async () => {
    const res = await call(t.app, 'GET', '/health');
    expect(res.json).toEqual({
      code: 200,
      msg: 'ok',
      result: { status: 'ok', database: 'sqlite', version: expect.stringMatching(/^\d+\.\d+\.\d+/) },
    });
  });

  it('GET /workbench/config.json is plain JSON from the environment', async () => {
    const custom = await startTestApp({
      config: {
        publicConfig: {
          baseURL: 'https://api.example.cn',
          wxURL: 'https://wx.example.cn',
          bindWechat: '/bind',
          resetWechat: '/reset',
          socketURL: '/ws',
        },
      },
    });
    const res = await custom.app.inject({ method: 'GET', url: '/workbench/config.json' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      baseURL: 'https://api.example.cn',
      wxURL: 'https://wx.example.cn',
      bindWechat: '/bind',
      resetWechat: '/reset',
      socketURL: '/ws',
    });
    await custom.close();
  });

  it('configuration defaults and environment parsing', () => {
    const defaults = loadConfig({});
    expect(defaults.publicConfig).toEqual({
      baseURL: '',
      wxURL: '',
      bindWechat: '',
      resetWechat: '',
      socketURL: '/ws',
    });
    expect(defaults).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      adminPhone: '13800000000',
      adminPassword: 'admin123456',
      smsProvider: 'console',
      databaseUrl: undefined,
    });
    expect(defaults.dataDir).toBe(resolve('./data'));
    const custom = loadConfig({
      PORT: '8080',
      DATA_DIR: '/srv/wb',
      DATABASE_URL: 'postgres://x@y/z',
      SOCKET_URL: 'wss://rt.example.cn/ws',
      BODY_LIMIT: '1024',
    });
    expect(custom).toMatchObject({ port: 8080, dataDir: '/srv/wb', databaseUrl: 'postgres://x@y/z', bodyLimit: 1024 });
    expect(custom.publicConfig.socketURL).toBe('wss://rt.example.cn/ws');
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT/);
    // vitest (like Vite) exports BASE_URL=/ into the environment: that is the same origin, i.e. ''.
    expect(loadConfig({ BASE_URL: '/' }).publicConfig.baseURL).toBe('');
    expect(loadConfig({ BASE_URL: 'https://api.example.cn/' }).publicConfig.baseURL).toBe('https://api.example.cn');
  });
});

describe('no handler runs on unvalidated input', () => {
  it('a JSON call refuses other media types with 415, whatever parser fastify has for them', async () => {
    for (const type of ['text/plain', 'image/png', 'application/octet-stream']) {
      const res = await post('/user/login', 'phone=13800000000', type);
      expect(res.statusCode, type).toBe(415);
      expect(res.json()).toEqual({
        code: 415,
        msg: expect.stringContaining('不支持的内容类型'),
        msg_code: 'request.wrong_type',
        msg_params: { accepted: 'application/json', type },
        result: null,
      });
    }
  });

  it('a call that needs a body refuses a request without one', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/user/login', headers: CLIENT_HEADERS });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(400);
  });
});

describe('secured calls check the token first', () => {
  it('an anonymous request with a bad body gets 401, not a validation message', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/user/pwd',
      headers: { ...CLIENT_HEADERS, 'content-type': 'application/json' },
      payload: '{"old_password": 1',
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 401, msg: '请先登录', msg_code: 'auth.required', result: null });
  });
});

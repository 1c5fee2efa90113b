import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, PG_BIN } from './pg-cluster';
import {
  ADMIN,
  CLIENT_HEADERS,
  call,
  lastSmsCode,
  login,
  multipart,
  startTestApp,
  tinyPng,
  type TestApp,
} from './helpers';

describe.skipIf(!PG_BIN)('on PostgreSQL (DATABASE_URL)', () => {
  const cluster = new Cluster();
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    url = await cluster.start();
    t = await startTestApp({ databaseUrl: url });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await cluster.stop();
  });

  it('migrates, creates the root account and reports postgres', async () => {
    const health = await call(t.app, 'GET', '/health');
    expect(health.json.result.database).toBe('postgres');
    const token = await login(t.app, ADMIN.phone, ADMIN.password);
    expect((await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result).toMatchObject({
      uid: 1,
      role: 'root',
    });
  });

  it('announcements: publish, the notice list, read (twice), the operators list; the guide and rules', async () => {
    const token = await login(t.app, ADMIN.phone, ADMIN.password);
    const published = await call(
      t.app,
      'POST',
      '/admin/v1/announcements',
      { announcement_type: 1, display_mode: 1, text: '系统升级', audience: 'all' },
      token,
    );
    expect(published.status).toBe(200);
    const id = published.json.result.id;
    expect((await call(t.app, 'GET', '/notice/v1/list', undefined, token)).json.result).toMatchObject({ unread: 1 });
    for (let i = 0; i < 2; i++) {
      const read = await call(t.app, 'POST', '/notice/v1/read', { ids: [id] }, token);
      expect([read.status, read.json.result]).toEqual([200, { count: 1 }]);
    }
    expect((await call(t.app, 'GET', '/notice/v1/list', undefined, token)).json.result).toMatchObject({
      unread: 0,
      list: [{ id, read: true }],
    });
    const all = (await call(t.app, 'GET', '/admin/v1/announcements', undefined, token)).json.result;
    expect(all).toMatchObject([{ id, delivered: 1, read: 1 }]);
    expect((await call(t.app, 'GET', '/wizard/v1/access?type=2&ver=001.001.004', undefined, token)).status).toBe(200);
    expect((await call(t.app, 'GET', '/wizard/v1/show', undefined, token)).json.result.show).toBe(false);
    expect((await call(t.app, 'PUT', '/admin/v1/rules', { text: '## 规则' }, token)).status).toBe(200);
    expect((await call(t.app, 'PUT', '/admin/v1/rules', { text: '## 新规则' }, token)).status).toBe(200);
    expect((await call(t.app, 'GET', '/site/v1/rules')).json.result).toMatchObject({ text: '## 新规则', custom: true });
  });

  it('runs the user flow: register, login_id, password, logout, cancellation', async () => {
    await call(t.app, 'POST', '/user/sms_code', { phone: '13600000001', purpose: 'register' });
    const reg = await call(t.app, 'POST', '/user/register', {
      phone: '13600000001',
      code: lastSmsCode(t.dataDir, '13600000001'),
      password: 'secret123',
    });
    expect(reg.status).toBe(200);
    const token = reg.json.result.token;
    expect((await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result).toMatchObject({
      phone: '13600000001',
      role: 'free',
      uid: 2,
    });
    expect((await call(t.app, 'PUT', '/user/login_id', { login_id: 'pg_user' }, token)).status).toBe(200);
    const png = tinyPng();
    const form = multipart('file', 'me.png', 'image/png', png);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/user/portrait',
      headers: { ...CLIENT_HEADERS, authorization: `Bearer ${token}`, 'content-type': form.contentType },
      payload: form.payload,
    });
    expect(uploaded.statusCode).toBe(200);
    expect((await call(t.app, 'GET', '/user/portrait', undefined, token)).res.rawPayload.equals(png)).toBe(true);
    expect(
      (await call(t.app, 'PUT', '/user/pwd', { old_password: 'secret123', new_password: 'secret456' }, token)).status,
    ).toBe(200);
    const second = await login(t.app, '13600000001', 'secret456');
    expect((await call(t.app, 'POST', '/user/logout', undefined, second)).status).toBe(200);
    expect((await call(t.app, 'GET', '/user/user_info', undefined, second)).status).toBe(401);
    expect((await call(t.app, 'POST', '/user/cancellation', { password: 'secret456' }, token)).status).toBe(200);
    expect((await call(t.app, 'POST', '/user/login', { phone: '13600000001', password: 'secret456' })).status).toBe(
      401,
    );
  });

  it('a restart keeps the data and does not re-apply migrations', async () => {
    const again = await startTestApp({ databaseUrl: url });
    const token = await login(again.app, ADMIN.phone, ADMIN.password);
    expect((await call(again.app, 'GET', '/user/user_info', undefined, token)).json.result.role).toBe('root');
    const roots = await again.app.db.selectFrom('users').select('uid').where('role', '=', 'root').execute();
    expect(roots).toHaveLength(1);
    await again.close();
  });

  it('counts wrong passwords in auth_failures and locks the phone, across app instances', async () => {
    const attempt = (app = t.app) => call(app, 'POST', '/user/login', { phone: '13600000099', password: 'not-it-1' });
    for (let i = 0; i < 5; i++) expect((await attempt()).status).toBe(401);
    const again = await startTestApp({ databaseUrl: url });
    try {
      const locked = await attempt(again.app);
      expect(locked.status).toBe(429);
      expect(locked.json.msg).toContain('15 分钟后再试');
    } finally {
      await again.close();
    }
  });
});

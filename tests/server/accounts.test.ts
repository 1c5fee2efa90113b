import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, call, lastSmsCode, login, register, startTestApp, type TestApp } from './helpers';
import { loadConfig } from '../../server/config';
import { hashPassword, verifyPassword } from '../../server/domain/accounts/passwords';

let t: TestApp;
beforeAll(async () => {
  // Every account here registers and logs in from the one in-process address; the per-address limits have
  // their own tests (security-accounts.test.ts), the per-phone ones are tested here with their real values.
  t = await startTestApp({ config: { authRateLimit: { loginPerAddress: 1000, smsPerAddress: 1000 } } });
});
afterAll(async () => t.close());

describe('root account on first start', () => {
  it('logs in with ADMIN_PHONE / ADMIN_PASSWORD and has role root', async () => {
    const token = await login(t.app, ADMIN.phone, ADMIN.password);
    const info = await call(t.app, 'GET', '/user/user_info', undefined, token);
    expect(info.status).toBe(200);
    expect(info.json).toMatchObject({ code: 200, result: { phone: ADMIN.phone, role: 'root' } });
  });
});

describe('a login from an external app', () => {
  it('records the app uuid on the new token; a malformed one is refused', async () => {
    const res = await call(t.app, 'POST', '/user/login', {
      phone: ADMIN.phone,
      password: ADMIN.password,
      app_uuid: 'plugin-7f3a_22',
    });
    expect(res.status).toBe(200);
    const rows = await t.app.db.selectFrom('tokens').select('app_uuid').where('app_uuid', 'is not', null).execute();
    expect(rows).toEqual([{ app_uuid: 'plugin-7f3a_22' }]);
    for (const app_uuid of ['', 'has space', 'x'.repeat(65), '<script>']) {
      const bad = await call(t.app, 'POST', '/user/login', { phone: ADMIN.phone, password: ADMIN.password, app_uuid });
      expect(bad.status, app_uuid).toBe(400);
    }
  });
});

describe('registration with an SMS code', () => {
  it('sends a code to the outbox, registers a free account and logs it in', async () => {
    const sent = await call(t.app, 'POST', '/user/sms_code', { phone: '13911110001', purpose: 'register' });
    expect(sent.json).toEqual({ code: 200, msg: expect.any(String), result: { expires_in: 300 } });
    const code = lastSmsCode(t.dataDir, '13911110001');
    expect(code).toMatch(/^\d{6}$/);

    const reg = await call(t.app, 'POST', '/user/register', {
      phone: '13911110001',
      code,
      password: 'secret123',
      name: '小王',
    });
    expect(reg.status).toBe(200);
    const info = await call(t.app, 'GET', '/user/user_info', undefined, reg.json.result.token);
    expect(info.json.result).toEqual({
      uid: expect.any(Number),
      phone: '13911110001',
      name: '小王',
      role: 'free',
      user_identity: 0,
      enterprise_id: null,
      login_id: null,
    });
  });

  it('rejects a wrong code, then a used code, and registering a taken phone', async () => {
    await call(t.app, 'POST', '/user/sms_code', { phone: '13911110002', purpose: 'register' });
    const code = lastSmsCode(t.dataDir, '13911110002');
    const wrong = code === '000000' ? '111111' : '000000';
    const bad = await call(t.app, 'POST', '/user/register', {
      phone: '13911110002',
      code: wrong,
      password: 'secret123',
    });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ code: 400, msg: '验证码错误', msg_code: 'sms.wrong', result: null });

    expect(
      (await call(t.app, 'POST', '/user/register', { phone: '13911110002', code, password: 'secret123' })).status,
    ).toBe(200);
    const again = await call(t.app, 'POST', '/user/register', { phone: '13911110002', code, password: 'secret123' });
    expect(again.status).toBe(409);
    const taken = await call(t.app, 'POST', '/user/sms_code', { phone: '13911110002', purpose: 'register' });
    expect(taken.status).toBe(409);
  });

  it('burns a code after 5 wrong attempts', async () => {
    await call(t.app, 'POST', '/user/sms_code', { phone: '13911110003', purpose: 'register' });
    const code = lastSmsCode(t.dataDir, '13911110003');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      expect(
        (await call(t.app, 'POST', '/user/register', { phone: '13911110003', code: wrong, password: 'secret123' }))
          .status,
      ).toBe(400);
    }
    const right = await call(t.app, 'POST', '/user/register', { phone: '13911110003', code, password: 'secret123' });
    expect(right.status).toBe(429);
  });

  it('an expired code is refused', async () => {
    await call(t.app, 'POST', '/user/sms_code', { phone: '13911110004', purpose: 'register' });
    const code = lastSmsCode(t.dataDir, '13911110004');
    await t.app.db
      .updateTable('sms_codes')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('phone', '=', '13911110004')
      .execute();
    const res = await call(t.app, 'POST', '/user/register', { phone: '13911110004', code, password: 'secret123' });
    expect(res.status).toBe(400);
    expect(res.json.msg).toContain('验证码已失效');
  });

  it('a newer code replaces the older one', async () => {
    await call(t.app, 'POST', '/user/sms_code', { phone: '13911110005', purpose: 'register' });
    const older = lastSmsCode(t.dataDir, '13911110005');
    let newer = older;
    // Codes are random: ask again until the new one differs (almost always the first time).
    for (let i = 0; i < 3 && newer === older; i++) {
      await call(t.app, 'POST', '/user/sms_code', { phone: '13911110005', purpose: 'register' });
      newer = lastSmsCode(t.dataDir, '13911110005');
    }
    expect(
      (await call(t.app, 'POST', '/user/register', { phone: '13911110005', code: older, password: 'secret123' }))
        .status,
    ).toBe(400);
    expect(
      (await call(t.app, 'POST', '/user/register', { phone: '13911110005', code: newer, password: 'secret123' }))
        .status,
    ).toBe(200);
  });

  it('sending codes is rate-limited per phone (5 per 10 minutes)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await call(t.app, 'POST', '/user/sms_code', { phone: '13911110006', purpose: 'register' })).status,
      );
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('a reset code for an unknown phone is answered like one for a registered phone', async () => {
    const res = await call(t.app, 'POST', '/user/sms_code', { phone: '13911119999', purpose: 'reset' });
    expect(res.status).toBe(200);
    expect(res.json.result).toEqual({ expires_in: 300 });
    expect(() => lastSmsCode(t.dataDir, '13911119999')).toThrow();
  });
});

describe('login', () => {
  it('a wrong password or unknown phone gets 401 with one message', async () => {
    await register(t, '13922220001', 'rightpass1');
    const wrong = await call(t.app, 'POST', '/user/login', { phone: '13922220001', password: 'wrongpass' });
    const unknown = await call(t.app, 'POST', '/user/login', { phone: '13922229999', password: 'wrongpass' });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({
      code: 401,
      msg: '手机号或密码错误',
      msg_code: 'auth.wrong_credentials',
      result: null,
    });
    expect(unknown.json).toEqual(wrong.json);
  });

  it('is rate-limited per phone: the 11th attempt within a minute gets 429, right passwords too', async () => {
    // (wrong passwords lock the phone after 5: security-accounts.test.ts)
    await register(t, '13922220002', 'rightpass1');
    const statuses: number[] = [];
    const attempt = () => call(t.app, 'POST', '/user/login', { phone: '13922220002', password: 'rightpass1' });
    for (let i = 0; i < 10; i++) statuses.push((await attempt()).status);
    expect(statuses).toEqual(Array(10).fill(200));
    const limited = await call(t.app, 'POST', '/user/login', { phone: '13922220002', password: 'rightpass1' });
    expect(limited.json).toEqual({
      code: 429,
      msg: '请求过于频繁，请稍后再试',
      msg_code: 'rate.too_many',
      result: null,
    });
    // Another phone from the same address is not affected.
    expect((await call(t.app, 'POST', '/user/login', { phone: ADMIN.phone, password: ADMIN.password })).status).toBe(
      200,
    );
  });
});

describe('tokens', () => {
  it('missing, unknown, revoked and expired tokens all get the 401 envelope', async () => {
    const missing = await call(t.app, 'GET', '/user/user_info');
    expect(missing.status).toBe(401);
    expect(missing.json).toEqual({ code: 401, msg: '请先登录', msg_code: 'auth.required', result: null });

    const unknown = await call(t.app, 'GET', '/user/user_info', undefined, 'not-a-real-token');
    expect(unknown.status).toBe(401);

    const token = await register(t, '13933330001');
    expect((await call(t.app, 'GET', '/user/user_info', undefined, token)).status).toBe(200);
    expect((await call(t.app, 'POST', '/user/logout', undefined, token)).status).toBe(200);
    const revoked = await call(t.app, 'GET', '/user/user_info', undefined, token);
    expect(revoked.status).toBe(401);
    expect(revoked.json.code).toBe(401);

    const second = await login(t.app, '13933330001', 'secret123');
    await t.app.db
      .updateTable('tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('revoked_at', 'is', null)
      .where('uid', '=', (await call(t.app, 'GET', '/user/user_info', undefined, second)).json.result.uid)
      .execute();
    const expired = await call(t.app, 'GET', '/user/user_info', undefined, second);
    expect(expired.status).toBe(401);
  });

  it('tokens are stored hashed, never in clear', async () => {
    const token = await register(t, '13933330002');
    const rows = await t.app.db.selectFrom('tokens').select('token_hash').execute();
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
    const users = await t.app.db
      .selectFrom('users')
      .select('password_hash')
      .where('phone', '=', '13933330002')
      .execute();
    expect(users[0].password_hash).toMatch(/^scrypt\$/);
    expect(users[0].password_hash).not.toContain('secret123');
  });

  it('passwords are hashed with scrypt at N = 16384 unless PASSWORD_HASH_COST says otherwise', async () => {
    // the test run lowers the cost (vite.config.ts) so that its hundreds of accounts are quick to make
    expect(loadConfig({}).passwordHashCost).toBe(14);
    const hash = await hashPassword('secret123', loadConfig({}).passwordHashCost);
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{88}$/);
    expect(await verifyPassword('secret123', hash)).toBe(true);
    expect(await verifyPassword('secret124', hash)).toBe(false);
    // a hash keeps its own cost: one made at another cost still verifies
    const cheaper = await hashPassword('secret123', 10);
    expect(cheaper).toMatch(/^scrypt\$1024\$/);
    expect(await verifyPassword('secret123', cheaper)).toBe(true);
    expect(() => loadConfig({ PASSWORD_HASH_COST: '9' })).toThrow(/PASSWORD_HASH_COST/);
    // the largest cost the setting allows hashes and verifies; one more is refused at start
    const costliest = await hashPassword('secret123', loadConfig({ PASSWORD_HASH_COST: '16' }).passwordHashCost);
    expect(costliest).toMatch(/^scrypt\$65536\$/);
    expect(await verifyPassword('secret123', costliest)).toBe(true);
    expect(() => loadConfig({ PASSWORD_HASH_COST: '17' })).toThrow(/PASSWORD_HASH_COST/);
  });
});

describe('profile', () => {
  it('each user sees only their own data', async () => {
    const a = await register(t, '13944440001', 'secret123', '甲');
    const b = await register(t, '13944440002', 'secret123', '乙');
    const infoA = (await call(t.app, 'GET', '/user/user_info', undefined, a)).json.result;
    const infoB = (await call(t.app, 'GET', '/user/user_info', undefined, b)).json.result;
    expect(infoA.name).toBe('甲');
    expect(infoB.name).toBe('乙');
    expect(infoA.uid).not.toBe(infoB.uid);
    const portraitA = await call(t.app, 'GET', '/user/portrait', undefined, a);
    const portraitB = await call(t.app, 'GET', '/user/portrait', undefined, b);
    expect(portraitA.res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(portraitA.res.body).toContain('>甲<');
    expect(portraitB.res.body).toContain('>乙<');
    // Deterministic: the same user gets the same picture.
    expect((await call(t.app, 'GET', '/user/portrait', undefined, a)).res.body).toBe(portraitA.res.body);
  });

  it('login_id is unique and follows the contract rule', async () => {
    const a = await register(t, '13955550001');
    const b = await register(t, '13955550002');
    expect((await call(t.app, 'PUT', '/user/login_id', { login_id: 'wang_01' }, a)).status).toBe(200);
    const clash = await call(t.app, 'PUT', '/user/login_id', { login_id: 'wang_01' }, b);
    expect(clash.status).toBe(409);
    expect((await call(t.app, 'GET', '/user/user_info', undefined, a)).json.result.login_id).toBe('wang_01');
    const bad = await call(t.app, 'PUT', '/user/login_id', { login_id: '1abc' }, b);
    expect(bad.status).toBe(400);
    expect(bad.json.msg).toContain('login_id');
  });

  it('changing the phone needs a code sent to the new phone (and the password)', async () => {
    const token = await register(t, '13966660001');
    await call(t.app, 'POST', '/user/sms_code', { phone: '13966660002', purpose: 'phone' });
    const code = lastSmsCode(t.dataDir, '13966660002', 'phone');
    const change = (c: string) =>
      call(t.app, 'PUT', '/user/phone', { phone: '13966660002', code: c, password: 'secret123' }, token);
    expect((await change(code === '123456' ? '654321' : '123456')).status).toBe(400);
    expect((await change(code)).status).toBe(200);
    expect((await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result.phone).toBe('13966660002');
    expect((await call(t.app, 'POST', '/user/login', { phone: '13966660001', password: 'secret123' })).status).toBe(
      401,
    );
    expect((await call(t.app, 'POST', '/user/login', { phone: '13966660002', password: 'secret123' })).status).toBe(
      200,
    );
  });

  it('changing the password needs the old one and revokes the other tokens', async () => {
    const first = await register(t, '13977770001', 'oldpass12');
    const other = await login(t.app, '13977770001', 'oldpass12');
    const wrong = await call(
      t.app,
      'PUT',
      '/user/pwd',
      { old_password: 'nope-nope', new_password: 'newpass12' },
      first,
    );
    expect(wrong.status).toBe(400);
    expect(
      (await call(t.app, 'PUT', '/user/pwd', { old_password: 'oldpass12', new_password: 'newpass12' }, first)).status,
    ).toBe(200);
    expect((await call(t.app, 'GET', '/user/user_info', undefined, first)).status).toBe(200);
    expect((await call(t.app, 'GET', '/user/user_info', undefined, other)).status).toBe(401);
    expect((await call(t.app, 'POST', '/user/login', { phone: '13977770001', password: 'oldpass12' })).status).toBe(
      401,
    );
    expect((await call(t.app, 'POST', '/user/login', { phone: '13977770001', password: 'newpass12' })).status).toBe(
      200,
    );
  });

  it('leave_message stores the message for the operators', async () => {
    const token = await register(t, '13988880001');
    const res = await call(t.app, 'POST', '/user/leave_message', { content: '希望支持繁体', contact: 'wx:abc' }, token);
    expect(res.json).toEqual({ code: 200, msg: expect.any(String), result: null });
    const rows = await t.app.db.selectFrom('messages').selectAll().where('content', '=', '希望支持繁体').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].contact).toBe('wx:abc');
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await call(t.app, 'POST', '/user/leave_message', { content: `第${i}条` }, token)).status);
    expect(statuses).toEqual([...Array(9).fill(200), 429]);
  });
});

describe('cancellation', () => {
  it('needs the password, then really closes the account and frees the phone', async () => {
    const token = await register(t, '13999990001', 'secret123');
    const other = await login(t.app, '13999990001', 'secret123');
    expect((await call(t.app, 'POST', '/user/cancellation', { password: 'wrong-one' }, token)).status).toBe(400);
    expect((await call(t.app, 'GET', '/user/user_info', undefined, token)).status).toBe(200);

    expect((await call(t.app, 'POST', '/user/cancellation', { password: 'secret123' }, token)).status).toBe(200);
    expect((await call(t.app, 'GET', '/user/user_info', undefined, token)).status).toBe(401);
    expect((await call(t.app, 'GET', '/user/user_info', undefined, other)).status).toBe(401);
    expect((await call(t.app, 'POST', '/user/login', { phone: '13999990001', password: 'secret123' })).status).toBe(
      401,
    );

    // The number can be registered again, as a new account.
    const again = await register(t, '13999990001', 'another12');
    const info = (await call(t.app, 'GET', '/user/user_info', undefined, again)).json.result;
    expect(info.phone).toBe('13999990001');
    const closed = await t.app.db.selectFrom('users').selectAll().where('closed_at', 'is not', null).execute();
    expect(closed.some((u) => u.phone === null && u.uid !== info.uid)).toBe(true);
  });

  it('the last root account cannot be closed', async () => {
    const token = await login(t.app, ADMIN.phone, ADMIN.password);
    const res = await call(t.app, 'POST', '/user/cancellation', { password: ADMIN.password }, token);
    expect(res.status).toBe(409);
  });
});

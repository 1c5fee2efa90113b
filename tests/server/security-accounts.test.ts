import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SocketClose } from '../../openapi/socket-protocol';
import { buildApp } from '../../server/app';
import { hashToken } from '../../server/domain/accounts/tokens';
import { ADMIN, approveApiAccess, call, CLIENT_HEADERS, lastSmsCode, startTestApp, type TestApp } from './helpers';

/**
 * Account security against a hostile client: limits per address and per phone, the persisted login lock,
 * no phone enumeration, proof of ownership for moving an account to another phone, revocation of every
 * credential (tokens, API key, sockets, shares) when it matters. The app runs with the real default limits;
 * each account registers from its own address, as real users do, so that only the calls under test share one.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

let addresses = 0;
/** A client address nobody else in this file uses. */
const freshAddress = () => {
  addresses++;
  return `10.77.${Math.floor(addresses / 200)}.${(addresses % 200) + 1}`;
};

interface Sent {
  status: number;
  json: any;
  body: string;
}

type Method = InjectOptions['method'];

async function from(address: string, method: Method, url: string, body?: unknown, token?: string): Promise<Sent> {
  const { status, json, res } = await call(t.app, method, url, body, token, address);
  return { status, json, body: res.body };
}

const status = async (sent: Promise<Sent>) => (await sent).status;

/** A form-encoded call of the LanguageTool API. */
async function ltForm(address: string, url: string, fields: Record<string, string>, token?: string) {
  const res = await t.app.inject({
    method: 'POST',
    url,
    remoteAddress: address,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    payload: new URLSearchParams(fields).toString(),
  });
  return { status: res.statusCode, body: res.body };
}

async function newAccount(phone: string, password = 'secret123') {
  const address = freshAddress();
  const sent = await from(address, 'POST', '/user/sms_code', { phone, purpose: 'register' });
  if (sent.status !== 200) throw new Error(`sms_code failed: ${JSON.stringify(sent.json)}`);
  const code = lastSmsCode(t.dataDir, phone, 'register');
  const reg = await from(address, 'POST', '/user/register', { phone, code, password });
  if (reg.status !== 200) throw new Error(`register failed: ${JSON.stringify(reg.json)}`);
  const token = reg.json.result.token as string;
  const uid = (await from(address, 'GET', '/user/user_info', undefined, token)).json.result.uid as number;
  return { token, uid, address };
}

const login = (address: string, phone: string, password: string) =>
  from(address, 'POST', '/user/login', { phone, password });
const tokenOf = async (sent: Promise<Sent>) => (await sent).json.result.token as string;
const userInfo = (address: string, token: string) => from(address, 'GET', '/user/user_info', undefined, token);
const changePassword = (address: string, token: string, oldPassword: string, newPassword: string) =>
  from(address, 'PUT', '/user/pwd', { old_password: oldPassword, new_password: newPassword }, token);
const smsCode = (address: string, phone: string, purpose: string, token?: string) =>
  from(address, 'POST', '/user/sms_code', { phone, purpose }, token);

/** The console provider appends to the outbox after the answer for reset codes: wait for the line. */
async function waitForCode(phone: string, purpose: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    try {
      return lastSmsCode(t.dataDir, phone, purpose);
    } catch {
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  throw new Error(`no ${purpose} code for ${phone}`);
}

function outboxHas(phone: string): boolean {
  const file = join(t.dataDir, 'sms-outbox.jsonl');
  return (
    existsSync(file) &&
    readFileSync(file, 'utf8')
      .split('\n')
      .some((l) => l.includes(`"phone":"${phone}"`))
  );
}

const LOGIN_LOCKED = '登录失败次数过多，请 15 分钟后再试';
const PASSWORD_LOCKED = '密码错误次数过多，请 15 分钟后再试';
const lockedBody = (msg: string, code: string) => ({
  code: 429,
  msg,
  msg_code: code,
  msg_params: { minutes: 15 },
  result: null,
});

describe('login limits', () => {
  it('counts every attempt of a client address whatever the phone: the 31st within 10 minutes gets 429', async () => {
    const address = freshAddress();
    const statuses: number[] = [];
    // one guess per phone, as in a password spray: no per-phone limit or lock comes into play
    for (let i = 0; i < 30; i++) {
      statuses.push(await status(login(address, `1370000${String(i).padStart(4, '0')}`, 'guess-123')));
    }
    expect(statuses).toEqual(Array(30).fill(401));
    const limited = await login(address, '13700000999', 'guess-123');
    expect(limited.status).toBe(429);
    expect(limited.json).toEqual({
      code: 429,
      msg: '登录尝试过于频繁，请 10 分钟后再试',
      msg_code: 'rate.login_address',
      msg_params: { minutes: 10 },
      result: null,
    });
    // another address is not affected
    expect(await status(login(freshAddress(), '13700000999', 'guess-123'))).toBe(401);
  });

  it('counts the attempts for one phone across addresses: the 21st within 10 minutes gets 429', async () => {
    await newAccount('13710000001', 'rightpass1');
    const statuses: number[] = [];
    // right passwords, so the failure lock stays out of it: a botnet logging in to one account
    for (let i = 0; i < 20; i++) statuses.push(await status(login(freshAddress(), '13710000001', 'rightpass1')));
    expect(statuses).toEqual(Array(20).fill(200));
    const limited = await login(freshAddress(), '13710000001', 'rightpass1');
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({
      msg: '该手机号登录尝试过于频繁，请 10 分钟后再试',
      msg_code: 'rate.login_phone',
    });
  });
});

describe('login lock after wrong passwords (persisted)', () => {
  it('5 wrong passwords within 15 minutes lock the phone for 15 minutes, from any address', async () => {
    const { token } = await newAccount('13720000001', 'rightpass1');
    for (let i = 0; i < 5; i++) expect(await status(login(freshAddress(), '13720000001', `wrong-${i}`))).toBe(401);
    // the right password too
    const locked = await login(freshAddress(), '13720000001', 'rightpass1');
    expect(locked.status).toBe(429);
    expect(locked.json).toEqual(lockedBody(LOGIN_LOCKED, 'lockout.login'));
    // the lock is on logging in with the password, not on the sessions that exist
    expect(await status(userInfo(freshAddress(), token))).toBe(200);
  });

  it('holds in another process over the same database, says the minutes left, and ends', async () => {
    await newAccount('13720000002', 'rightpass1');
    for (let i = 0; i < 5; i++) expect(await status(login(freshAddress(), '13720000002', `wrong-${i}`))).toBe(401);
    const failures = () => (t.app.db as any).selectFrom('auth_failures').where('subject', '=', 'login:13720000002');
    const row = await failures().selectAll().executeTakeFirst();
    expect(Date.parse(row.locked_until) - Date.now()).toBeGreaterThan(14 * 60_000);

    // a second server over the same DATA_DIR: its in-memory limiters know nothing, the database does
    const other = await buildApp({
      logger: false,
      dataDir: t.dataDir,
      config: { adminPhone: ADMIN.phone, adminPassword: ADMIN.password, spaDir: join(t.dataDir, 'no-spa') },
    });
    try {
      const payload = { phone: '13720000002', password: 'rightpass1' };
      const res = await other.inject({ method: 'POST', url: '/user/login', headers: CLIENT_HEADERS, payload });
      expect(res.statusCode).toBe(429);
      expect(res.json().msg).toBe(LOGIN_LOCKED);
    } finally {
      await other.close();
    }

    const lockFor = (ms: number) =>
      (t.app.db as any)
        .updateTable('auth_failures')
        .set({ locked_until: new Date(Date.now() + ms).toISOString() })
        .where('subject', '=', 'login:13720000002')
        .execute();
    await lockFor(3.5 * 60_000);
    const later = await login(freshAddress(), '13720000002', 'rightpass1');
    expect(later.json).toMatchObject({ msg: '登录失败次数过多，请 4 分钟后再试', msg_params: { minutes: 4 } });
    await lockFor(-1000);
    expect(await status(login(freshAddress(), '13720000002', 'rightpass1'))).toBe(200);
    // and the success cleared the count
    expect(await failures().selectAll().executeTakeFirst()).toBeUndefined();
  });

  it('a successful login clears the count', async () => {
    await newAccount('13720000003', 'rightpass1');
    for (let i = 0; i < 4; i++) expect(await status(login(freshAddress(), '13720000003', `wrong-${i}`))).toBe(401);
    expect(await status(login(freshAddress(), '13720000003', 'rightpass1'))).toBe(200);
    for (let i = 0; i < 4; i++) expect(await status(login(freshAddress(), '13720000003', `again-${i}`))).toBe(401);
    expect(await status(login(freshAddress(), '13720000003', 'rightpass1'))).toBe(200);
  });
});

describe('SMS codes per client address', () => {
  it('the 21st code within an hour from one address gets 429, whatever the phones', async () => {
    const address = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      statuses.push(await status(smsCode(address, `1373000${String(i).padStart(4, '0')}`, 'register')));
    }
    expect(statuses).toEqual(Array(20).fill(200));
    const limited = await smsCode(address, '13730000999', 'register');
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ msg: '验证码发送过于频繁，请 60 分钟后再试', msg_code: 'rate.sms_address' });
    expect(outboxHas('13730000999')).toBe(false);
    expect(await status(smsCode(freshAddress(), '13730000999', 'register'))).toBe(200);
  });
});

describe('current-password checks of a logged-in account', () => {
  it('PUT /user/pwd: 5 wrong old passwords within 15 minutes, then 429 with the minutes, even when right', async () => {
    const { token, address } = await newAccount('13740000001', 'rightpass1');
    const wrong = (i: number, next = 'newpass12') => status(changePassword(address, token, `wrong-${i}`, next));
    for (let i = 0; i < 5; i++) expect(await wrong(i)).toBe(400);
    const locked = await changePassword(address, token, 'rightpass1', 'newpass12');
    expect(locked.json).toEqual(lockedBody(PASSWORD_LOCKED, 'lockout.password'));
    // the same count guards the other password checks of the account
    expect(await status(from(address, 'POST', '/user/cancellation', { password: 'rightpass1' }, token))).toBe(429);
    const move = { phone: '13740000009', code: '123456', password: 'rightpass1' };
    expect(await status(from(address, 'PUT', '/user/phone', move, token))).toBe(429);
    // nothing changed
    expect(await status(login(freshAddress(), '13740000001', 'rightpass1'))).toBe(200);
  });

  it('a right old password clears the count', async () => {
    const { token, address } = await newAccount('13740000002', 'rightpass1');
    const wrong = (i: number, next: string) => status(changePassword(address, token, `wrong-${i}`, next));
    for (let i = 0; i < 4; i++) expect(await wrong(i, 'newpass12')).toBe(400);
    expect(await status(changePassword(address, token, 'rightpass1', 'newpass12'))).toBe(200);
    for (let i = 0; i < 4; i++) expect(await wrong(i, 'newpass34')).toBe(400);
    expect(await status(changePassword(address, token, 'newpass12', 'newpass34'))).toBe(200);
  });
});

describe('no phone enumeration', () => {
  it('login: an unknown phone and a wrong password get the same answer in comparable time', async () => {
    await newAccount('13750000001', 'rightpass1');
    const address = freshAddress();
    const wrong = await login(address, '13750000001', 'wrong-one');
    const unknown = await login(address, '13750009999', 'wrong-one');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.json).toEqual(wrong.json);
    // both hash a password (the unknown phone against a decoy): the fastest of a few tries are close
    const fastest = async (phone: string) => {
      let best = Infinity;
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        await login(address, phone, `timing-${i}`);
        best = Math.min(best, performance.now() - started);
      }
      return best;
    };
    const known = await fastest('13750000001');
    const missing = await fastest('13750009999');
    expect(missing).toBeGreaterThan(known * 0.4);
    expect(known).toBeGreaterThan(missing * 0.4);
  });

  it('login lock: an unknown phone is locked after 5 failures like a registered one', async () => {
    for (let i = 0; i < 5; i++) expect(await status(login(freshAddress(), '13750008888', `wrong-${i}`))).toBe(401);
    const locked = await login(freshAddress(), '13750008888', 'anything');
    expect(locked.json).toEqual(lockedBody(LOGIN_LOCKED, 'lockout.login'));
  });

  it("SMS 'reset': the same answer for registered and unknown phones; only a registered one gets a code", async () => {
    await newAccount('13750000002');
    const known = await smsCode(freshAddress(), '13750000002', 'reset');
    const unknown = await smsCode(freshAddress(), '13750007777', 'reset');
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.json).toEqual(known.json);
    const sent = await waitForCode('13750000002', 'reset');
    expect(sent).toMatch(/^\d{6}$/);
    await new Promise((r) => setTimeout(r, 100));
    expect(outboxHas('13750007777')).toBe(false);
    // and resetting with a guessed code is refused the same way for both
    const guess = sent === '123456' ? '654321' : '123456';
    const reset = (phone: string) =>
      from(freshAddress(), 'POST', '/user/reset_pwd', { phone, code: guess, new_password: 'whatever1' });
    const resetKnown = await reset('13750000002');
    expect(resetKnown.status).toBe(400);
    expect((await reset('13750007777')).json).toEqual(resetKnown.json);
  });

  it('register and phone purposes still say 409 for a registered phone', async () => {
    await newAccount('13750000004');
    expect(await status(smsCode(freshAddress(), '13750000004', 'register'))).toBe(409);
    expect(await status(smsCode(freshAddress(), '13750000004', 'phone'))).toBe(409);
  });
});

describe('PUT /user/phone needs proof of the owner', () => {
  async function newPhoneCode(address: string, phone: string) {
    expect(await status(smsCode(address, phone, 'phone'))).toBe(200);
    return lastSmsCode(t.dataDir, phone, 'phone');
  }
  const changePhone = (address: string, token: string, body: Record<string, string>) =>
    from(address, 'PUT', '/user/phone', body, token);
  const phoneOf = async (address: string, token: string) => (await userInfo(address, token)).json.result.phone;

  it('a token and the new phone code alone are not enough; the current password is', async () => {
    const { token, address } = await newAccount('13760000001', 'rightpass1');
    const code = await newPhoneCode(address, '13760000002');
    const bare = await changePhone(address, token, { phone: '13760000002', code });
    expect(bare.status).toBe(400);
    expect(bare.json.msg).toContain('当前密码');
    const wrong = await changePhone(address, token, { phone: '13760000002', code, password: 'wrong-one' });
    expect(wrong.status).toBe(400);
    expect(await phoneOf(address, token)).toBe('13760000001');
    const moved = await changePhone(address, token, { phone: '13760000002', code, password: 'rightpass1' });
    expect(moved.status).toBe(200);
    expect(await phoneOf(address, token)).toBe('13760000002');
  });

  it("or a 'verify_old' code sent to the current phone, which only the logged-in owner can ask for", async () => {
    const { token, address } = await newAccount('13760000003', 'rightpass1');
    expect(await status(smsCode(address, '13760000003', 'verify_old'))).toBe(401);
    expect(await status(smsCode(address, '13760000001', 'verify_old', token))).toBe(400);
    expect(await status(smsCode(address, '13760000003', 'verify_old', token))).toBe(200);
    const oldCode = lastSmsCode(t.dataDir, '13760000003', 'verify_old');
    const code = await newPhoneCode(address, '13760000004');
    const badOld = oldCode === '000000' ? '111111' : '000000';
    expect(await status(changePhone(address, token, { phone: '13760000004', code, old_code: badOld }))).toBe(400);
    expect(await status(changePhone(address, token, { phone: '13760000004', code, old_code: oldCode }))).toBe(200);
    expect(await phoneOf(address, token)).toBe('13760000004');
  });
});

describe('revoking sessions and API keys', () => {
  /** A fake socket attached to the hub, as the websocket plugin attaches a real one. */
  function socketOf(uid: number, token: string) {
    const socket = { readyState: 1, OPEN: 1, send: vi.fn(), on: vi.fn(), close: vi.fn() };
    t.app.realtime.attach(socket as never, { uid, tokenHash: hashToken(token) });
    return socket;
  }
  const UNAUTHORIZED = [SocketClose.Unauthorized.code, SocketClose.Unauthorized.reason] as const;
  async function apiKeyOf(address: string, token: string) {
    await approveApiAccess(t, token);
    return (await from(address, 'POST', '/user/api_key', undefined, token)).json.result.api_key as string;
  }
  const words = (address: string, phone: string, apiKey: string) =>
    status(from(address, 'GET', `/v2/words?${new URLSearchParams({ username: phone, apiKey })}`));

  it('a password change revokes the other sessions, their sockets and the API key; this session stays', async () => {
    const { token, uid, address } = await newAccount('13770000001', 'rightpass1');
    const other = await tokenOf(login(freshAddress(), '13770000001', 'rightpass1'));
    const apiKey = await apiKeyOf(address, token);
    expect(await words(address, '13770000001', apiKey)).toBe(200);
    const mine = socketOf(uid, token);
    const theirs = socketOf(uid, other);

    expect(await status(changePassword(address, token, 'rightpass1', 'newpass12'))).toBe(200);
    expect(await status(userInfo(address, token))).toBe(200);
    expect(await status(userInfo(address, other))).toBe(401);
    expect(await words(address, '13770000001', apiKey)).toBe(401);
    expect(theirs.close).toHaveBeenCalledWith(...UNAUTHORIZED);
    expect(mine.close).not.toHaveBeenCalled();
  });

  it('POST /user/logout_all revokes every session (this one too), every socket and the API key', async () => {
    const { token, uid, address } = await newAccount('13770000002', 'rightpass1');
    const other = await tokenOf(login(freshAddress(), '13770000002', 'rightpass1'));
    const apiKey = await apiKeyOf(address, token);
    const sockets = [socketOf(uid, token), socketOf(uid, other)];
    const res = await from(address, 'POST', '/user/logout_all', undefined, token);
    expect(res.json).toEqual({ code: 200, msg: expect.any(String), result: null });
    expect(await status(userInfo(address, token))).toBe(401);
    expect(await status(userInfo(address, other))).toBe(401);
    expect(await words(address, '13770000002', apiKey)).toBe(401);
    for (const s of sockets) expect(s.close).toHaveBeenCalledWith(...UNAUTHORIZED);
    // logging in again works, and a new key can be made
    const again = await tokenOf(login(freshAddress(), '13770000002', 'rightpass1'));
    expect(await words(address, '13770000002', await apiKeyOf(address, again))).toBe(200);
  });

  it('plain logout revokes only its own token', async () => {
    const { token, address } = await newAccount('13770000003', 'rightpass1');
    const other = await tokenOf(login(freshAddress(), '13770000003', 'rightpass1'));
    const apiKey = await apiKeyOf(address, token);
    expect(await status(from(address, 'POST', '/user/logout', undefined, token))).toBe(200);
    expect(await status(userInfo(address, token))).toBe(401);
    expect(await status(userInfo(address, other))).toBe(200);
    expect(await words(address, '13770000003', apiKey)).toBe(200);
  });

  it('a password reset by SMS revokes every session and the API key, and lifts the login lock', async () => {
    const { token, uid, address } = await newAccount('13770000004', 'rightpass1');
    const apiKey = await apiKeyOf(address, token);
    const socket = socketOf(uid, token);
    for (let i = 0; i < 5; i++) await login(freshAddress(), '13770000004', `wrong-${i}`);
    expect(await status(login(freshAddress(), '13770000004', 'rightpass1'))).toBe(429);

    expect(await status(smsCode(freshAddress(), '13770000004', 'reset'))).toBe(200);
    const code = await waitForCode('13770000004', 'reset');
    const reset = (password: string) =>
      from(freshAddress(), 'POST', '/user/reset_pwd', { phone: '13770000004', code, new_password: password });
    expect((await reset('resetpass1')).json).toEqual({ code: 200, msg: expect.any(String), result: null });
    expect(await status(userInfo(address, token))).toBe(401);
    expect(await words(address, '13770000004', apiKey)).toBe(401);
    expect(socket.close).toHaveBeenCalledWith(...UNAUTHORIZED);
    expect(await status(login(freshAddress(), '13770000004', 'rightpass1'))).toBe(401);
    expect(await status(login(freshAddress(), '13770000004', 'resetpass1'))).toBe(200);
    // the code is used up
    expect(await status(reset('another12'))).toBe(400);
  });
});

describe('closing an account', () => {
  it('revokes its document shares (410 with the reason), its API key and its tokens', async () => {
    const { token, uid, address } = await newAccount('13780000001', 'rightpass1');
    const reader = await newAccount('13780000002', 'rightpass1');
    await approveApiAccess(t, token);
    const apiKey = (await from(address, 'POST', '/user/api_key', undefined, token)).json.result.api_key as string;
    const now = new Date().toISOString();
    await (t.app.db as any)
      .insertInto('documents')
      .values({
        uid,
        name: '通知.txt',
        file_type: 'txt',
        size: 12,
        status: 'done',
        check_options: 127,
        html: '<p>会议通知</p>',
        text: '会议通知',
        issues: '[]',
        fixes: '[]',
        ignored: '[]',
        share_id: 'closed-owner-share',
        created_at: now,
        updated_at: now,
      })
      .execute();
    const shareUrl = '/misscut/document/v1/get_share_doc?share_id=closed-owner-share';
    expect(await status(from(freshAddress(), 'GET', shareUrl))).toBe(200);

    expect(await status(from(address, 'POST', '/user/cancellation', { password: 'rightpass1' }, token))).toBe(200);

    const gone = await from(freshAddress(), 'GET', shareUrl);
    expect(gone.status).toBe(410);
    expect(gone.json).toEqual({
      code: 410,
      msg: '分享已失效：文档的所有者已注销账号',
      msg_code: 'document.share_gone',
      result: null,
    });
    const saveUrl = '/misscut/document/v1/share_save?share_id=closed-owner-share';
    expect(await status(from(reader.address, 'GET', saveUrl, undefined, reader.token))).toBe(410);
    expect(await status(userInfo(address, token))).toBe(401);
    const keys = await (t.app.db as any).selectFrom('api_keys').select('uid').where('uid', '=', uid).execute();
    expect(keys).toEqual([]);
    const query = new URLSearchParams({ username: '13780000001', apiKey });
    expect(await status(from(address, 'GET', `/v2/words?${query}`))).toBe(401);
  });
});

describe('limits of the LanguageTool word list and of tracking', () => {
  it('/v2/words without a token: 30 calls a minute per address (before the key is checked), then 429', async () => {
    const address = freshAddress();
    const credentials = { username: '13790000001', apiKey: 'wb_guess' };
    const query = `/v2/words?${new URLSearchParams(credentials)}`;
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push(await status(from(address, 'GET', query)));
    expect(statuses).toEqual(Array(30).fill(401));
    const limited = await from(address, 'GET', query);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatch(/^Error: /);
    expect((await ltForm(address, '/v2/words/add', { word: '问提', ...credentials })).status).toBe(429);
  });

  it('/v2/words with a token: 120 calls a minute per user, then 429', async () => {
    const { token, address } = await newAccount('13790000002');
    const statuses = new Set<number>();
    const list = () => status(from(freshAddress(), 'GET', '/v2/words', undefined, token));
    for (let i = 0; i < 120; i++) statuses.add(await list());
    expect([...statuses]).toEqual([200]);
    expect((await ltForm(address, '/v2/words/add', { word: '问提' }, token)).status).toBe(429);
  });

  it('click tracking: 60 a minute per user, 300 per address', async () => {
    const click = (address: string, token: string, type = 1) =>
      status(from(address, 'GET', `/misscut/v1/click?click_type=${type}`, undefined, token));
    const { token, address } = await newAccount('13790000003');
    const statuses = new Set<number>();
    for (let i = 0; i < 60; i++) statuses.add(await click(address, token));
    expect([...statuses]).toEqual([200]);
    expect(await click(address, token)).toBe(429);

    // many accounts behind one address
    const shared = freshAddress();
    const tokens: string[] = [];
    for (let i = 0; i < 6; i++) tokens.push((await newAccount(`1379000010${i}`)).token);
    const counted = new Set<number>();
    for (const each of tokens.slice(0, 5)) for (let i = 0; i < 60; i++) counted.add(await click(shared, each, 2));
    expect([...counted]).toEqual([200]);
    expect(await click(shared, tokens[5], 2)).toBe(429);
    expect(await click(freshAddress(), tokens[5], 2)).toBe(200);
  });

  it('result collection: 120 a minute per user', async () => {
    const { token, address } = await newAccount('13790000004');
    const body = { action: 'ignore', original: '问提', category: '1' };
    const collect = (at: string) => status(from(at, 'POST', '/proofread/result/collect/receive', body, token));
    const statuses = new Set<number>();
    for (let i = 0; i < 120; i++) statuses.add(await collect(freshAddress()));
    expect([...statuses]).toEqual([200]);
    expect(await collect(address)).toBe(429);
  });
});

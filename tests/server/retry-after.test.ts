import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam } from '../../server/domain/teams/teams';
import { CLIENT_HEADERS, lastSmsCode, startTestApp, type TestApp } from './helpers';

/**
 * Every 429 says when to retry: each rate-limited route is walked to its limit, and the refusal must carry a
 * Retry-After of whole seconds (JSON routes and the LanguageTool-compatible plain-text ones alike). The limits that
 * are settings are set small here so that each walk is short; the others run at their real values.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    config: {
      checkRateLimit: { checkMax: 5, anonymousMax: 4, windowMs: 60_000 },
      authRateLimit: { loginPerAddress: 12, smsPerAddress: 6 },
    },
  });
}, 60_000);
afterAll(async () => t.close());

let addresses = 0;
/** A client address no other walk uses. */
const freshAddress = () => {
  addresses++;
  return `10.88.${Math.floor(addresses / 200)}.${(addresses % 200) + 1}`;
};
let phones = 0;
const freshPhone = () => `1376${String(++phones).padStart(7, '0')}`;

interface Answer {
  status: number;
  retryAfter: string | undefined;
  code: string | undefined;
  body: string;
}

async function send(
  method: InjectOptions['method'],
  url: string,
  options: { body?: unknown; token?: string; address?: string; form?: Record<string, string> } = {},
): Promise<Answer> {
  const res = await t.app.inject({
    method,
    url,
    remoteAddress: options.address ?? freshAddress(),
    headers: {
      ...CLIENT_HEADERS,
      session: 'no-such-session',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(options.form ? { payload: new URLSearchParams(options.form).toString() } : {}),
    ...(options.body !== undefined ? { payload: options.body as InjectOptions['payload'] } : {}),
  });
  let code: string | undefined;
  try {
    code = res.json().msg_code;
  } catch {
    code = undefined;
  }
  const retry = res.headers['retry-after'];
  return { status: res.statusCode, retryAfter: retry === undefined ? undefined : String(retry), code, body: res.body };
}

/**
 * Sends call(0), call(1), … until one answers 429; expects exactly `limit` calls to pass first and the refusal to
 * say when to retry, in at most `most` seconds.
 */
async function walk(limit: number, call: (i: number) => Promise<Answer>, expected: { code?: string; most: number }) {
  const passed: number[] = [];
  for (let i = 0; i <= limit + 1; i++) {
    const answer = await call(i);
    if (answer.status !== 429) {
      passed.push(answer.status);
      continue;
    }
    expect(passed, `${limit} calls pass first`).toHaveLength(limit);
    expect(answer.retryAfter, `Retry-After of ${answer.body}`).toMatch(/^[1-9][0-9]*$/);
    expect(Number(answer.retryAfter)).toBeLessThanOrEqual(expected.most);
    if (expected.code) expect(answer.code ?? answer.body).toBe(expected.code);
    return answer;
  }
  throw new Error(`no 429 after ${limit + 2} calls: ${passed.join(' ')}`);
}

/** A new account, registered from an address of its own (registration sends an SMS code). */
async function signUp(phone = freshPhone()): Promise<string> {
  const address = freshAddress();
  expect((await send('POST', '/user/sms_code', { body: { phone, purpose: 'register' }, address })).status).toBe(200);
  const code = lastSmsCode(t.dataDir, phone, 'register');
  const registered = await send('POST', '/user/register', { body: { phone, code, password: 'rightpass1' }, address });
  expect(registered.status).toBe(200);
  return JSON.parse(registered.body).result.token;
}
const account = () => signUp();

describe('Retry-After on every 429', () => {
  it('logging in: the lock after five wrong passwords, and the limits per phone, address and both', async () => {
    const unknown = freshPhone();
    const address = freshAddress();
    await walk(5, () => send('POST', '/user/login', { body: { phone: unknown, password: 'wrong-123' }, address }), {
      code: 'lockout.login',
      most: 900,
    });
    // 10 a minute per phone and address (right passwords, so no lock comes into play)
    const phone = freshPhone();
    await signUp(phone);
    const one = freshAddress();
    await walk(10, () => send('POST', '/user/login', { body: { phone, password: 'rightpass1' }, address: one }), {
      code: 'rate.too_many',
      most: 60,
    });
    // 20 per 10 minutes per phone, from any addresses
    const spread = freshPhone();
    await signUp(spread);
    await walk(20, () => send('POST', '/user/login', { body: { phone: spread, password: 'rightpass1' } }), {
      code: 'rate.login_phone',
      most: 600,
    });
    // LOGIN_IP_RATE_MAX per 10 minutes per address, whatever the phone
    const sprayer = freshAddress();
    await walk(
      12,
      () => send('POST', '/user/login', { body: { phone: freshPhone(), password: 'guess-123' }, address: sprayer }),
      { code: 'rate.login_address', most: 600 },
    );
  });

  it('a signed-in account: the lock after five wrong current passwords', async () => {
    const token = await account();
    const body = { old_password: 'wrong-pass', new_password: 'newpass123' };
    await walk(5, () => send('PUT', '/user/pwd', { body, token }), { code: 'lockout.password', most: 900 });
  });

  it('SMS codes: per phone, per address, and a code burnt by wrong guesses', async () => {
    const phone = freshPhone();
    await walk(5, () => send('POST', '/user/sms_code', { body: { phone, purpose: 'register' } }), {
      code: 'rate.too_many',
      most: 600,
    });
    const address = freshAddress();
    await walk(
      6,
      () => send('POST', '/user/sms_code', { body: { phone: freshPhone(), purpose: 'register' }, address }),
      {
        code: 'rate.sms_address',
        most: 3600,
      },
    );
    const guessed = freshPhone();
    expect((await send('POST', '/user/sms_code', { body: { phone: guessed, purpose: 'register' } })).status).toBe(200);
    const wrong = lastSmsCode(t.dataDir, guessed, 'register') === '000000' ? '111111' : '000000';
    const body = { phone: guessed, code: wrong, password: 'rightpass1' };
    await walk(5, () => send('POST', '/user/register', { body }), { code: 'sms.too_many_wrong', most: 300 });
  });

  it('checks, page views, finding feedback and feedback messages', async () => {
    const token = await account();
    const text = { text: '我们明天讨论这个问提。' };
    await walk(5, () => send('POST', '/misscut/v1/check_text', { body: text, token }), {
      code: 'rate.check_account',
      most: 60,
    });
    await walk(60, () => send('GET', '/misscut/v1/click?click_type=1', { token }), { most: 60 });
    // 300 a minute per address, from six accounts behind one office address
    const staff: string[] = [];
    for (let k = 0; k < 6; k++) staff.push(await account());
    const office = freshAddress();
    await walk(300, (i) => send('GET', '/misscut/v1/click?click_type=1', { token: staff[i % 6], address: office }), {
      most: 60,
    });
    const feedback = { action: 'accept', original: '问提', suggestion: '问题', category: '1' };
    await walk(120, () => send('POST', '/proofread/result/collect/receive', { body: feedback, token }), { most: 60 });
    const school = freshAddress();
    const collect = (i: number) =>
      send('POST', '/proofread/result/collect/receive', { body: feedback, token: staff[i % 6], address: school });
    await walk(600, collect, { most: 60 });
    const message = { content: '很好用' };
    await walk(10, () => send('POST', '/user/leave_message', { body: message, token }), { most: 3600 });
  });

  it('redemption codes per account and per address, and sharing records', async () => {
    const token = await account();
    const code = { code: 'NOPE-0000' };
    await walk(10, () => send('POST', '/user/right_coupon_code/v1/use', { body: code, token }), { most: 600 });
    const crowd = [await account(), await account(), await account(), await account()];
    const address = freshAddress();
    await walk(
      30,
      (i) => send('POST', '/user/right_coupon_code/v1/use', { body: code, token: crowd[i % 4], address }),
      {
        most: 600,
      },
    );
    await walk(30, () => send('POST', '/user/add_sharing_info', { body: { channel: 'link' }, token }), {
      most: 3600,
    });
  });

  it('teams: invitations, applications, invitation codes, and a phone invited by too many teams', async () => {
    const roots: string[] = [];
    for (let k = 0; k < 5; k++) {
      const phone = freshPhone();
      const token = await signUp(phone);
      const { uid } = JSON.parse((await send('GET', '/user/user_info', { token })).body).result;
      await createTeam(t.app.db, { name: `团队${k}`, adminUid: Number(uid), adminPhone: phone, seats: 500 });
      roots.push(token);
    }
    await walk(
      30,
      () => send('POST', '/enterprise/v1/inviteAndApply', { body: { phones: [freshPhone()] }, token: roots[0] }),
      { most: 3600 },
    );
    // a phone gets at most 3 invitations a day from all teams (the first team's own invitation limit is spent)
    const popular = freshPhone();
    await walk(
      3,
      (i) => send('POST', '/enterprise/v1/invite_or_apply', { body: { type: 1, phone: popular }, token: roots[i + 1] }),
      { code: 'team.phone_invited_too_often', most: 86_400 },
    );
    const token = await account();
    const application = { name: '编辑部', contact_name: '张三', phone: freshPhone() };
    await walk(10, () => send('POST', '/enterprise/v1/team-application', { body: application, token }), {
      most: 3600,
    });
    const guesser = await account();
    const guess = { invitation_code: 'NOPE0000' };
    await walk(20, () => send('POST', '/enterprise/user/v1/apply_join_enterprise', { body: guess, token: guesser }), {
      most: 600,
    });
  });

  it('WeChat login starts, AI writing runs and orders', async () => {
    const address = freshAddress();
    await walk(30, () => send('GET', '/user/wechat/login', { address }), { most: 600 });
    const token = await account();
    const run = { function_id: 'no-such-function', content: '写一段话' };
    await walk(20, () => send('POST', '/gpt/v1/chat/completions', { body: run, token }), { most: 60 });
    const product = await t.app.db
      .selectFrom('products')
      .select('id')
      .where('on_sale', '=', 1)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await walk(20, () => send('GET', `/pay/wx/native_prepay?product_id=${product.id}`, { token }), {
      code: 'rate.orders',
      most: 600,
    });
  });

  it('the LanguageTool-compatible API answers its plain-text 429 with the header too', async () => {
    const token = await account();
    const form = { text: '我们明天讨论这个问提。', language: 'zh-CN' };
    const anonymous = freshAddress();
    const refused = await walk(4, () => send('POST', '/v2/check', { form, address: anonymous }), { most: 60 });
    expect(refused.body).toMatch(/^Error: /);
    await walk(5, () => send('POST', '/v2/check', { form, token }), { most: 60 });
    const lister = freshAddress();
    await walk(4, () => send('GET', '/v2/words', { address: lister }), { most: 60 });
    await walk(5, () => send('GET', '/v2/words', { token }), { most: 60 });
  });
});

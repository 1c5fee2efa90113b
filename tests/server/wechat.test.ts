// WeChat login and binding on the real server against a local fake of WeChat's API (the code exchange; WeChat is
// an outside service): login by a bound WeChat lands with a one-time code the page exchanges for the session (never
// a token in the address), an unbound one on the login page with a message; binding and unbinding end on /user with
// the spec's status 0-5; tickets, states and login codes are single-use.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, CLIENT_HEADERS, register, startTestApp, type TestApp } from './helpers';

let t: TestApp;
let fake: Server;
const exchanged: Array<Record<string, string>> = [];
let alice: string;
let bob: string;

beforeAll(async () => {
  // the fake WeChat API: code-<name> is the WeChat user <name>; anything else is refused as WeChat does
  fake = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const query = Object.fromEntries(url.searchParams);
    exchanged.push(query);
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/sns/oauth2/access_token' && /^code-\w+$/.test(query.code ?? ''))
      res.end(JSON.stringify({ access_token: 'at', openid: `openid-${query.code.slice(5)}`, unionid: 'u1' }));
    else res.end(JSON.stringify({ errcode: 40029, errmsg: 'invalid code' }));
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  process.env.WECHAT_APPID = 'wx-test-app';
  process.env.WECHAT_SECRET = 'wx-test-secret';
  process.env.WECHAT_API_URL = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  process.env.WECHAT_OPEN_URL = 'https://open.weixin.test';
  process.env.PUBLIC_URL = 'https://proof.example';
  t = await startTestApp();
  alice = await register(t, '13511110001');
  bob = await register(t, '13511110002');
}, 60_000);
afterAll(async () => {
  for (const k of ['WECHAT_APPID', 'WECHAT_SECRET', 'WECHAT_API_URL', 'WECHAT_OPEN_URL', 'PUBLIC_URL'])
    delete process.env[k];
  await t.close();
  await new Promise((r) => fake.close(r));
});

/** Each WeChat call from its own address: they allow 30 per address per 10 minutes. */
let addresses = 0;
const nextAddress = () => `10.8.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;

/** A navigation: the 302's Location. */
async function go(url: string): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url, headers: { endpoint: '1' }, remoteAddress: nextAddress() });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(302);
  return String(res.headers.location);
}

/** Through WeChat's page: the state WeChat would come back with. */
function stateOf(location: string): string {
  const url = new URL(location);
  expect(url.origin + url.pathname).toBe('https://open.weixin.test/connect/qrconnect');
  expect(url.searchParams.get('appid')).toBe('wx-test-app');
  expect(url.searchParams.get('scope')).toBe('snsapi_login');
  expect(url.searchParams.get('redirect_uri')).toBe('https://proof.example/user/wechat/callback');
  return url.searchParams.get('state')!;
}

async function viaWechat(start: string, code: string): Promise<string> {
  const state = stateOf(await go(start));
  return go(`/user/wechat/callback?code=${code}&state=${state}`);
}

/** What the page does with the code it landed with: POST it for the session token. */
const exchange = (code: string) => call(t.app, 'POST', '/user/wechat/exchange', { code }, undefined, nextAddress());

async function ticket(token: string, purpose: 'bind' | 'unbind'): Promise<string> {
  const res = await call(t.app, 'POST', '/user/wechat/ticket', { purpose }, token);
  expect(res.status).toBe(200);
  return res.json.result.ticket;
}

describe('WeChat login and binding', () => {
  it('the runtime config points at this server; without WeChat configured the calls answer 503', async () => {
    const config = (await t.app.inject({ method: 'GET', url: '/workbench/config.json' })).json();
    expect(config).toMatchObject({
      wxURL: '/user/wechat/login',
      bindWechat: '/user/wechat/bind',
      resetWechat: '/user/wechat/unbind',
    });
    t.app.config.wechat.secret = undefined;
    try {
      const res = await t.app.inject({ method: 'GET', url: '/user/wechat/login', headers: CLIENT_HEADERS });
      expect([res.statusCode, res.json().msg_code]).toEqual([503, 'wechat.not_configured']);
    } finally {
      t.app.config.wechat.secret = 'wx-test-secret';
    }
  });

  it('an unbound WeChat cannot log in; bound, it lands with a code for the session; all single-use', async () => {
    const unbound = await viaWechat('/user/wechat/login', 'code-alice');
    expect(unbound).toMatch(/^https:\/\/proof\.example\/workbench\/login\?msg=/);
    expect(decodeURIComponent(unbound)).toContain('该微信尚未绑定账号');
    // the secret went to WeChat with the code, never to the browser
    expect(exchanged.at(-1)).toMatchObject({ appid: 'wx-test-app', secret: 'wx-test-secret', code: 'code-alice' });

    const bindTicket = await ticket(alice, 'bind');
    expect(await viaWechat(`/user/wechat/bind?ticket=${bindTicket}`, 'code-alice')).toBe(
      'https://proof.example/workbench/user?status=1',
    );
    expect(await go(`/user/wechat/bind?ticket=${bindTicket}`)).toBe('https://proof.example/workbench/user?status=0');

    const landed = new URL(await viaWechat('/user/wechat/login', 'code-alice'));
    expect(landed.origin + landed.pathname).toBe('https://proof.example/workbench/');
    // no token in the address: only the one-time code, which is no bearer token itself
    expect([...landed.searchParams.keys()]).toEqual(['wechat_code']);
    const code = landed.searchParams.get('wechat_code')!;
    expect((await call(t.app, 'GET', '/user/user_info', undefined, code)).status).toBe(401);
    const session = await exchange(code);
    expect(session.status).toBe(200);
    const token = session.json.result.token;
    const me = await call(t.app, 'GET', '/user/user_info', undefined, token);
    expect(me.json.result.phone).toBe('13511110001');
    // a code works once; an unknown one, a ticket or a state is no code
    const again = await exchange(code);
    expect([again.status, again.json.msg_code]).toEqual([400, 'wechat.code_invalid']);
    expect(again.json.msg).toBe('微信登录已失效，请重新扫码登录');
    for (const forged of ['made-up', await ticket(alice, 'bind'), stateOf(await go('/user/wechat/login'))])
      expect((await exchange(forged)).json.msg_code).toBe('wechat.code_invalid');

    // a state is used once; a code WeChat refuses fails
    const state = stateOf(await go('/user/wechat/login'));
    await go(`/user/wechat/callback?code=code-alice&state=${state}`);
    expect(decodeURIComponent(await go(`/user/wechat/callback?code=code-alice&state=${state}`))).toContain(
      '微信登录失败',
    );
    expect(decodeURIComponent(await viaWechat('/user/wechat/login', 'forged'))).toContain('微信登录失败');
  });

  it('a login code lasts a minute', async () => {
    const code = new URL(await viaWechat('/user/wechat/login', 'code-alice')).searchParams.get('wechat_code')!;
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    try {
      const late = await exchange(code);
      expect([late.status, late.json.msg_code]).toEqual([400, 'wechat.code_invalid']);
    } finally {
      vi.useRealTimers();
    }
    const fresh = new URL(await viaWechat('/user/wechat/login', 'code-alice')).searchParams.get('wechat_code')!;
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 50_000 });
    try {
      expect((await exchange(fresh)).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('codes cannot be guessed: the exchange counts with the WeChat navigations of an address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++)
      statuses.push(
        (await call(t.app, 'POST', '/user/wechat/exchange', { code: `guess-${i}` }, undefined, '10.7.0.1')).status,
      );
    expect(statuses).toEqual([...Array<number>(30).fill(400), 429]);
  });

  it('binding and unbinding answer the spec statuses', async () => {
    const status = async (token: string, purpose: 'bind' | 'unbind', code: string) =>
      new URL(await viaWechat(`/user/wechat/${purpose}?ticket=${await ticket(token, purpose)}`, code)).searchParams.get(
        'status',
      );
    expect(await status(alice, 'bind', 'code-carol')).toBe('4'); // already bound
    expect(await status(bob, 'bind', 'code-alice')).toBe('5'); // this WeChat is alice's
    expect(await status(bob, 'unbind', 'code-bob')).toBe('2'); // bob has none
    expect(await status(alice, 'unbind', 'code-bob')).toBe('3'); // another WeChat than the bound one
    expect(await status(alice, 'unbind', 'code-alice')).toBe('1');
    expect(await status(bob, 'bind', 'code-alice')).toBe('1'); // free again
    expect(await status(alice, 'bind', 'forged')).toBe('0');
    // no ticket, someone else's kind of ticket: back with 0
    expect(await go('/user/wechat/unbind')).toBe('https://proof.example/workbench/user?status=0');
    expect(await go(`/user/wechat/unbind?ticket=${await ticket(alice, 'bind')}`)).toBe(
      'https://proof.example/workbench/user?status=0',
    );
    const anonymous = await call(t.app, 'POST', '/user/wechat/ticket', { purpose: 'bind' });
    expect(anonymous.status).toBe(401);
  });
});

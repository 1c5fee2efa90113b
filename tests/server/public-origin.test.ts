// No address the server sends a browser to comes from the request: a forged Host or X-Forwarded-Host, with and
// without TRUST_PROXY, never reaches a Location header of any route that redirects (WeChat login, bind, unbind and
// callback; the SPA's `/` and `/workbench`). Without PUBLIC_URL, WeChat is off: 503 and no WeChat in the runtime
// config. WeChat's API is a local fake (tests/fixtures/fake-wechat.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, publicOrigin } from '../../server/config';
import { invitationLink } from '../../server/domain/teams/members';
import { startFakeWechat } from '../fixtures/fake-wechat';
import { call, CLIENT_HEADERS, register, startTestApp, type TestApp } from './helpers';

const PUBLIC_URL = 'https://proof.example';
const FORGED = 'evil.example';
const FORGERIES: Array<Record<string, string>> = [
  { host: FORGED },
  { 'x-forwarded-host': FORGED, 'x-forwarded-proto': 'https' },
  { host: FORGED, 'x-forwarded-host': FORGED, 'x-forwarded-proto': 'https' },
];
const ENV = ['WECHAT_APPID', 'WECHAT_SECRET', 'WECHAT_API_URL', 'WECHAT_OPEN_URL', 'PUBLIC_URL'] as const;

let wechat: Awaited<ReturnType<typeof startFakeWechat>>;
beforeAll(async () => {
  wechat = await startFakeWechat('forged');
  Object.assign(process.env, {
    WECHAT_APPID: 'wx-origin',
    WECHAT_SECRET: 'wx-origin-secret',
    WECHAT_API_URL: wechat.url,
    WECHAT_OPEN_URL: 'https://open.weixin.test',
    PUBLIC_URL,
  });
});
afterAll(async () => {
  for (const name of ENV) delete process.env[name];
  await wechat.close();
});

/** Each navigation from its own address: the WeChat routes allow 30 per address per 10 minutes. */
let addresses = 0;
const nextAddress = () => `10.9.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;

// trusted: the proxies are the test's client addresses, so X-Forwarded-Host would be believed if it were read
describe.each<false | string[]>([false, ['10.0.0.0/8']])('with TRUST_PROXY=%s', (trustProxy) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ config: { trustProxy } });
    token = await register(t, trustProxy ? '13522220002' : '13522220001');
  }, 60_000);
  afterAll(() => t.close());

  const go = (url: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url, headers: { ...CLIENT_HEADERS, ...headers }, remoteAddress: nextAddress() });

  const ticket = async (purpose: 'bind' | 'unbind') =>
    (await call(t.app, 'POST', '/user/wechat/ticket', { purpose }, token)).json.result.ticket as string;

  /** Every route that redirects, with the given headers: [url, status, Location]. */
  async function everyRedirect(headers: Record<string, string>) {
    const seen: Array<[string, number, string | undefined]> = [];
    const visit = async (url: string) => {
      const res = await go(url, headers);
      const location = res.headers.location === undefined ? undefined : String(res.headers.location);
      seen.push([url, res.statusCode, location]);
      return location;
    };
    const toWechat = await visit('/user/wechat/login');
    const state = toWechat?.startsWith('https://open.weixin.test/') ? new URL(toWechat).searchParams.get('state') : '';
    await visit(`/user/wechat/callback?code=code-forged&state=${state}`);
    await visit('/user/wechat/callback?code=code-forged&state=unknown');
    await visit(`/user/wechat/bind?ticket=${await ticket('bind').catch(() => '')}`);
    await visit('/user/wechat/bind');
    await visit(`/user/wechat/unbind?ticket=${await ticket('unbind').catch(() => '')}`);
    await visit('/user/wechat/unbind');
    for (const url of ['/', '/workbench', '/?bd_vid=1', '/workbench?bd_vid=1']) await visit(url);
    return seen;
  }

  it.each(FORGERIES)('no Location carries a forged host (%o)', async (headers) => {
    const seen = await everyRedirect(headers);
    for (const [url, status, location] of seen) {
      expect(status, url).toBe(302);
      expect(location, url).toBeDefined();
      expect(location, url).not.toContain(FORGED);
      // absolute addresses are WeChat's or this server's PUBLIC_URL; the SPA's own redirects stay relative
      if (/^[a-z]+:/i.test(location!))
        expect(location!.startsWith(PUBLIC_URL) || location!.startsWith('https://open.weixin.test/'), url).toBe(true);
      else expect(location, url).toMatch(/^\/workbench\//);
    }
    // WeChat is told to come back to PUBLIC_URL
    const [, , toWechat] = seen[0];
    expect(new URL(toWechat!).searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/user/wechat/callback`);
  });

  it.each(FORGERIES)('without PUBLIC_URL, WeChat refuses to start with 503 (%o)', async (headers) => {
    // the app's own setting (WeChat's provider); publicOrigin(), for links, still reads the environment
    delete process.env.PUBLIC_URL;
    t.app.config.publicUrl = undefined;
    try {
      const seen = await everyRedirect(headers);
      for (const [url, status, location] of seen) {
        expect(location ?? '', url).not.toContain(FORGED);
        if (url.startsWith('/user/wechat/')) expect([url, status]).toEqual([url, 503]);
      }
      const res = await go('/user/wechat/login', headers);
      expect(res.json().msg_code).toBe('wechat.not_configured');
      const taken = await call(t.app, 'POST', '/user/wechat/ticket', { purpose: 'bind' }, token);
      expect([taken.status, taken.json.msg_code]).toEqual([503, 'wechat.not_configured']);
    } finally {
      process.env.PUBLIC_URL = PUBLIC_URL;
      t.app.config.publicUrl = PUBLIC_URL;
    }
  });
});

describe('the one public origin', () => {
  it('the runtime config offers WeChat only with PUBLIC_URL', () => {
    const wechatOff = { wxURL: '', bindWechat: '', resetWechat: '' };
    expect(loadConfig({ ...process.env, PUBLIC_URL: '' }).publicConfig).toMatchObject(wechatOff);
    expect(loadConfig(process.env).publicConfig).toMatchObject({
      wxURL: '/user/wechat/login',
      bindWechat: '/user/wechat/bind',
      resetWechat: '/user/wechat/unbind',
    });
  });

  it('links sent outside any request use PUBLIC_URL, else localhost and the port', () => {
    expect(publicOrigin()).toBe(PUBLIC_URL);
    expect(loadConfig().origin).toBe(PUBLIC_URL);
    expect(invitationLink(loadConfig().origin, 'C1')).toBe(`${PUBLIC_URL}/workbench/sms_invite?sms_invitation_code=C1`);
    const local = loadConfig({ ...process.env, PUBLIC_URL: '' }).origin;
    expect(invitationLink(local, 'C1')).toMatch(/^http:\/\/localhost:\d+\/workbench\/sms_invite\?/);
  });
});

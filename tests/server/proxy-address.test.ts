import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_HEADERS, startTestApp, type TestApp } from './helpers';

/**
 * Behind a reverse proxy (TRUST_PROXY=1) the client's address is the one the proxy saw and appended to
 * X-Forwarded-For: what the client itself wrote into that header before it must not change whom the per-address
 * limits count.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    config: { trustProxy: ['loopback'], authRateLimit: { loginPerAddress: 30, smsPerAddress: 5 } },
  });
});
afterAll(async () => t.close());

let phones = 0;
const smsCode = (forwardedFor: string) =>
  t.app.inject({
    method: 'POST',
    url: '/user/sms_code',
    // the proxy's own address; the request came through it
    remoteAddress: '127.0.0.1',
    headers: { ...CLIENT_HEADERS, 'x-forwarded-for': forwardedFor },
    payload: { phone: `1375${String(++phones).padStart(7, '0')}`, purpose: 'register' },
  });

describe('the client address behind a proxy', () => {
  it('is the address the proxy appended, whatever the client put before it', async () => {
    const statuses: number[] = [];
    // a new made-up address in front each time, as an attacker dodging the limit would send
    for (let i = 0; i < 7; i++) statuses.push((await smsCode(`6.6.${i}.6, 203.0.113.7`)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    // another client of the same proxy has a budget of its own
    expect((await smsCode('6.6.6.6, 203.0.113.8')).statusCode).toBe(200);
  });

  it('is the proxy itself for a request that did not come through it with the header', async () => {
    const direct = await t.app.inject({
      method: 'POST',
      url: '/user/sms_code',
      remoteAddress: '198.51.100.9',
      headers: CLIENT_HEADERS,
      payload: { phone: '13759999999', purpose: 'register' },
    });
    expect(direct.statusCode).toBe(200);
  });
});

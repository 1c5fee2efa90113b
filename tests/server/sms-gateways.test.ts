// The SMS gateways (domain/accounts/sms-gateways.ts) against local fakes of Aliyun, Tencent Cloud and a webhook
// receiver.
// Each fake recomputes the signature here, from the providers' documentation rather than from the code under test,
// refuses a wrong one with the provider's own error shape, and checks what was asked (phone, template, sign name,
// code). Then the retry, the time limit, and POST /user/sms_code answering 503 with its rate-limit slots refunded.
import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, type SmsConfig } from '../../server/config';
import { loggerOptions } from '../../server/logging';
import { runAdmin } from '../../server/cli/admin';
import { databaseRateStore, memoryRateStore } from '../../server/domain/accounts/rate-store';
import { consoleSmsProvider, createSmsProvider, type SmsProvider } from '../../server/domain/accounts/sms';
import { SmsDeliveryError } from '../../server/domain/accounts/sms-gateways';
import { call, startTestApp, type TestApp } from './helpers';
import { REDIS_BIN, startRedis } from './redis-server';

const ALIYUN = { id: 'LTAI-test-id', secret: 'aliyun-secret-do-not-log' };
const TENCENT = { id: 'AKID-test-id', secret: 'tencent-secret-do-not-log', appId: '1400000001' };
const WEBHOOK_SECRET = 'webhook-secret-do-not-log';
const TEMPLATES = {
  register: 'SMS_REG',
  reset: 'SMS_RESET',
  phone: 'SMS_PHONE',
  verify_old: 'SMS_OLD',
  invite: 'SMS_INVITE',
};

interface Fake {
  url: string;
  requests: Array<{ headers: IncomingMessage['headers']; body: string }>;
  /** what the next answers are: normal handling, a 5xx, or silence */
  mode: 'ok' | 'fail' | 'silent';
  close(): Promise<void>;
}

const fakes: Fake[] = [];
let app: TestApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function fake(handle: (req: IncomingMessage, body: string) => { status: number; json: unknown }): Promise<Fake> {
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      state.requests.push({ headers: req.headers, body });
      if (state.mode === 'silent') return;
      const answer = state.mode === 'fail' ? { status: 502, json: { message: 'bad gateway' } } : handle(req, body);
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const state: Fake = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: [],
    mode: 'ok',
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  fakes.push(state);
  return state;
}

// ── Aliyun POP, signature version 1.0, as documented: percent-encode (RFC 3986, %20 for space, upper-case hex),
// sort by parameter name, StringToSign = POST&%2F&encode(canonical), HMAC-SHA1 keyed "secret&", base64.
const popEncode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());

function aliyunFake(): Promise<Fake> {
  const nonces = new Set<string>();
  return fake((req, body) => {
    const params = Object.fromEntries(new URLSearchParams(body));
    const { Signature, ...signed } = params;
    const canonical = Object.keys(signed)
      .sort()
      .map((k) => `${popEncode(k)}=${popEncode(signed[k])}`)
      .join('&');
    const toSign = `POST&%2F&${popEncode(canonical)}`;
    const expected = createHmac('sha1', `${ALIYUN.secret}&`).update(toSign).digest('base64');
    if (Signature !== expected || signed.AccessKeyId !== ALIYUN.id)
      return {
        status: 400,
        json: {
          RequestId: 'req-1',
          Code: 'SignatureDoesNotMatch',
          Message: `Specified signature is not matched with our calculation. server string to sign is:${toSign}`,
        },
      };
    const wellFormed =
      req.method === 'POST' &&
      signed.Action === 'SendSms' &&
      signed.Version === '2017-05-25' &&
      signed.SignatureMethod === 'HMAC-SHA1' &&
      signed.SignatureVersion === '1.0' &&
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(signed.Timestamp) &&
      !nonces.has(signed.SignatureNonce);
    nonces.add(signed.SignatureNonce);
    if (!wellFormed) return { status: 400, json: { RequestId: 'req-2', Code: 'MissingParameter', Message: 'bad' } };
    if (signed.PhoneNumbers === '13900000009')
      return { status: 200, json: { RequestId: 'req-3', Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: '触发天级流控' } };
    return { status: 200, json: { RequestId: 'req-4', Code: 'OK', Message: 'OK', BizId: 'biz-1' } };
  });
}

// ── Tencent Cloud API 3.0, TC3-HMAC-SHA256, as documented: CanonicalRequest = method \n uri \n query \n
// canonical headers \n signed headers \n sha256(payload); StringToSign = algorithm \n timestamp \n scope \n
// sha256(CanonicalRequest); key = HMAC(HMAC(HMAC("TC3"+SecretKey, date), "sms"), "tc3_request").
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const hmac256 = (key: string | Buffer, s: string) => createHmac('sha256', key).update(s).digest();

function tencentFake(): Promise<Fake> {
  return fake((req, body) => {
    const auth = String(req.headers.authorization ?? '');
    const m = new RegExp(
      '^TC3-HMAC-SHA256 Credential=([^/]+)/(\\d{4}-\\d\\d-\\d\\d)/sms/tc3_request, ' +
        'SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$',
    ).exec(auth);
    const timestamp = String(req.headers['x-tc-timestamp'] ?? '');
    const error = (code: string, message: string) => ({
      status: 200,
      json: { Response: { Error: { Code: code, Message: message }, RequestId: 'req-t' } },
    });
    if (!m) return error('AuthFailure.InvalidAuthorization', 'Authorization is invalid');
    const [, secretId, date, signedHeaders, signature] = m;
    if (secretId !== TENCENT.id) return error('AuthFailure.SecretIdNotFound', 'The SecretId is not found');
    if (date !== new Date(Number(timestamp) * 1000).toISOString().slice(0, 10))
      return error('AuthFailure.InvalidAuthorization', 'credential date');
    const names = signedHeaders.split(';');
    if (!names.includes('content-type') || !names.includes('host'))
      return error('AuthFailure.InvalidAuthorization', 'headers');
    const canonicalHeaders = names.map((n) => `${n}:${String(req.headers[n]).trim().toLowerCase()}\n`).join('');
    const canonical = `${req.method}\n/\n\n${canonicalHeaders}\n${signedHeaders}\n${sha256(body)}`;
    const toSign = `TC3-HMAC-SHA256\n${timestamp}\n${date}/sms/tc3_request\n${sha256(canonical)}`;
    const key = hmac256(hmac256(hmac256(`TC3${TENCENT.secret}`, date), 'sms'), 'tc3_request');
    if (createHmac('sha256', key).update(toSign).digest('hex') !== signature)
      return error('AuthFailure.SignatureFailure', 'The provided credentials could not be validated.');
    if (req.headers['x-tc-action'] !== 'SendSms' || req.headers['x-tc-version'] !== '2021-01-11')
      return error('InvalidAction', 'action');
    const asked = JSON.parse(body) as { PhoneNumberSet: string[] };
    return {
      status: 200,
      json: {
        Response: {
          SendStatusSet: asked.PhoneNumberSet.map((phone) =>
            phone === '+8613900000009'
              ? { PhoneNumber: phone, Code: 'LimitExceeded.PhoneNumberDailyLimit', Message: 'daily limit' }
              : { SerialNo: 's-1', PhoneNumber: phone, Fee: 1, Code: 'Ok', Message: 'send success', IsoCode: 'CN' },
          ),
          RequestId: 'req-ok',
        },
      },
    };
  });
}

// ── the webhook: X-Signature = "sha256=" + hex HMAC-SHA256(secret, X-Timestamp + "." + body), a recent timestamp
function webhookFake(): Promise<Fake> {
  return fake((req, body) => {
    const timestamp = String(req.headers['x-timestamp'] ?? '');
    const expected = 'sha256=' + createHmac('sha256', WEBHOOK_SECRET).update(`${timestamp}.${body}`).digest('hex');
    const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) < 300;
    if (req.headers['x-signature'] !== expected || !fresh) return { status: 401, json: { error: 'bad signature' } };
    return { status: 200, json: { ok: true } };
  });
}

function settings(provider: SmsConfig['provider'], url: string, overrides: Partial<SmsConfig> = {}): SmsConfig {
  return {
    provider,
    timeoutMs: 2000,
    signName: '校对工作台',
    templates: TEMPLATES,
    aliyun: { accessKeyId: ALIYUN.id, accessKeySecret: ALIYUN.secret, url },
    tencent: { secretId: TENCENT.id, secretKey: TENCENT.secret, appId: TENCENT.appId, region: 'ap-guangzhou', url },
    webhook: { url, secret: WEBHOOK_SECRET },
    ...overrides,
  };
}

const gateway = (config: SmsConfig, warnings: string[] = []) =>
  createSmsProvider(config, '/nonexistent', {
    warn: (fields, message) => warnings.push(JSON.stringify(fields) + message),
  });

describe('Aliyun SMS', () => {
  it('sends a signed SendSms with the phone, sign name, template and code', async () => {
    const f = await aliyunFake();
    await gateway(settings('aliyun', f.url)).sendCode({ phone: '13900000001', code: '123456', purpose: 'reset' });
    expect(f.requests).toHaveLength(1);
    const params = Object.fromEntries(new URLSearchParams(f.requests[0].body));
    expect(params).toMatchObject({
      PhoneNumbers: '13900000001',
      SignName: '校对工作台',
      TemplateCode: 'SMS_RESET',
      AccessKeyId: ALIYUN.id,
    });
    expect(JSON.parse(params.TemplateParam)).toEqual({ code: '123456' });
    // the secret signs; it is never sent
    expect(f.requests[0].body).not.toContain(ALIYUN.secret);
  });

  it('sends invitations with their own template, the team and the link', async () => {
    const f = await aliyunFake();
    const link = 'https://proof.example.com/workbench/sms_invite?sms_invitation_code=abc';
    await gateway(settings('aliyun', f.url)).sendInvitation!({ phone: '13900000002', team: '编辑部', link });
    const params = Object.fromEntries(new URLSearchParams(f.requests[0].body));
    expect(params.TemplateCode).toBe('SMS_INVITE');
    expect(JSON.parse(params.TemplateParam)).toEqual({ team: '编辑部', link });
  });

  it('fails with a wrong secret (SignatureDoesNotMatch) and on a refusal, without logging the code', async () => {
    const f = await aliyunFake();
    const warnings: string[] = [];
    const wrong = settings('aliyun', f.url, {
      aliyun: { accessKeyId: ALIYUN.id, accessKeySecret: 'not-the-secret', url: f.url },
    });
    const sent = gateway(wrong, warnings).sendCode({ phone: '13900000001', code: '654321', purpose: 'register' });
    await expect(sent).rejects.toThrow(SmsDeliveryError);
    await expect(sent).rejects.toThrow(/SignatureDoesNotMatch/);
    // Aliyun quotes its string to sign, code and all: that part is not repeated
    expect(warnings.join('\n')).toMatch(/SignatureDoesNotMatch/);
    expect(warnings.join('\n')).not.toContain('654321');
    const refused = gateway(settings('aliyun', f.url)).sendCode({
      phone: '13900000009',
      code: '111111',
      purpose: 'register',
    });
    await expect(refused).rejects.toThrow(/isv\.BUSINESS_LIMIT_CONTROL/);
  });
});

describe('Tencent Cloud SMS', () => {
  it('sends a TC3-signed SendSms with +86, the app, sign name, template and code', async () => {
    const f = await tencentFake();
    await gateway(settings('tencent', f.url)).sendCode({ phone: '13900000003', code: '246810', purpose: 'register' });
    expect(f.requests).toHaveLength(1);
    expect(JSON.parse(f.requests[0].body)).toEqual({
      PhoneNumberSet: ['+8613900000003'],
      SmsSdkAppId: TENCENT.appId,
      SignName: '校对工作台',
      TemplateId: 'SMS_REG',
      TemplateParamSet: ['246810'],
    });
    expect(f.requests[0].headers['x-tc-region']).toBe('ap-guangzhou');
    expect(JSON.stringify(f.requests[0])).not.toContain(TENCENT.secret);
  });

  it("fails with a wrong secret (Response.Error) and when a number's SendStatus is not Ok", async () => {
    const f = await tencentFake();
    const wrong = settings('tencent', f.url, {
      tencent: { secretId: TENCENT.id, secretKey: 'nope', appId: TENCENT.appId, region: 'ap-guangzhou', url: f.url },
    });
    await expect(gateway(wrong).sendCode({ phone: '13900000003', code: '1', purpose: 'register' })).rejects.toThrow(
      /AuthFailure\.SignatureFailure/,
    );
    await expect(
      gateway(settings('tencent', f.url)).sendCode({ phone: '13900000009', code: '1', purpose: 'register' }),
    ).rejects.toThrow(/LimitExceeded\.PhoneNumberDailyLimit/);
    // the team and the link are the invitation template's two parameters
    await gateway(settings('tencent', f.url)).sendInvitation!({ phone: '13900000004', team: 'T', link: 'L' });
    expect(JSON.parse(f.requests.at(-1)!.body)).toMatchObject({
      TemplateId: 'SMS_INVITE',
      TemplateParamSet: ['T', 'L'],
    });
  });
});

describe('webhook', () => {
  it('POSTs the signed JSON for codes and invitations; a wrong secret is refused', async () => {
    const f = await webhookFake();
    const sms = gateway(settings('webhook', f.url));
    await sms.sendCode({ phone: '13900000005', code: '135790', purpose: 'verify_old' });
    await sms.sendInvitation!({ phone: '13900000005', team: '编辑部', link: 'https://x/y' });
    expect(f.requests.map((r) => JSON.parse(r.body))).toEqual([
      { phone: '13900000005', purpose: 'verify_old', code: '135790' },
      { phone: '13900000005', purpose: 'invite', team: '编辑部', link: 'https://x/y' },
    ]);
    const wrong = gateway(settings('webhook', f.url, { webhook: { url: f.url, secret: 'guess' } }));
    await expect(wrong.sendCode({ phone: '13900000005', code: '1', purpose: 'reset' })).rejects.toThrow(/HTTP 401/);
  });
});

describe('retry and time limit', () => {
  it('retries once after a 5xx or a refused connection, and gives up after the second', async () => {
    const f = await webhookFake();
    f.mode = 'fail';
    const sms = gateway(settings('webhook', f.url));
    await expect(sms.sendCode({ phone: '13900000006', code: '1', purpose: 'reset' })).rejects.toThrow(/HTTP 502/);
    expect(f.requests).toHaveLength(2);
    // a 5xx then a success: sent, in two requests
    let answered = 0;
    const flaky = await fake(() => ({ status: answered++ === 0 ? 503 : 200, json: {} }));
    await gateway(settings('webhook', flaky.url, { webhook: { url: flaky.url, secret: 's' } })).sendCode({
      phone: '13900000006',
      code: '1',
      purpose: 'reset',
    });
    expect(flaky.requests).toHaveLength(2);
    // nobody listening: two connection attempts, then the failure
    const closed = await fake(() => ({ status: 200, json: {} }));
    await closed.close();
    const warnings: string[] = [];
    const refused = gateway(settings('webhook', closed.url), warnings);
    await expect(refused.sendCode({ phone: '13900000006', code: '1', purpose: 'reset' })).rejects.toThrow(
      /connection failed/,
    );
    expect(warnings.filter((w) => w.includes('connection failed'))).toHaveLength(2);
  });

  it('gives up on a silent gateway after SMS_TIMEOUT_MS, without a second try', async () => {
    const f = await aliyunFake();
    f.mode = 'silent';
    const started = Date.now();
    const sms = gateway(settings('aliyun', f.url, { timeoutMs: 300 }));
    await expect(sms.sendCode({ phone: '13900000007', code: '1', purpose: 'reset' })).rejects.toThrow(/300 ms/);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(f.requests).toHaveLength(1);
  });
});

describe('settings', () => {
  it('refuses to start when the chosen gateway lacks a setting, naming it', () => {
    expect(() => loadConfig({ SMS_PROVIDER: 'aliyun', ALIYUN_SMS_ACCESS_KEY_ID: 'x' })).toThrow(
      /SMS_PROVIDER=aliyun needs ALIYUN_SMS_ACCESS_KEY_SECRET, SMS_SIGN_NAME, SMS_TEMPLATE_INVITE, SMS_TEMPLATE_CODE/,
    );
    expect(() => loadConfig({ SMS_PROVIDER: 'tencent' })).toThrow(/TENCENT_SMS_SECRET_ID, TENCENT_SMS_SECRET_KEY/);
    expect(() => loadConfig({ SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: 'http://h/' })).toThrow(
      /SMS_PROVIDER=webhook needs SMS_WEBHOOK_SECRET/,
    );
    const config = loadConfig({
      SMS_PROVIDER: 'tencent',
      TENCENT_SMS_SECRET_ID: 'i',
      TENCENT_SMS_SECRET_KEY: 'k',
      TENCENT_SMS_APP_ID: 'a',
      SMS_SIGN_NAME: 's',
      SMS_TEMPLATE_CODE: '100',
      SMS_TEMPLATE_RESET: '200',
      SMS_TEMPLATE_INVITE: '300',
    });
    expect(config.sms.templates).toEqual({
      register: '100',
      reset: '200',
      phone: '100',
      verify_old: '100',
      invite: '300',
    });
    expect(loadConfig({}).sms.provider).toBe('console');
  });

  it('console says that no SMS was sent, and shows the code only outside production', async () => {
    const lines: string[] = [];
    const dir = `/tmp/sms-console-${process.pid}`;
    await consoleSmsProvider(dir, (l) => lines.push(l), false).sendCode({
      phone: '13900000008',
      code: '864209',
      purpose: 'register',
    });
    await consoleSmsProvider(dir, (l) => lines.push(l), true).sendCode({
      phone: '13900000008',
      code: '975310',
      purpose: 'register',
    });
    expect(lines[0]).toMatch(/no SMS was sent/);
    expect(lines[0]).not.toContain('864209');
    expect(lines[1]).toContain('975310');
  });
});

describe('POST /user/sms_code with a failing gateway', () => {
  it('answers 503 sms.unavailable, stores no code, refunds both rate limits and logs no secret', async () => {
    const f = await aliyunFake();
    f.mode = 'fail';
    let logged = '';
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged += chunk.toString();
        done();
      },
    });
    app = await startTestApp({
      logger: { ...(loggerOptions('trace', { LOG_FORMAT: 'json' }) as object), stream },
      config: { sms: settings('aliyun', f.url), authRateLimit: { loginPerAddress: 30, smsPerAddress: 3 } },
    });
    const phone = '13900000010';
    // more failures than either limit allows (3 per address, 5 per phone): none of them counts
    for (let i = 0; i < 7; i++) {
      const res = await call(app.app, 'POST', '/user/sms_code', { phone, purpose: 'register' });
      expect(res.status, `attempt ${i}`).toBe(503);
      expect(res.json.msg_code).toBe('sms.unavailable');
    }
    expect(f.requests).toHaveLength(14);
    const stored = await app.app.db.selectFrom('sms_codes').selectAll().execute();
    expect(stored).toHaveLength(0);
    // the gateway is back: the address's 3 codes are all there
    f.mode = 'ok';
    for (let i = 0; i < 3; i++)
      expect((await call(app.app, 'POST', '/user/sms_code', { phone, purpose: 'register' })).status).toBe(200);
    expect((await call(app.app, 'POST', '/user/sms_code', { phone, purpose: 'register' })).status).toBe(429);
    expect(await app.app.db.selectFrom('sms_codes').selectAll().execute()).toHaveLength(3);
    // what was sent is in the fake's requests only: the log holds neither the secret nor a code
    const codes = f.requests.map((r) => JSON.parse(new URLSearchParams(r.body).get('TemplateParam')!).code as string);
    expect(logged).toMatch(/SMS gateway: server error/);
    expect(logged).not.toContain(ALIYUN.secret);
    for (const code of codes) expect(logged).not.toMatch(new RegExp(`(^|\\D)${code}(\\D|$)`));
  });
});

describe('team invitations with a failing gateway', () => {
  it('answers 503 or lists the phone as failed, and the invitation can be sent again', async () => {
    const delivered: string[] = [];
    let failing = false;
    let lastCode = '';
    const sms: SmsProvider = {
      name: 'switchable',
      sendCode: async ({ code }) => void (lastCode = code),
      async sendInvitation({ phone }) {
        if (failing) throw new SmsDeliveryError('fake', 'HTTP 502');
        delivered.push(phone);
      },
    };
    app = await startTestApp({ sms });
    const t = app;
    await call(t.app, 'POST', '/user/sms_code', { phone: '13930000001', purpose: 'register' });
    const registered = await call(t.app, 'POST', '/user/register', {
      phone: '13930000001',
      code: lastCode,
      password: 'secret123',
    });
    const boss = registered.json.result.token as string;
    const applied = await call(
      t.app,
      'POST',
      '/enterprise/v1/team-application',
      { name: '晚报', contact_name: '李', phone: '13930000001' },
      boss,
    );
    expect(applied.status).toBe(200);
    await runAdmin(['application', 'approve', String(applied.json.result.id)], t.app.db, () => {});
    failing = true;
    const one = await call(t.app, 'POST', '/enterprise/v1/invite_or_apply', { type: 1, phone: '13930000002' }, boss);
    expect([one.status, one.json.msg_code]).toEqual([503, 'sms.unavailable']);
    const batch = await call(t.app, 'POST', '/enterprise/v1/inviteAndApply', { phones: ['13930000003'] }, boss);
    expect(batch.status).toBe(200);
    expect(batch.json.result).toMatchObject({
      invited: 0,
      failed: [{ phone: '13930000003', reason: 'sms.unavailable' }],
    });
    // the gateway is back: both phones can be invited again (not "already invited")
    failing = false;
    const again = await call(t.app, 'POST', '/enterprise/v1/invite_or_apply', { type: 1, phone: '13930000002' }, boss);
    expect(again.status).toBe(200);
    const batchAgain = await call(t.app, 'POST', '/enterprise/v1/inviteAndApply', { phones: ['13930000003'] }, boss);
    expect(batchAgain.json.result).toMatchObject({ invited: 1, failed: [] });
    expect(delivered).toEqual(['13930000002', '13930000003']);
  });
});

describe('rate-limit stores', () => {
  it('give a counted request back within its window, never below zero', async () => {
    app = await startTestApp();
    const read = (store: {
      read: (k: string, cb: (e: Error | null, r?: { current: number }) => void, w: number) => void;
    }) => new Promise<number>((resolve) => store.read('k', (_e, r) => resolve(r!.current), 60_000));
    const incr = (store: { incr: (k: string, cb: (e: Error | null) => void, w: number) => void }) =>
      new Promise<void>((resolve) => store.incr('k', () => resolve(), 60_000));
    for (const Store of [memoryRateStore(), databaseRateStore(app.app.db)]) {
      const store = new Store();
      await incr(store);
      await incr(store);
      await store.decr('k', 60_000);
      expect(await read(store)).toBe(1);
      await store.decr('k', 60_000);
      await store.decr('k', 60_000);
      expect(await read(store)).toBe(0);
    }
  });
});

describe.skipIf(!REDIS_BIN)('SMS rate limits counted in Redis', () => {
  it('gives the slots of a failed send back there too', async () => {
    const redis = await startRedis();
    try {
      const f = await webhookFake();
      f.mode = 'fail';
      app = await startTestApp({
        config: {
          redisUrl: redis.url,
          sms: settings('webhook', f.url),
          authRateLimit: { loginPerAddress: 30, smsPerAddress: 2 },
        },
      });
      const ask = () => call(app!.app, 'POST', '/user/sms_code', { phone: '13940000001', purpose: 'register' });
      for (let i = 0; i < 4; i++) expect((await ask()).status, `attempt ${i}`).toBe(503);
      f.mode = 'ok';
      expect((await ask()).status).toBe(200);
      expect((await ask()).status).toBe(200);
      expect((await ask()).status).toBe(429);
      // the counters live in Redis, under the keys the refund takes back from
      const client = new Redis(redis.url);
      const keys = await client.keys('workbench-rate-*sms*');
      await client.quit();
      expect(keys.length).toBeGreaterThanOrEqual(2);
    } finally {
      await app?.close();
      app = null;
      await redis.stop();
    }
  });
});

// WeChat Pay API v3 crypto with node:crypto (keys generated here): request signing, signature verification,
// AEAD_AES_256_GCM decryption, and the provider against a fake gateway (fake: the gateway's HTTP side only).
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NotificationError, GatewayError } from '../../server/domain/commerce/pay/provider';
import {
  authorization,
  decryptResource,
  requestMessage,
  rfc3339,
  rsaVerify,
  verifyWechatpaySignature,
  wechatPayConfigFromEnv,
} from '../../server/domain/commerce/pay/wechat';
import { API_V3_KEY, encryptResource, fakeGateway, MCHID, signedHeaders } from './wechatpay-fake';

const gw = fakeGateway();
const dir = mkdtempSync(join(tmpdir(), 'wb-wxpay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('WeChat Pay API v3 signing', () => {
  it(
    'signs METHOD\\nURL\\ntimestamp\\nnonce\\nbody\\n with the merchant key in the ' +
      'WECHATPAY2-SHA256-RSA2048 header',
    () => {
      const body = '{"a":1}';
      const header = authorization(gw.config, 'POST', '/v3/pay/transactions/native', body, '1700000000', 'abc123');
      const m = new RegExp(
        '^WECHATPAY2-SHA256-RSA2048 mchid="(\\d+)",nonce_str="abc123",signature="([^"]+)",' +
          'timestamp="1700000000",serial_no="MERCHANT-SERIAL-1"$',
      ).exec(header);
      expect(m?.[1]).toBe(MCHID);
      const message = requestMessage('POST', '/v3/pay/transactions/native', '1700000000', 'abc123', body);
      expect(message).toBe('POST\n/v3/pay/transactions/native\n1700000000\nabc123\n{"a":1}\n');
      expect(rsaVerify(gw.merchantPublic, message, m![2])).toBe(true);
      // any change to the signed parts breaks it
      expect(rsaVerify(gw.merchantPublic, message.replace('{"a":1}', '{"a":2}'), m![2])).toBe(false);
      expect(rsaVerify(gw.platformPublic, message, m![2])).toBe(false);
    },
  );

  it(
    'verifies Wechatpay-Signature over timestamp\\nnonce\\nbody\\n with the ' +
      'platform key, and refuses stale or forged ones',
    () => {
      const body = '{"hello":"世界"}';
      const h = signedHeaders(gw.platformPrivate, body);
      const headers = {
        timestamp: h['wechatpay-timestamp'],
        nonce: h['wechatpay-nonce'],
        signature: h['wechatpay-signature'],
      };
      expect(() => verifyWechatpaySignature(gw.platformPublic, headers, body)).not.toThrow();
      expect(() => verifyWechatpaySignature(gw.platformPublic, headers, body + ' ')).toThrow(NotificationError);
      expect(() => verifyWechatpaySignature(gw.platformPublic, { ...headers, nonce: 'other' }, body)).toThrow(
        /bad Wechatpay-Signature/,
      );
      expect(() => verifyWechatpaySignature(gw.platformPublic, { ...headers, signature: undefined }, body)).toThrow(
        /missing/,
      );
      const forged = signedHeaders(gw.merchantPrivate, body);
      expect(() =>
        verifyWechatpaySignature(
          gw.platformPublic,
          {
            timestamp: forged['wechatpay-timestamp'],
            nonce: forged['wechatpay-nonce'],
            signature: forged['wechatpay-signature'],
          },
          body,
        ),
      ).toThrow(/bad Wechatpay-Signature/);
      const old = signedHeaders(gw.platformPrivate, body, Math.floor(Date.now() / 1000) - 600);
      expect(() =>
        verifyWechatpaySignature(
          gw.platformPublic,
          {
            timestamp: old['wechatpay-timestamp'],
            nonce: old['wechatpay-nonce'],
            signature: old['wechatpay-signature'],
          },
          body,
        ),
      ).toThrow(/not current/);
    },
  );

  it('decrypts AEAD_AES_256_GCM resources with the API v3 key and refuses tampered ones', () => {
    const plain = JSON.stringify({ out_trade_no: 'WB1', trade_state: 'SUCCESS', note: '支付成功' });
    const resource = encryptResource(API_V3_KEY, plain);
    expect(decryptResource(API_V3_KEY, resource)).toBe(plain);
    expect(() => decryptResource('x'.repeat(32), resource)).toThrow(NotificationError);
    expect(() => decryptResource(API_V3_KEY, { ...resource, associated_data: 'other' })).toThrow(NotificationError);
    const bytes = Buffer.from(resource.ciphertext, 'base64');
    bytes[0] ^= 1;
    expect(() => decryptResource(API_V3_KEY, { ...resource, ciphertext: bytes.toString('base64') })).toThrow(
      NotificationError,
    );
    expect(() => decryptResource(API_V3_KEY, { ...resource, algorithm: 'AES' })).toThrow(/unsupported/);
  });

  it('parses a real-shaped notification end to end, and refuses other merchants', () => {
    gw.orders.set('WB-N1', {
      amount: 2900,
      state: 'SUCCESS',
      transactionId: '4200abc',
      description: 'x',
      notifyUrl: '',
      timeExpire: '',
    });
    const n = gw.notification('WB-N1');
    const state = gw.provider.parseNotification(
      {
        timestamp: n.headers['wechatpay-timestamp'],
        nonce: n.headers['wechatpay-nonce'],
        signature: n.headers['wechatpay-signature'],
      },
      n.body,
    );
    expect(state).toEqual({
      orderNo: 'WB-N1',
      state: 'SUCCESS',
      transactionId: '4200abc',
      amount: 2900,
      paidAt: '2026-11-23T12:01:02.000Z',
    });
    const other = gw.notification('WB-N1', { mchid: '1111111111' });
    expect(() =>
      gw.provider.parseNotification(
        {
          timestamp: other.headers['wechatpay-timestamp'],
          nonce: other.headers['wechatpay-nonce'],
          signature: other.headers['wechatpay-signature'],
        },
        other.body,
      ),
    ).toThrow(/another merchant/);
  });

  it('places orders, queries and closes them through signed requests, and verifies the answers', async () => {
    const expireAt = new Date('2026-11-23T12:00:00Z');
    const { codeUrl } = await gw.provider.nativePrepay({
      orderNo: 'WBTEST0001',
      description: '字数包',
      amount: 1990,
      expireAt,
    });
    expect(codeUrl).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
    expect(gw.orders.get('WBTEST0001')).toMatchObject({
      amount: 1990,
      state: 'NOTPAY',
      timeExpire: '2026-11-23T20:00:00+08:00',
      notifyUrl: gw.config.notifyUrl,
    });
    expect(await gw.provider.queryOrder('WBTEST0001')).toMatchObject({ state: 'NOTPAY', amount: 1990 });
    gw.pay('WBTEST0001');
    expect(await gw.provider.queryOrder('WBTEST0001')).toMatchObject({
      state: 'SUCCESS',
      amount: 1990,
      transactionId: expect.stringMatching(/^4200/),
    });
    await expect(gw.provider.queryOrder('WBNOPE0001')).rejects.toThrow(/404 ORDER_NOT_EXIST/);
    expect(gw.requests.every((r) => r.authorized)).toBe(true);
    expect(rfc3339(expireAt)).toBe('2026-11-23T20:00:00+08:00');
  });

  it('refuses answers not signed by the platform key, and reports an unreachable gateway', async () => {
    const impostor = fakeGateway();
    // our provider (platform key of `gw`) talking to a gateway signing with another platform key
    const { WechatPayProvider } = await import('../../server/domain/commerce/pay/wechat');
    const crossed = new WechatPayProvider({ ...impostor.config, platformKey: gw.platformPublic }, (url, init) =>
      (impostor.provider as any).transport(url, init),
    );
    await expect(
      crossed.nativePrepay({ orderNo: 'WBX0000001', description: 'x', amount: 1, expireAt: new Date() }),
    ).rejects.toThrow(/not authentic/);
    gw.down = true;
    await expect(gw.provider.queryOrder('WBTEST0001')).rejects.toBeInstanceOf(GatewayError);
    gw.down = false;
  });
});

describe('configuration from the environment', () => {
  it('is null without any WXPAY_* variable, complete with all, and refuses a partial one', () => {
    expect(wechatPayConfigFromEnv({})).toBeNull();
    expect(() => wechatPayConfigFromEnv({ WXPAY_MCHID: '1' })).toThrow(
      'missing WXPAY_APPID, WXPAY_SERIAL_NO, WXPAY_PRIVATE_KEY_PATH, WXPAY_API_V3_KEY, WXPAY_NOTIFY_URL, ' +
        'WXPAY_PLATFORM_CERT_PATH or WXPAY_PLATFORM_PUBLIC_KEY_PATH',
    );
    const merchant = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(join(dir, 'apiclient_key.pem'), merchant.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(join(dir, 'pub_key.pem'), gw.platformPublic.export({ type: 'spki', format: 'pem' }));
    const env = {
      WXPAY_MCHID: MCHID,
      WXPAY_APPID: 'wxappid',
      WXPAY_SERIAL_NO: 'SERIAL',
      WXPAY_PRIVATE_KEY_PATH: join(dir, 'apiclient_key.pem'),
      WXPAY_API_V3_KEY: API_V3_KEY,
      WXPAY_PLATFORM_PUBLIC_KEY_PATH: join(dir, 'pub_key.pem'),
      WXPAY_NOTIFY_URL: 'https://example.test/pay/wx/notify',
    };
    const config = wechatPayConfigFromEnv(env)!;
    expect(config).toMatchObject({
      mchid: MCHID,
      appid: 'wxappid',
      serialNo: 'SERIAL',
      notifyUrl: 'https://example.test/pay/wx/notify',
    });
    expect(config.platformKey.asymmetricKeyType).toBe('rsa');
    expect(() => wechatPayConfigFromEnv({ ...env, WXPAY_API_V3_KEY: 'short' })).toThrow(/32 bytes/);
  });

  it.skipIf(!existsSync('/usr/bin/openssl'))('takes the platform key from a platform certificate (X.509)', () => {
    // a self-signed certificate stands in for the platform certificate WeChat Pay issues
    execFileSync(
      '/usr/bin/openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=wechatpay-test',
        '-keyout',
        join(dir, 'platform_key.pem'),
        '-out',
        join(dir, 'platform_cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    writeFileSync(join(dir, 'merchant.pem'), gw.merchantPrivate.export({ type: 'pkcs8', format: 'pem' }));
    const config = wechatPayConfigFromEnv({
      WXPAY_MCHID: MCHID,
      WXPAY_APPID: 'wxappid',
      WXPAY_SERIAL_NO: 'SERIAL',
      WXPAY_PRIVATE_KEY_PATH: join(dir, 'merchant.pem'),
      WXPAY_API_V3_KEY: API_V3_KEY,
      WXPAY_PLATFORM_CERT_PATH: join(dir, 'platform_cert.pem'),
      WXPAY_NOTIFY_URL: 'https://example.test/pay/wx/notify',
    })!;
    const platformPrivate = createPrivateKey(readFileSync(join(dir, 'platform_key.pem'), 'utf8'));
    const h = signedHeaders(platformPrivate, '{}');
    expect(() =>
      verifyWechatpaySignature(
        config.platformKey,
        { timestamp: h['wechatpay-timestamp'], nonce: h['wechatpay-nonce'], signature: h['wechatpay-signature'] },
        '{}',
      ),
    ).not.toThrow();
    const other = signedHeaders(gw.platformPrivate, '{}');
    expect(() =>
      verifyWechatpaySignature(
        config.platformKey,
        {
          timestamp: other['wechatpay-timestamp'],
          nonce: other['wechatpay-nonce'],
          signature: other['wechatpay-signature'],
        },
        '{}',
      ),
    ).toThrow(NotificationError);
  });
});

// A fake WeChat Pay gateway for the tests: the real WechatPayProvider (signing, verification, decryption) talks
// to it through the provider's Transport. Only the gateway's HTTP side is fake; the keys are generated here.
import { createCipheriv, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import {
  requestMessage,
  rsaSign,
  rsaVerify,
  WechatPayProvider,
  type Transport,
  type WechatPayConfig,
} from '../../server/domain/commerce/pay/wechat';

export const MCHID = '1900000109';
export const APPID = 'wxd678efh567hg6787';
export const API_V3_KEY = 'a'.repeat(16) + 'B'.repeat(16);

export interface FakeGateway {
  config: WechatPayConfig;
  provider: WechatPayProvider;
  merchantPublic: KeyObject;
  platformPrivate: KeyObject;
  platformPublic: KeyObject;
  merchantPrivate: KeyObject;
  /** Orders the gateway knows: out_trade_no -> state. */
  orders: Map<
    string,
    {
      amount: number;
      state: string;
      transactionId?: string;
      description: string;
      notifyUrl: string;
      timeExpire: string;
    }
  >;
  requests: Array<{ method: string; path: string; authorized: boolean }>;
  /** The payer scanned and paid. */
  pay(orderNo: string): void;
  /** A signed, encrypted TRANSACTION.SUCCESS notification as WeChat Pay sends it. */
  notification(
    orderNo: string,
    /** `amount: null` leaves the amount out of the transaction */
    overrides?: { amount?: number | null; key?: KeyObject; apiV3Key?: string; timestamp?: number; mchid?: string },
  ): { headers: Record<string, string>; body: string };
  /** Makes the next calls fail like an unreachable gateway. */
  down: boolean;
}

export function encryptResource(apiV3Key: string, plaintext: string, associatedData = 'transaction') {
  const nonce = randomBytes(6).toString('hex'); // 12 characters
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(nonce, 'utf8'));
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return {
    algorithm: 'AEAD_AES_256_GCM',
    ciphertext: data.toString('base64'),
    associated_data: associatedData,
    nonce,
    original_type: 'transaction',
  };
}

export function signedHeaders(key: KeyObject, body: string, timestamp = Math.floor(Date.now() / 1000)) {
  const nonce = randomBytes(16).toString('hex');
  return {
    'wechatpay-timestamp': String(timestamp),
    'wechatpay-nonce': nonce,
    'wechatpay-signature': rsaSign(key, `${timestamp}\n${nonce}\n${body}\n`),
    'wechatpay-serial': 'PLATFORM-SERIAL',
  };
}

function parseAuthorization(header: string) {
  const m = /^WECHATPAY2-SHA256-RSA2048 (.*)$/.exec(header);
  if (!m) return null;
  return Object.fromEntries([...m[1].matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
}

export function fakeGateway(): FakeGateway {
  const rsa = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
  const merchant = rsa();
  const platform = rsa();
  const config: WechatPayConfig = {
    mchid: MCHID,
    appid: APPID,
    serialNo: 'MERCHANT-SERIAL-1',
    privateKey: merchant.privateKey,
    apiV3Key: API_V3_KEY,
    platformKey: platform.publicKey,
    notifyUrl: 'https://example.test/pay/wx/notify',
    baseUrl: 'https://gateway.test',
  };
  const gw: FakeGateway = {
    config,
    provider: undefined as unknown as WechatPayProvider,
    merchantPublic: merchant.publicKey,
    merchantPrivate: merchant.privateKey,
    platformPrivate: platform.privateKey,
    platformPublic: platform.publicKey,
    orders: new Map(),
    requests: [],
    down: false,
    pay(orderNo) {
      const o = gw.orders.get(orderNo);
      if (!o) throw new Error(`gateway: no order ${orderNo}`);
      o.state = 'SUCCESS';
      o.transactionId = `4200${randomBytes(8).toString('hex')}`;
    },
    notification(orderNo, overrides = {}) {
      const o = gw.orders.get(orderNo);
      const transaction = {
        mchid: overrides.mchid ?? MCHID,
        appid: APPID,
        out_trade_no: orderNo,
        transaction_id: o?.transactionId ?? `4200${randomBytes(8).toString('hex')}`,
        trade_type: 'NATIVE',
        trade_state: 'SUCCESS',
        trade_state_desc: '支付成功',
        success_time: '2026-11-23T20:01:02+08:00',
        ...(overrides.amount === null
          ? {}
          : {
              amount: {
                total: overrides.amount ?? o?.amount ?? 0,
                payer_total: overrides.amount ?? o?.amount ?? 0,
                currency: 'CNY',
                payer_currency: 'CNY',
              },
            }),
      };
      const body = JSON.stringify({
        id: randomBytes(8).toString('hex'),
        create_time: '2026-11-23T20:01:03+08:00',
        resource_type: 'encrypt-resource',
        event_type: 'TRANSACTION.SUCCESS',
        summary: '支付成功',
        resource: encryptResource(overrides.apiV3Key ?? API_V3_KEY, JSON.stringify(transaction)),
      });
      return {
        headers: {
          'content-type': 'application/json',
          ...signedHeaders(overrides.key ?? platform.privateKey, body, overrides.timestamp),
        },
        body,
      };
    },
  };
  const answer = (status: number, payload?: object) => {
    const text = payload ? JSON.stringify(payload) : '';
    const headers = new Map<string, string>(text ? Object.entries(signedHeaders(platform.privateKey, text)) : []);
    return { status, headers: { get: (n: string) => headers.get(n.toLowerCase()) ?? null }, text: async () => text };
  };
  const transport: Transport = async (url, init) => {
    if (gw.down) throw new Error('connect ECONNREFUSED');
    const path = url.replace(config.baseUrl!, '');
    const auth = parseAuthorization(init.headers.Authorization ?? '');
    const authorized =
      !!auth &&
      auth.mchid === MCHID &&
      auth.serial_no === config.serialNo &&
      rsaVerify(
        merchant.publicKey,
        requestMessage(init.method, path, auth.timestamp, auth.nonce_str, init.body ?? ''),
        auth.signature,
      );
    gw.requests.push({ method: init.method, path, authorized });
    if (!authorized) return answer(401, { code: 'SIGN_ERROR', message: '签名错误' });
    if (init.method === 'POST' && path === '/v3/pay/transactions/native') {
      const body = JSON.parse(init.body!);
      gw.orders.set(body.out_trade_no, {
        amount: body.amount.total,
        state: 'NOTPAY',
        description: body.description,
        notifyUrl: body.notify_url,
        timeExpire: body.time_expire,
      });
      return answer(200, { code_url: `weixin://wxpay/bizpayurl?pr=${randomBytes(5).toString('hex')}` });
    }
    const query = /^\/v3\/pay\/transactions\/out-trade-no\/([^/?]+)\?mchid=(\d+)$/.exec(path);
    if (init.method === 'GET' && query) {
      const o = gw.orders.get(decodeURIComponent(query[1]));
      if (!o) return answer(404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' });
      return answer(200, {
        appid: APPID,
        mchid: MCHID,
        out_trade_no: decodeURIComponent(query[1]),
        trade_state: o.state,
        ...(o.transactionId ? { transaction_id: o.transactionId, success_time: '2026-11-23T20:01:02+08:00' } : {}),
        amount: { total: o.amount, currency: 'CNY' },
      });
    }
    const close = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)\/close$/.exec(path);
    if (init.method === 'POST' && close) {
      const o = gw.orders.get(decodeURIComponent(close[1]));
      if (o && o.state === 'NOTPAY') o.state = 'CLOSED';
      return answer(204);
    }
    return answer(404, { code: 'NOT_FOUND', message: path });
  };
  gw.provider = new WechatPayProvider(config, transport);
  return gw;
}

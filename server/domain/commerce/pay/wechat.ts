/**
 * WeChat Pay API v3 (Native payment) with node:crypto only:
 *
 * - requests carry `Authorization: WECHATPAY2-SHA256-RSA2048
 * mchid=..,nonce_str=..,signature=..,timestamp=..,serial_no=..`,
 *   the signature being RSA-SHA256 (PKCS#1 v1.5) with the merchant key over `METHOD\nURL\ntimestamp\nnonce\nbody\n`
 *   (URL = path with query);
 * - responses and notifications are verified with the platform key: `Wechatpay-Signature` over
 *   `timestamp\nnonce\nbody\n`, timestamps older than 5 minutes are refused;
 * - notification resources are AEAD_AES_256_GCM encrypted with the API v3 key (nonce and associated data given,
 *   the 16-byte tag at the end of the ciphertext).
 */
import {
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  createSign,
  createVerify,
  randomBytes,
  X509Certificate,
  type KeyObject,
} from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  GatewayError,
  NotificationError,
  type NotificationHeaders,
  type PaymentProvider,
  type PaymentState,
  type PrepayRequest,
} from './provider';

export const WECHATPAY_BASE = 'https://api.mch.weixin.qq.com';
const MAX_SKEW_SECONDS = 300;

export interface WechatPayConfig {
  mchid: string;
  appid: string;
  /** Serial number of the merchant API certificate. */
  serialNo: string;
  privateKey: KeyObject;
  /** 32-character API v3 key. */
  apiV3Key: string;
  /** The platform certificate's or WeChat Pay public key's key (verifies responses and notifications). */
  platformKey: KeyObject;
  notifyUrl: string;
  baseUrl?: string;
}

export type Transport = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<{
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}>;

export const ENV_NAMES = [
  'WXPAY_MCHID',
  'WXPAY_APPID',
  'WXPAY_SERIAL_NO',
  'WXPAY_PRIVATE_KEY_PATH',
  'WXPAY_API_V3_KEY',
  'WXPAY_NOTIFY_URL',
] as const;

/**
 * The configuration from the environment; null when none of the WXPAY_* variables is set (payment not
 * configured). Throws with the missing names when only some are set, so a half-configured server fails at start.
 */
export function wechatPayConfigFromEnv(env: NodeJS.ProcessEnv = process.env): WechatPayConfig | null {
  const platformPath = env.WXPAY_PLATFORM_CERT_PATH || env.WXPAY_PLATFORM_PUBLIC_KEY_PATH;
  const any = ENV_NAMES.some((n) => env[n]) || !!platformPath;
  if (!any) return null;
  const missing: string[] = ENV_NAMES.filter((n) => !env[n]);
  if (!platformPath) missing.push('WXPAY_PLATFORM_CERT_PATH or WXPAY_PLATFORM_PUBLIC_KEY_PATH');
  if (missing.length) throw new Error(`WeChat Pay is partly configured; missing ${missing.join(', ')}`);
  const apiV3Key = env.WXPAY_API_V3_KEY!;
  if (Buffer.byteLength(apiV3Key) !== 32) throw new Error('WXPAY_API_V3_KEY must be 32 bytes');
  const platformPem = readFileSync(platformPath!, 'utf8');
  return {
    mchid: env.WXPAY_MCHID!,
    appid: env.WXPAY_APPID!,
    serialNo: env.WXPAY_SERIAL_NO!,
    privateKey: createPrivateKey(readFileSync(env.WXPAY_PRIVATE_KEY_PATH!, 'utf8')),
    apiV3Key,
    platformKey: platformPem.includes('BEGIN CERTIFICATE')
      ? new X509Certificate(platformPem).publicKey
      : createPublicKey(platformPem),
    notifyUrl: env.WXPAY_NOTIFY_URL!,
    baseUrl: env.WXPAY_BASE_URL || undefined,
  };
}

export function nonceStr(): string {
  return randomBytes(16).toString('hex');
}

/** The signed message of a request: `METHOD\nURL\ntimestamp\nnonce\nbody\n`. */
export function requestMessage(method: string, url: string, timestamp: string, nonce: string, body: string): string {
  return `${method}\n${url}\n${timestamp}\n${nonce}\n${body}\n`;
}

export function rsaSign(key: KeyObject, message: string): string {
  return createSign('RSA-SHA256').update(message).sign(key, 'base64');
}

export function rsaVerify(key: KeyObject, message: string, signature: string): boolean {
  try {
    return createVerify('RSA-SHA256').update(message).verify(key, signature, 'base64');
  } catch {
    return false;
  }
}

/** The Authorization header value of a request. */
export function authorization(
  config: Pick<WechatPayConfig, 'mchid' | 'serialNo' | 'privateKey'>,
  method: string,
  url: string,
  body: string,
  timestamp = String(Math.floor(Date.now() / 1000)),
  nonce = nonceStr(),
): string {
  const signature = rsaSign(config.privateKey, requestMessage(method, url, timestamp, nonce, body));
  return (
    `WECHATPAY2-SHA256-RSA2048 mchid="${config.mchid}",nonce_str="${nonce}",` +
    `signature="${signature}",timestamp="${timestamp}",` +
    `serial_no="${config.serialNo}"`
  );
}

/** Checks `Wechatpay-Signature` over `timestamp\nnonce\nbody\n` and the timestamp's freshness. */
export function verifyWechatpaySignature(
  platformKey: KeyObject,
  headers: NotificationHeaders,
  body: string,
  now = Date.now(),
): void {
  const { timestamp, nonce, signature } = headers;
  if (!timestamp || !nonce || !signature)
    throw new NotificationError('missing Wechatpay-Timestamp, -Nonce or -Signature');
  const ts = Number(timestamp);
  if (!Number.isInteger(ts) || Math.abs(now / 1000 - ts) > MAX_SKEW_SECONDS)
    throw new NotificationError('Wechatpay-Timestamp is not current');
  if (!rsaVerify(platformKey, `${timestamp}\n${nonce}\n${body}\n`, signature))
    throw new NotificationError('bad Wechatpay-Signature');
}

export interface EncryptedResource {
  algorithm: string;
  ciphertext: string;
  associated_data?: string;
  nonce: string;
}

/** AEAD_AES_256_GCM with the API v3 key; the last 16 bytes of the ciphertext are the tag. */
export function decryptResource(apiV3Key: string, resource: EncryptedResource): string {
  if (resource.algorithm !== 'AEAD_AES_256_GCM')
    throw new NotificationError(`unsupported algorithm ${resource.algorithm}`);
  const data = Buffer.from(resource.ciphertext, 'base64');
  if (data.length < 17) throw new NotificationError('ciphertext too short');
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      Buffer.from(apiV3Key, 'utf8'),
      Buffer.from(resource.nonce, 'utf8'),
    );
    decipher.setAuthTag(data.subarray(data.length - 16));
    if (resource.associated_data) decipher.setAAD(Buffer.from(resource.associated_data, 'utf8'));
    return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8');
  } catch {
    throw new NotificationError('resource cannot be decrypted with the API v3 key');
  }
}

interface Transaction {
  mchid?: string;
  appid?: string;
  out_trade_no?: string;
  transaction_id?: string;
  trade_state?: string;
  success_time?: string;
  amount?: { total?: number; payer_total?: number };
}

const defaultTransport: Transport = (url, init) => fetch(url, init);

export class WechatPayProvider implements PaymentProvider {
  readonly name = 'wechat' as const;
  private readonly base: string;

  constructor(
    private readonly config: WechatPayConfig,
    private readonly transport: Transport = defaultTransport,
  ) {
    this.base = (config.baseUrl ?? WECHATPAY_BASE).replace(/\/+$/, '');
  }

  private async request(
    method: 'GET' | 'POST',
    path: string,
    payload?: object,
  ): Promise<{ status: number; body: string }> {
    const body = payload ? JSON.stringify(payload) : '';
    const headers: Record<string, string> = {
      Accept: 'application/json',
      Authorization: authorization(this.config, method, path, body),
      'User-Agent': 'proofreading-workbench',
    };
    if (payload) headers['Content-Type'] = 'application/json';
    let res: Awaited<ReturnType<Transport>>;
    try {
      res = await this.transport(this.base + path, { method, headers, ...(payload ? { body } : {}) });
    } catch (err) {
      throw new GatewayError(`WeChat Pay unreachable: ${err instanceof Error ? err.message : String(err)}`);
    }
    const text = await res.text();
    if (res.status >= 200 && res.status < 300 && text) {
      // Answers are signed by the platform key like notifications.
      try {
        verifyWechatpaySignature(
          this.config.platformKey,
          {
            timestamp: res.headers.get('wechatpay-timestamp') ?? undefined,
            nonce: res.headers.get('wechatpay-nonce') ?? undefined,
            signature: res.headers.get('wechatpay-signature') ?? undefined,
          },
          text,
        );
      } catch (err) {
        throw new GatewayError(`WeChat Pay answer not authentic: ${(err as Error).message}`);
      }
    }
    if (res.status >= 300) {
      let message = text;
      try {
        const parsed = JSON.parse(text) as { code?: string; message?: string };
        message = `${parsed.code ?? res.status} ${parsed.message ?? ''}`.trim();
      } catch {
        /* not JSON */
      }
      throw new GatewayError(`WeChat Pay ${method} ${path}: ${res.status} ${message}`);
    }
    return { status: res.status, body: text };
  }

  async nativePrepay(request: PrepayRequest): Promise<{ codeUrl: string }> {
    const { body } = await this.request('POST', '/v3/pay/transactions/native', {
      appid: this.config.appid,
      mchid: this.config.mchid,
      description: request.description.slice(0, 127),
      out_trade_no: request.orderNo,
      time_expire: rfc3339(request.expireAt),
      notify_url: this.config.notifyUrl,
      amount: { total: request.amount, currency: 'CNY' },
    });
    const parsed = JSON.parse(body) as { code_url?: string };
    if (!parsed.code_url) throw new GatewayError('WeChat Pay answered without code_url');
    return { codeUrl: parsed.code_url };
  }

  async queryOrder(orderNo: string): Promise<PaymentState> {
    const { body } = await this.request(
      'GET',
      `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderNo)}?mchid=${encodeURIComponent(this.config.mchid)}`,
    );
    return this.state(JSON.parse(body) as Transaction, orderNo);
  }

  async closeOrder(orderNo: string): Promise<void> {
    await this.request('POST', `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderNo)}/close`, {
      mchid: this.config.mchid,
    });
  }

  parseNotification(headers: NotificationHeaders, rawBody: string): PaymentState {
    verifyWechatpaySignature(this.config.platformKey, headers, rawBody);
    let event: { event_type?: string; resource?: EncryptedResource };
    try {
      event = JSON.parse(rawBody);
    } catch {
      throw new NotificationError('notification body is not JSON');
    }
    if (!event.resource || typeof event.resource !== 'object')
      throw new NotificationError('notification without resource');
    let transaction: Transaction;
    try {
      transaction = JSON.parse(decryptResource(this.config.apiV3Key, event.resource));
    } catch (err) {
      if (err instanceof NotificationError) throw err;
      throw new NotificationError('decrypted resource is not JSON');
    }
    // signed by the platform, but still only JSON: a value of another type is refused, not written to the database
    if (typeof transaction?.out_trade_no !== 'string' || !transaction.out_trade_no) {
      throw new NotificationError('transaction without out_trade_no');
    }
    return this.state(transaction, transaction.out_trade_no);
  }

  private state(t: Transaction, orderNo: string): PaymentState {
    if ((t.mchid && t.mchid !== this.config.mchid) || (t.appid && t.appid !== this.config.appid)) {
      throw new NotificationError('transaction of another merchant or app');
    }
    const paidAt = typeof t.success_time === 'string' ? new Date(t.success_time) : null;
    return {
      orderNo: typeof t.out_trade_no === 'string' ? t.out_trade_no : orderNo,
      state: typeof t.trade_state === 'string' ? t.trade_state : 'UNKNOWN',
      transactionId: typeof t.transaction_id === 'string' ? t.transaction_id : null,
      amount: typeof t.amount?.total === 'number' ? t.amount.total : null,
      // an unreadable time is no reason to refuse a payment: it is recorded as paid now
      paidAt: paidAt && !Number.isNaN(paidAt.getTime()) ? paidAt.toISOString() : null,
    };
  }
}

/** `2026-11-23T20:00:00+08:00` (WeChat wants an offset, not Z; Beijing time). */
export function rfc3339(date: Date): string {
  const local = new Date(date.getTime() + 8 * 3600_000);
  return `${local.toISOString().slice(0, 19)}+08:00`;
}

export function createPaymentProvider(
  env: NodeJS.ProcessEnv = process.env,
  transport?: Transport,
): PaymentProvider | null {
  const config = wechatPayConfigFromEnv(env);
  return config ? new WechatPayProvider(config, transport) : null;
}

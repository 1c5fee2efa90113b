import { createHash, createHmac, randomUUID } from 'node:crypto';

/**
 * register; reset (the password); phone (to the new phone of PUT /user/phone); verify_old (to the account's
 * current phone, instead of the password for PUT /user/phone).
 */
export type SmsPurpose = 'register' | 'phone' | 'reset' | 'verify_old';

/** Delivers verification codes. Real gateways implement this; `console` is the development default. */
export interface SmsProvider {
  readonly name: string;
  sendCode(message: { phone: string; code: string; purpose: SmsPurpose }): Promise<void>;
  /** A team invitation: the team's name and the join link (the invitation's code is in it). */
  sendInvitation?(message: { phone: string; team: string; link: string }): Promise<void>;
}

/** Why a gateway did not send: the caller answers 503 `sms.unavailable` and gives the rate-limit slot back. */
export class SmsDeliveryError extends Error {
  constructor(
    readonly provider: string,
    message: string,
  ) {
    super(`${provider}: ${message}`);
    this.name = 'SmsDeliveryError';
  }
}

/** Template ids by what is sent: the code purposes and team invitations. */
export type SmsTemplates = Record<SmsPurpose | 'invite', string>;

/** What every gateway needs besides its keys. */
export interface GatewayCommon {
  /** the gateway's address (tests point it at a local fake) */
  url: string;
  /** longest one request may take, in milliseconds */
  timeoutMs: number;
  /** failures are logged here; a line never holds a key, a code or a link */
  warn: (fields: Record<string, unknown>, message: string) => void;
}

export interface AliyunSettings extends GatewayCommon {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  templates: SmsTemplates;
}

export interface TencentSettings extends GatewayCommon {
  secretId: string;
  secretKey: string;
  appId: string;
  region: string;
  signName: string;
  templates: SmsTemplates;
}

export interface WebhookSettings extends GatewayCommon {
  secret: string;
}

/** What a gateway is asked to deliver: a code, or a team invitation with its link. */
type Message = { phone: string; purpose: SmsPurpose; code: string } | { phone: string; team: string; link: string };

/**
 * One HTTP call with a time limit, retried once when the connection failed or the gateway answered 5xx (nothing
 * was sent). A timeout is not retried: the gateway may have sent the SMS, and a second one would cost twice.
 */
export async function callGateway(
  provider: string,
  settings: GatewayCommon,
  request: () => { url: string; init: RequestInit },
): Promise<{ status: number; text: string }> {
  for (let attempt = 1; ; attempt++) {
    const { url, init } = request();
    let response: Response;
    try {
      response = await fetch(url, { ...init, signal: AbortSignal.timeout(settings.timeoutMs) });
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      const reason = timedOut ? `no answer within ${settings.timeoutMs} ms` : `connection failed (${reasonOf(err)})`;
      settings.warn({ provider, attempt }, `SMS gateway: ${reason}`);
      if (timedOut || attempt >= 2) throw new SmsDeliveryError(provider, reason);
      continue;
    }
    let text: string;
    try {
      text = await response.text();
    } catch (err) {
      throw new SmsDeliveryError(provider, `answer not read (${reasonOf(err)})`);
    }
    if (response.status >= 500) {
      settings.warn({ provider, attempt, status: response.status }, 'SMS gateway: server error');
      if (attempt >= 2) throw new SmsDeliveryError(provider, `HTTP ${response.status}`);
      continue;
    }
    return { status: response.status, text };
  }
}

function reasonOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: unknown }).cause;
  return cause instanceof Error ? `${err.message}: ${cause.message}` : err.message;
}

/**
 * A gateway's message as it may be logged: Aliyun's SignatureDoesNotMatch quotes the whole string to sign (the
 * phone, the code), so it is cut there, and any message is cut short.
 */
export function gatewayMessage(message: unknown): string {
  const text = String(message ?? '');
  const cut = text.search(/string to sign/i);
  return (cut >= 0 ? text.slice(0, cut) : text).slice(0, 200).trim();
}

function parseJson(provider: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new SmsDeliveryError(provider, 'the answer is not JSON');
  }
}

// ───────────── Aliyun (RPC style, signature version 1.0) ─────────────

/** Aliyun POP's percent-encoding: RFC 3986 unreserved characters stay, everything else is %XX in upper case. */
export function popEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The signature of an RPC call: HMAC-SHA1 with `secret&` over `METHOD&%2F&encode(sorted, encoded query)`. */
export function aliyunSignature(method: string, params: Record<string, string>, secret: string): string {
  const canonical = Object.keys(params)
    .sort()
    .map((k) => `${popEncode(k)}=${popEncode(params[k])}`)
    .join('&');
  const toSign = `${method}&${popEncode('/')}&${popEncode(canonical)}`;
  return createHmac('sha1', `${secret}&`).update(toSign).digest('base64');
}

/** Aliyun SMS `SendSms` (dysmsapi, 2017-05-25); the template's variables are `code`, or `team` and `link`. */
export function aliyunSms(settings: AliyunSettings): SmsProvider {
  const send = async (message: Message) => {
    const purpose = 'code' in message ? message.purpose : 'invite';
    const variables = 'code' in message ? { code: message.code } : { team: message.team, link: message.link };
    const { status, text } = await callGateway('aliyun', settings, () => {
      // a fresh nonce and time per attempt: Aliyun refuses a nonce it has seen
      const params: Record<string, string> = {
        AccessKeyId: settings.accessKeyId,
        Action: 'SendSms',
        Format: 'JSON',
        PhoneNumbers: message.phone,
        RegionId: 'cn-hangzhou',
        SignName: settings.signName,
        SignatureMethod: 'HMAC-SHA1',
        SignatureNonce: randomUUID(),
        SignatureVersion: '1.0',
        TemplateCode: settings.templates[purpose],
        TemplateParam: JSON.stringify(variables),
        Timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
        Version: '2017-05-25',
      };
      params.Signature = aliyunSignature('POST', params, settings.accessKeySecret);
      const body = Object.entries(params)
        .map(([k, v]) => `${popEncode(k)}=${popEncode(v)}`)
        .join('&');
      return {
        url: `${settings.url.replace(/\/+$/, '')}/`,
        init: { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body },
      };
    });
    const answer = parseJson('aliyun', text) as { Code?: unknown; Message?: unknown; RequestId?: unknown };
    if (answer.Code !== 'OK') {
      const reason = `${String(answer.Code ?? `HTTP ${status}`)}: ${gatewayMessage(answer.Message)}`;
      settings.warn({ provider: 'aliyun', requestId: answer.RequestId, purpose }, `SMS refused: ${reason}`);
      throw new SmsDeliveryError('aliyun', reason);
    }
  };
  return { name: 'aliyun', sendCode: send, sendInvitation: send };
}

// ───────────── Tencent Cloud (API 3.0, TC3-HMAC-SHA256) ─────────────

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();

/** The headers Tencent's signature covers, in its canonical (lower-case, sorted) order. */
export const TENCENT_SIGNED_HEADERS = 'content-type;host;x-tc-action';

/**
 * The TC3-HMAC-SHA256 signature of a POST to `/` with a JSON body: canonical request, string to sign with the
 * credential scope `date/service/tc3_request`, and the key derived from the secret through date, service and
 * `tc3_request`.
 */
export function tencentSignature(input: {
  secretKey: string;
  service: string;
  host: string;
  action: string;
  contentType: string;
  body: string;
  timestamp: number;
}): string {
  const date = new Date(input.timestamp * 1000).toISOString().slice(0, 10);
  const headers = `content-type:${input.contentType}\nhost:${input.host}\nx-tc-action:${input.action.toLowerCase()}\n`;
  const canonical = ['POST', '/', '', headers, TENCENT_SIGNED_HEADERS, sha256Hex(input.body)].join('\n');
  const scope = `${date}/${input.service}/tc3_request`;
  const toSign = ['TC3-HMAC-SHA256', String(input.timestamp), scope, sha256Hex(canonical)].join('\n');
  const signing = hmac(hmac(hmac(`TC3${input.secretKey}`, date), input.service), 'tc3_request');
  return createHmac('sha256', signing).update(toSign).digest('hex');
}

/** Tencent Cloud SMS `SendSms` (2021-01-11); the template's parameters are the code, or the team and the link. */
export function tencentSms(settings: TencentSettings): SmsProvider {
  const send = async (message: Message) => {
    const purpose = 'code' in message ? message.purpose : 'invite';
    const body = JSON.stringify({
      PhoneNumberSet: [`+86${message.phone}`],
      SmsSdkAppId: settings.appId,
      SignName: settings.signName,
      TemplateId: settings.templates[purpose],
      TemplateParamSet: 'code' in message ? [message.code] : [message.team, message.link],
    });
    const url = new URL(settings.url);
    const contentType = 'application/json; charset=utf-8';
    const { status, text } = await callGateway('tencent', settings, () => {
      const timestamp = Math.floor(Date.now() / 1000);
      const signature = tencentSignature({
        secretKey: settings.secretKey,
        service: 'sms',
        host: url.host,
        action: 'SendSms',
        contentType,
        body,
        timestamp,
      });
      const date = new Date(timestamp * 1000).toISOString().slice(0, 10);
      const authorization =
        `TC3-HMAC-SHA256 Credential=${settings.secretId}/${date}/sms/tc3_request, ` +
        `SignedHeaders=${TENCENT_SIGNED_HEADERS}, Signature=${signature}`;
      return {
        url: url.href,
        init: {
          method: 'POST',
          headers: {
            authorization,
            'content-type': contentType,
            'x-tc-action': 'SendSms',
            'x-tc-timestamp': String(timestamp),
            'x-tc-version': '2021-01-11',
            'x-tc-region': settings.region,
          },
          body,
        },
      };
    });
    const answer = parseJson('tencent', text) as {
      Response?: {
        Error?: { Code?: string; Message?: string };
        SendStatusSet?: Array<{ Code?: string; Message?: string }>;
        RequestId?: string;
      };
    };
    const response = answer.Response;
    const requestId = response?.RequestId;
    if (!response) throw new SmsDeliveryError('tencent', `HTTP ${status} without a Response`);
    if (response.Error) {
      const reason = `${response.Error.Code ?? ''}: ${gatewayMessage(response.Error.Message)}`;
      settings.warn({ provider: 'tencent', requestId, purpose }, `SMS refused: ${reason}`);
      throw new SmsDeliveryError('tencent', reason);
    }
    const statuses = response.SendStatusSet ?? [];
    const failed = statuses.find((s) => s.Code !== 'Ok');
    if (!statuses.length || failed) {
      const reason = failed ? `${failed.Code ?? ''}: ${gatewayMessage(failed.Message)}` : 'no SendStatusSet';
      settings.warn({ provider: 'tencent', requestId, purpose }, `SMS refused: ${reason}`);
      throw new SmsDeliveryError('tencent', reason);
    }
  };
  return { name: 'tencent', sendCode: send, sendInvitation: send };
}

// ───────────── a webhook for any other gateway ─────────────

/** The webhook's signature: `sha256=` and the HMAC-SHA256 hex of `${timestamp}.${body}` with the shared secret. */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * POSTs `{phone, purpose, code}` or `{phone, purpose: "invite", team, link}` as JSON with `X-Timestamp` (Unix
 * seconds) and `X-Signature` (webhookSignature); any 2xx answer means sent.
 */
export function webhookSms(settings: WebhookSettings): SmsProvider {
  const send = async (payload: Record<string, string>) => {
    const body = JSON.stringify(payload);
    const { status } = await callGateway('webhook', settings, () => {
      const timestamp = String(Math.floor(Date.now() / 1000));
      return {
        url: settings.url,
        init: {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-timestamp': timestamp,
            'x-signature': webhookSignature(settings.secret, timestamp, body),
          },
          body,
        },
      };
    });
    if (status < 200 || status >= 300) {
      settings.warn({ provider: 'webhook', status, purpose: payload.purpose }, 'SMS webhook refused the message');
      throw new SmsDeliveryError('webhook', `HTTP ${status}`);
    }
  };
  return {
    name: 'webhook',
    sendCode: ({ phone, purpose, code }) => send({ phone, purpose, code }),
    sendInvitation: ({ phone, team, link }) => send({ phone, purpose: 'invite', team, link }),
  };
}

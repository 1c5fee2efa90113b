// Transport fakes for the machine tests: a fetch that behaves like the foundation's user calls and
// a WebSocket class whose "server side" the test drives. The machines and src/api run for real.
import type { WebSocketLike } from '../../src/machines/live';

interface Account {
  uid: number;
  phone: string;
  password: string;
  name: string;
  role: 'free' | 'root';
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const ok = (result: unknown) => json(200, { code: 200, msg: 'ok', result });
const err = (status: number, msg: string) => json(status, { code: status, msg, result: null });

export const ADMIN = { phone: '13800000000', password: 'admin123456' };
export const NEWCOMER = { phone: '13900000001', password: 'newcomer-pass', code: '246810' };
/** An account that exists from the start, besides the admin (another person's login link). */
export const COLLEAGUE = { phone: '13900000002', password: 'colleague-pass', name: '同事' };

/** An in-memory stand-in for the server's user calls; everything else answers 501. */
export function fakeBackend() {
  const accounts = new Map<string, Account>([
    [ADMIN.phone, { uid: 1, phone: ADMIN.phone, password: ADMIN.password, name: '管理员', role: 'root' }],
    [COLLEAGUE.phone, { uid: 2, ...COLLEAGUE, role: 'free' }],
  ]);
  const tokens = new Map<string, string>();
  const smsCodes = new Map<string, string>([[NEWCOMER.phone, NEWCOMER.code]]);
  /** WeChat login codes (one-time) -> phone */
  const wechatCodes = new Map<string, string>();
  let issued = 0;
  let networkDown = false;
  const calls: string[] = [];

  const issue = (phone: string) => {
    const token = `tok-${++issued}-${phone}`;
    tokens.set(token, phone);
    return token;
  };

  const bearer = (request: Request) => {
    const header = request.headers.get('authorization') ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    return tokens.has(token) ? token : null;
  };

  async function fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    calls.push(`${request.method} ${url.pathname}`);
    if (networkDown) throw new TypeError('fetch failed');
    const body = request.method === 'GET' ? {} : ((await request.json().catch(() => ({}))) as Record<string, string>);
    switch (`${request.method} ${url.pathname}`) {
      case 'POST /user/login': {
        const account = accounts.get(body.phone);
        if (!account || account.password !== body.password) return err(401, '手机号或密码错误');
        return ok({ token: issue(account.phone) });
      }
      case 'POST /user/register': {
        if (accounts.has(body.phone)) return err(409, '该手机号已注册');
        if (smsCodes.get(body.phone) !== body.code) return err(400, '验证码错误');
        accounts.set(body.phone, {
          uid: accounts.size + 1,
          phone: body.phone,
          password: body.password,
          name: body.name ?? '',
          role: 'free',
        });
        smsCodes.delete(body.phone);
        return ok({ token: issue(body.phone) });
      }
      case 'GET /user/user_info': {
        const token = bearer(request);
        if (!token) return err(401, '未登录');
        const a = accounts.get(tokens.get(token)!)!;
        return ok({
          uid: a.uid,
          phone: a.phone,
          name: a.name,
          role: a.role,
          user_identity: 0,
          enterprise_id: null,
          login_id: null,
        });
      }
      case 'POST /user/wechat/exchange': {
        const phone = wechatCodes.get(body.code);
        if (!phone)
          return json(400, { code: 400, msg: '微信登录已失效，请重新扫码登录', msg_code: 'wechat.code_invalid' });
        wechatCodes.delete(body.code);
        return ok({ token: issue(phone) });
      }
      case 'POST /user/logout': {
        const token = bearer(request);
        if (!token) return err(401, '未登录');
        tokens.delete(token);
        return ok(null);
      }
      default:
        return err(501, '该功能尚未开放');
    }
  }

  return {
    fetch,
    calls,
    /** A token the server hands out on its own (a login link's ?token=). */
    issueToken: (phone: string) => issue(phone),
    /** The one-time code a WeChat login lands with (?wechat_code=), exchanged once for a token. */
    issueWechatCode: (phone: string) => {
      const code = `wx-${++issued}`;
      wechatCodes.set(code, phone);
      return code;
    },
    isValid: (token: string | null) => token !== null && tokens.has(token),
    /** The phone of the account a valid token belongs to. */
    phoneOf: (token: string | null) => (token === null ? undefined : tokens.get(token)),
    activeTokens: () => tokens.size,
    revokeAll: () => tokens.clear(),
    setNetworkDown: (down: boolean) => {
      networkDown = down;
    },
  };
}

export type FakeBackend = ReturnType<typeof fakeBackend>;

export interface FakeSocket extends WebSocketLike {
  readonly url: string;
  readonly sent: unknown[];
  readonly closedByClient: boolean;
  /** server side: accept the connection */
  accept(): void;
  /** server side: send a frame */
  deliver(frame: unknown): void;
  /** server side (or network): close the connection */
  drop(code?: number, reason?: string): void;
}

/**
 * A WebSocket class recording every instance. With `autoServer`, a connection with a valid token
 * is accepted on the next microtask and receives its session id; an invalid one is closed with 4401.
 */
export function fakeWebSocketClass(autoServer?: { isValid: (token: string | null) => boolean }) {
  const instances: FakeSocket[] = [];
  let sessions = 0;
  class FakeWebSocket implements FakeSocket {
    readyState = 0;
    onopen: WebSocketLike['onopen'] = null;
    onmessage: WebSocketLike['onmessage'] = null;
    onclose: WebSocketLike['onclose'] = null;
    onerror: WebSocketLike['onerror'] = null;
    readonly sent: unknown[] = [];
    closedByClient = false;
    constructor(readonly url: string) {
      instances.push(this);
      if (autoServer) {
        queueMicrotask(() => {
          if (this.readyState !== 0) return;
          const params = new URL(url).searchParams;
          if (!autoServer.isValid(params.get('token'))) return this.drop(4401, 'unauthorized: 登录已失效，请重新登录');
          this.accept();
          this.deliver({
            type: 3,
            cmd: 1,
            status: 200,
            data: { session_id: params.get('session_id') ?? `s-${++sessions}` },
          });
        });
      }
    }
    send(data: string) {
      if (this.readyState !== 1) throw new Error('send on a socket that is not open');
      this.sent.push(JSON.parse(data));
    }
    close() {
      if (this.readyState === 3) return;
      this.closedByClient = true;
      this.readyState = 3;
    }
    accept() {
      this.readyState = 1;
      this.onopen?.({});
    }
    deliver(frame: unknown) {
      if (this.readyState !== 1) throw new Error('deliver on a socket that is not open');
      this.onmessage?.({ data: JSON.stringify(frame) });
    }
    drop(code = 1006, reason = '') {
      if (this.readyState === 3) return;
      this.readyState = 3;
      this.onclose?.({ code, reason });
    }
  }
  return { WebSocket: FakeWebSocket, instances, open: () => instances.filter((s) => s.readyState === 1) };
}

import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  configureApi,
  createApiClient,
  onQuotaExhausted,
  onUnauthorized,
  resetUnauthorizedThrottle,
  setApiLanguage,
  unwrap,
  type QuotaExhausted,
} from '../../src/api/client';
import { setAppUuid, setToken, setTrackingParam } from '../../src/api/storage';
import { login } from '../../src/api/user';
import { collectNotices, fakeFetch, freshStores, type FakeRoute } from './helpers';

// Paths beyond the foundation are not in the contract yet; the middleware does not care.
type Call = (path: string, init?: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
type AnyClient = Record<'GET' | 'POST' | 'PUT' | 'DELETE', Call>;

const { notices, unsubscribe } = collectNotices();
afterAll(unsubscribe);

let stores: ReturnType<typeof freshStores>;
beforeEach(() => {
  stores = freshStores();
  notices.length = 0;
  resetUnauthorizedThrottle();
});
afterEach(() => {
  vi.useRealTimers();
});

/** The ApiError a call must fail with. */
function failure(pending: Promise<unknown>): Promise<ApiError> {
  return pending.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: ApiError) => error,
  );
}

function clientWith(routes: Record<string, FakeRoute> = {}, fallback?: FakeRoute) {
  const fake = fakeFetch(routes, fallback);
  const api = createApiClient({ baseURL: 'http://api.test', fetch: fake.fetch }) as unknown as AnyClient;
  return { api, requests: fake.requests };
}

describe('middleware: headers', () => {
  it('sends the interface language as Accept-Language', async () => {
    const { api, requests } = clientWith();
    for (const [locale, tag] of [
      ['en', 'en'],
      ['hk', 'zh-HK'],
      ['cn', 'zh-CN'],
    ] as const) {
      setApiLanguage(locale);
      await unwrap(api.GET('/user/right_product/get_list'));
      expect(requests.at(-1)!.headers.get('accept-language')).toBe(tag);
    }
  });

  it('sends the bearer token, the device id and the platform code', async () => {
    setToken('tok-123');
    const { api, requests } = clientWith();
    await unwrap(api.GET('/user/user_info'));
    const headers = requests[0].headers;
    expect(headers.get('authorization')).toBe('Bearer tok-123');
    expect(headers.get('endpoint')).toBe('1');
    const cid = headers.get('cid');
    expect(cid).toMatch(/^[0-9a-f]{32}$/);
    // the device id is generated once and kept
    await unwrap(api.GET('/user/user_info'));
    expect(requests[1].headers.get('cid')).toBe(cid);
    expect(stores.local.getItem('cid')).toBe(cid);
  });

  it('sends no Authorization header without a stored token', async () => {
    const { api, requests } = clientWith();
    await unwrap(api.POST('/user/login', { body: { phone: '13800000000', password: 'x' } }));
    expect(requests[0].headers.has('authorization')).toBe(false);
    expect(requests[0].headers.get('endpoint')).toBe('1');
  });

  it('leaves the device id off guide show and access only', async () => {
    setToken('t');
    const { api, requests } = clientWith();
    await unwrap(api.GET('/wizard/v1/show'));
    await unwrap(api.GET('/wizard/v1/access', { params: { query: { type: 1, ver: '001.001.004' } } }));
    await unwrap(api.GET('/misscut/v1/check_function/get'));
    expect(requests[0].headers.has('cid')).toBe(false);
    expect(requests[1].headers.has('cid')).toBe(false);
    expect(requests[1].headers.get('authorization')).toBe('Bearer t');
    expect(requests[2].headers.has('cid')).toBe(true);
  });
});

describe('middleware: tracking parameters', () => {
  it('appends bd_vid, qhclickid (local) and up_id (session) when present', async () => {
    setTrackingParam('bd_vid', 'B1');
    setTrackingParam('qhclickid', 'Q2');
    setTrackingParam('up_id', 'U3');
    expect(stores.session.getItem('up_id')).toBe('U3');
    expect(stores.local.getItem('up_id')).toBeNull();
    const { api, requests } = clientWith();
    await unwrap(api.GET('/user/v1/get_user_right', { params: { query: { user_right_type: 1 } } }));
    const url = new URL(requests[0].url);
    expect(url.pathname).toBe('/user/v1/get_user_right');
    expect(url.searchParams.get('user_right_type')).toBe('1');
    expect(url.searchParams.get('bd_vid')).toBe('B1');
    expect(url.searchParams.get('qhclickid')).toBe('Q2');
    expect(url.searchParams.get('up_id')).toBe('U3');
  });

  it('adds nothing when none is remembered and never duplicates an explicit one', async () => {
    const { api, requests } = clientWith();
    await unwrap(api.GET('/user/user_info'));
    expect(new URL(requests[0].url).search).toBe('');
    setTrackingParam('bd_vid', 'stored');
    await unwrap(api.GET('/misscut/v1/click', { params: { query: { click_type: 1, bd_vid: 'explicit' } } }));
    expect(new URL(requests[1].url).searchParams.getAll('bd_vid')).toEqual(['explicit']);
  });

  it('keeps the method, headers and JSON body when the URL is rewritten', async () => {
    setTrackingParam('qhclickid', 'Q');
    setToken('tok');
    const { api, requests } = clientWith();
    await unwrap(api.POST('/user/leave_message', { body: { content: '你好' } }));
    const request = requests[0];
    expect(request.method).toBe('POST');
    expect(new URL(request.url).searchParams.get('qhclickid')).toBe('Q');
    expect(request.headers.get('authorization')).toBe('Bearer tok');
    expect(request.headers.get('content-type')).toContain('application/json');
    expect(await request.json()).toEqual({ content: '你好' });
  });
});

describe('unwrap: success', () => {
  it('returns the envelope result', async () => {
    const { api } = clientWith({
      'GET /user/user_info': { body: { code: 200, msg: 'ok', result: { uid: 7, role: 'root' } } },
    });
    await expect(unwrap(api.GET('/user/user_info'))).resolves.toEqual({ uid: 7, role: 'root' });
    expect(notices).toEqual([]);
  });
});

describe('unwrap: the error catalogue (spec §8)', () => {
  const rows: Array<[string, FakeRoute, string]> = [
    ['status 0 (network down)', { networkDown: true }, '网络连接失败'],
    ['404', { status: 404, body: { code: 404, msg: '', result: null } }, '网络连接失败'],
    ['400', { status: 400, body: { code: 400, result: null } }, '请求失败'],
    ['405', { status: 405, body: 'x' }, '请求方式不被允许'],
    ['413', { status: 413, body: { code: 413, msg: null, result: null } }, '文档上传失败'],
    ['500', { status: 500, body: { code: 500, result: null } }, '系统异常'],
    ['unknown (418)', { status: 418 }, '系统异常'],
    ['unknown (502, not JSON)', { status: 502, body: '<html>bad gateway</html>' }, '系统异常'],
  ];
  for (const [name, route, message] of rows) {
    it(`${name} -> ${message}`, async () => {
      const { api } = clientWith({ 'GET /user/user_info': route });
      const error = await failure(unwrap(api.GET('/user/user_info')));
      expect(error).toBeInstanceOf(ApiError);
      expect(error.message).toBe(message);
      expect(error.status).toBe(route.networkDown ? 0 : route.status);
      expect(notices).toEqual([{ status: 'error', title: message }]);
    });
  }

  it('406 throws with an empty message and shows nothing, even with a server msg', async () => {
    const { api } = clientWith({
      'GET /user/user_info': { status: 406, body: { code: 406, msg: 'nope', result: null } },
    });
    const error = await failure(unwrap(api.GET('/user/user_info')));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('');
    expect(notices).toEqual([]);
  });

  it('410 passes silently', async () => {
    const { api } = clientWith({
      'GET /user/user_info': { status: 410, body: { code: 410, msg: 'gone', result: null } },
    });
    const error = await failure(unwrap(api.GET('/user/user_info')));
    expect(error.status).toBe(410);
    expect(notices).toEqual([]);
  });

  it("prefers the server's msg when present", async () => {
    const { api } = clientWith({
      'POST /user/login': { status: 400, body: { code: 400, msg: '手机号或密码错误', result: null } },
      'GET /user/user_info': { status: 500, body: { code: 500, msg: '数据库不可用', result: null } },
      'GET /user/portrait': { status: 501, body: { code: 501, msg: '该功能尚未开放', result: null } },
    });
    await expect(unwrap(api.POST('/user/login', { body: {} }))).rejects.toThrow('手机号或密码错误');
    await expect(unwrap(api.GET('/user/user_info'))).rejects.toThrow('数据库不可用');
    await expect(unwrap(api.GET('/user/portrait'))).rejects.toMatchObject({ status: 501, code: 501 });
    expect(notices.map((n) => n.title)).toEqual(['手机号或密码错误', '数据库不可用', '该功能尚未开放']);
  });

  it('treats a body code other than 200 inside HTTP 200 as an error with the server msg', async () => {
    const { api } = clientWith({
      'POST /enterprise/v1/quit_enterprise': { status: 200, body: { code: 4001, msg: '您不是团队成员', result: null } },
      'POST /enterprise/v1/updateAuth': { status: 200, body: { code: 400, result: null } },
    });
    const error = await failure(unwrap(api.POST('/enterprise/v1/quit_enterprise')));
    expect(error).toMatchObject({ status: 200, code: 4001, message: '您不是团队成员' });
    await expect(unwrap(api.POST('/enterprise/v1/updateAuth'))).rejects.toThrow('请求失败');
    expect(notices.map((n) => n.title)).toEqual(['您不是团队成员', '请求失败']);
  });

  it('never shows errors of the silent calls, but still throws', async () => {
    const { api } = clientWith({}, { status: 500, body: { code: 500, msg: 'boom', result: null } });
    await expect(unwrap(api.GET('/enterprise/v1/share_dic_in_use'))).rejects.toBeInstanceOf(ApiError);
    await expect(unwrap(api.GET('/misscut/v1/click', { params: { query: { click_type: 1 } } }))).rejects.toBeInstanceOf(
      ApiError,
    );
    await expect(unwrap(api.POST('/proofread/result/collect/receive', { body: {} }))).rejects.toBeInstanceOf(ApiError);
    expect(notices).toEqual([]);
    // the same failure on an ordinary call is shown
    await expect(unwrap(api.GET('/user/user_info'))).rejects.toThrow('boom');
    expect(notices).toHaveLength(1);
  });

  it('never shows a network failure of a silent call either', async () => {
    const { api } = clientWith({}, { networkDown: true });
    await expect(unwrap(api.GET('/misscut/v1/click'))).rejects.toMatchObject({ status: 0 });
    expect(notices).toEqual([]);
  });

  it('honours the silent option', async () => {
    const { api } = clientWith({}, { status: 400, body: { code: 400, msg: 'x', result: null } });
    await expect(unwrap(api.GET('/user/user_info'), { silent: true })).rejects.toThrow('x');
    expect(notices).toEqual([]);
  });
});

describe('unwrap: 401', () => {
  it('shows 登录已失效，请重新登录 at most once per 3 s and tells the session every time', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
    setToken('revoked-token');
    let loggedOut = 0;
    const stop = onUnauthorized(() => loggedOut++);
    const { api } = clientWith({}, { status: 401, body: { code: 401, msg: 'token revoked', result: null } });
    const call = () => failure(unwrap(api.GET('/user/user_info')));

    const first = await call();
    expect(first).toMatchObject({ status: 401, message: '登录已失效，请重新登录' });
    await call();
    vi.advanceTimersByTime(2999);
    await call();
    expect(notices.map((n) => n.title)).toEqual(['登录已失效，请重新登录']);
    vi.advanceTimersByTime(1);
    await call();
    expect(notices).toHaveLength(2);
    expect(loggedOut).toBe(4);
    stop();
  });

  it('also applies to a 401 body code and to silent calls (logout, no message)', async () => {
    setToken('revoked-token');
    let loggedOut = 0;
    const stop = onUnauthorized(() => loggedOut++);
    const { api } = clientWith({
      'GET /user/user_info': { status: 200, body: { code: 401, msg: 'x', result: null } },
      'GET /misscut/v1/click': { status: 401, body: { code: 401, result: null } },
    });
    await expect(unwrap(api.GET('/misscut/v1/click'))).rejects.toMatchObject({ status: 401 });
    expect(notices).toEqual([]);
    await expect(unwrap(api.GET('/user/user_info'))).rejects.toMatchObject({ code: 401 });
    expect(notices.map((n) => n.title)).toEqual(['登录已失效，请重新登录']);
    expect(loggedOut).toBe(2);
    stop();
  });
});

describe('unwrap: 401 without a session', () => {
  it('wrong credentials on login show the server msg and do not log anybody out', async () => {
    let loggedOut = 0;
    const stop = onUnauthorized(() => loggedOut++);
    const { api } = clientWith({
      'POST /user/login': { status: 401, body: { code: 401, msg: '手机号或密码错误', result: null } },
    });
    await expect(
      unwrap(api.POST('/user/login', { body: { phone: '13800000000', password: 'bad' } })),
    ).rejects.toMatchObject({
      status: 401,
      message: '手机号或密码错误',
    });
    expect(notices.map((n) => n.title)).toEqual(['手机号或密码错误']);
    expect(loggedOut).toBe(0);
    stop();
  });

  it('a 401 to a call sent without a token is not an expired login either', async () => {
    let loggedOut = 0;
    const stop = onUnauthorized(() => loggedOut++);
    const { api } = clientWith({ 'GET /user/user_info': { status: 401, body: { code: 401, msg: '', result: null } } });
    await expect(unwrap(api.GET('/user/user_info'))).rejects.toMatchObject({ message: '登录已失效，请重新登录' });
    expect(loggedOut).toBe(0);
    stop();
  });
});

describe('unwrap: quota exhausted', () => {
  it('raises the quota event with the kind and shows no toast', async () => {
    const events: QuotaExhausted[] = [];
    const stop = onQuotaExhausted((e) => events.push(e));
    const { api } = clientWith({
      'POST /misscut/v1/check_text': { status: 402, body: { code: 402, msg: '今日额度已用完', result: { kind: 2 } } },
      'POST /misscut/v2/check_text': { status: 200, body: { code: 402, msg: '', result: null } },
    });
    await expect(unwrap(api.POST('/misscut/v1/check_text', { body: {} }))).rejects.toMatchObject({ status: 402 });
    await expect(unwrap(api.POST('/misscut/v2/check_text', { body: {} }))).rejects.toMatchObject({ code: 402 });
    expect(events).toEqual([
      { kind: 2, message: '今日额度已用完' },
      { kind: 1, message: '系统异常' },
    ]);
    expect(notices).toEqual([]);
    stop();
  });
});

describe('login from an external app', () => {
  it('sends the app uuid a login_resp_code=1 link left in storage, and none otherwise', async () => {
    const transport = fakeFetch({ 'POST /user/login': { body: { code: 200, msg: 'ok', result: { token: 't1' } } } });
    configureApi({ baseURL: 'http://api.test', fetch: transport.fetch });
    expect(await login('13800000000', 'pw')).toBe('t1');
    setAppUuid('plugin-7f3a');
    await login('13800000000', 'pw');
    const bodies = await Promise.all(transport.requests.map((r) => r.clone().json()));
    expect(bodies).toEqual([
      { phone: '13800000000', password: 'pw' },
      { phone: '13800000000', password: 'pw', app_uuid: 'plugin-7f3a' },
    ]);
  });
});

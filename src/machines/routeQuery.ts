// Spec §2 "Route query handling" as a pure function: the query of the page being opened becomes a
// list of effects; the UI executes them (see routeEffects.ts) and never decides anything itself.
import type { Notice } from '../api/notify';
import type { TrackingKey } from '../api/storage';

export type RouteEffect =
  | { type: 'remember tracking'; key: TrackingKey; value: string }
  | { type: 'store app uuid'; uuid: string }
  /**
   * Send `{type: 'token received', token}` to the session: signed out, it stores it, says 登录成功 and navigates;
   * signed in as another account, it asks before switching; the same token changes nothing.
   */
  | { type: 'log in with token'; token: string }
  /** POST the WeChat login's one-time code for the session token, then on as 'log in with token'. */
  | { type: 'exchange wechat code'; code: string }
  | { type: 'notify'; notice: Notice }
  | { type: 'navigate'; to: string; replace: boolean };

export interface RouteQueryInput {
  /** App path without the /workbench base, e.g. '/', '/user'. */
  path: string;
  search: string | URLSearchParams | Record<string, string | undefined>;
  loggedIn: boolean;
}

export const ACCOUNT_LOCKED_MESSAGE = '该账号因违反规定被锁定或关闭，请联系管理员';
export const CHROME_LOGIN_MESSAGE = '登录成功，接下来可以畅通无阻的使用插件啦';

/** Spec §2: `status` query -> message shown on /user. */
export const STATUS_MESSAGES: Record<number, Notice> = {
  0: { status: 'error', title: '操作失败' },
  1: { status: 'success', title: '操作成功' },
  2: { status: 'warning', title: '还未绑定微信' },
  3: { status: 'warning', title: '当前微信与绑定微信不相同' },
  4: { status: 'warning', title: '您已绑定微信，无需再次绑定' },
  5: { status: 'warning', title: '该微信已绑定别的账号' },
  6: { status: 'warning', title: '请先绑定手机号，再尝试解绑微信' },
};

const TRACKING: readonly TrackingKey[] = ['bd_vid', 'qhclickid', 'up_id'];
/** Query keys consumed here; they are removed from the address once handled. */
const CONSUMED = ['login_resp_code', 'uuid', 'app_uuid', 'token', 'wechat_code', 'msg', 'status', 'type'];

function toParams(search: RouteQueryInput['search']): URLSearchParams {
  if (search instanceof URLSearchParams) return search;
  if (typeof search === 'string') return new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) if (value !== undefined) params.set(key, value);
  return params;
}

export function planRouteQuery(input: RouteQueryInput): RouteEffect[] {
  const query = toParams(input.search);
  const effects: RouteEffect[] = [];

  for (const key of TRACKING) {
    const value = query.get(key);
    if (value) effects.push({ type: 'remember tracking', key, value });
  }

  if (query.get('login_resp_code') === '1') {
    const uuid = query.get('uuid') ?? query.get('app_uuid');
    if (uuid) effects.push({ type: 'store app uuid', uuid });
    effects.push({ type: 'navigate', to: '/login', replace: true });
    return effects;
  }

  let navigates = false;
  // The token leaves the address at once (history, screenshots), whatever the session makes of it.
  const token = query.get('token');
  if (token) effects.push({ type: 'log in with token', token });
  // where a WeChat login lands: a code valid once, for a minute, instead of a token in the address
  const wechatCode = query.get('wechat_code');
  if (wechatCode && !token) effects.push({ type: 'exchange wechat code', code: wechatCode });

  if (query.has('msg')) {
    const msg = (query.get('msg') ?? '').trim();
    effects.push({ type: 'notify', notice: { status: 'error', title: msg || ACCOUNT_LOCKED_MESSAGE } });
  }

  const status = query.get('status');
  if (status !== null && /^[0-6]$/.test(status)) {
    effects.push({ type: 'navigate', to: '/user', replace: true });
    effects.push({ type: 'notify', notice: STATUS_MESSAGES[Number(status)] });
    navigates = true;
  }

  if (query.get('type') === 'chrome-login') {
    if (input.loggedIn || token) {
      if (!token) effects.push({ type: 'navigate', to: '/', replace: true });
      effects.push({ type: 'notify', notice: { status: 'success', title: CHROME_LOGIN_MESSAGE } });
    } else {
      effects.push({ type: 'navigate', to: '/login', replace: true });
    }
    if (!token) navigates = true;
  }

  if (!navigates && CONSUMED.some((key) => query.has(key))) {
    effects.push({ type: 'navigate', to: withoutConsumed(input.path, query), replace: true });
  }
  return effects;
}

function withoutConsumed(path: string, query: URLSearchParams): string {
  const rest = new URLSearchParams(query);
  for (const key of CONSUMED) rest.delete(key);
  const search = rest.toString();
  return search ? `${path}?${search}` : path;
}

/** Spec §2: the previous path is saved as the last route unless it is /login or /editor. */
export function routeToRemember(previousPath: string | null | undefined): string | null {
  if (!previousPath) return null;
  const pathname = previousPath.split(/[?#]/)[0].replace(/\/+$/, '') || '/';
  if (pathname === '/login' || pathname === '/editor') return null;
  return previousPath;
}

/** Spec §2: remembered tracking parameters are appended to later navigations. */
export function withTracking(to: string, tracking: ReadonlyArray<readonly [string, string]>): string {
  if (tracking.length === 0) return to;
  const hashAt = to.indexOf('#');
  const hash = hashAt >= 0 ? to.slice(hashAt) : '';
  const beforeHash = hashAt >= 0 ? to.slice(0, hashAt) : to;
  const [pathname, search = ''] = beforeHash.split('?');
  const params = new URLSearchParams(search);
  for (const [key, value] of tracking) if (!params.has(key)) params.set(key, value);
  return `${pathname}?${params.toString()}${hash}`;
}

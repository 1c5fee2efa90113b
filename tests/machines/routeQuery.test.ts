import { beforeEach, describe, expect, it } from 'vitest';
import {
  ACCOUNT_LOCKED_MESSAGE,
  CHROME_LOGIN_MESSAGE,
  planRouteQuery,
  routeToRemember,
  withTracking,
} from '../../src/machines/routeQuery';
import { applyRouteEffects, rememberPreviousRoute, trackedPath } from '../../src/machines/routeEffects';
import { getAppUuid, getLastRoute, getTrackingParam } from '../../src/api/storage';
import type { Notice } from '../../src/api/notify';
import { freshStores } from '../api/helpers';

let stores: ReturnType<typeof freshStores>;
beforeEach(() => {
  stores = freshStores();
});

const plan = (search: string, loggedIn = false, path = '/') => planRouteQuery({ path, search, loggedIn });

describe('planRouteQuery (spec §2 route query handling)', () => {
  it('does nothing for an empty or unrelated query', () => {
    expect(plan('')).toEqual([]);
    expect(plan('?tab=2', true, '/document')).toEqual([]);
  });

  it('remembers the tracking parameters', () => {
    expect(plan('?bd_vid=B&qhclickid=Q&up_id=U')).toEqual([
      { type: 'remember tracking', key: 'bd_vid', value: 'B' },
      { type: 'remember tracking', key: 'qhclickid', value: 'Q' },
      { type: 'remember tracking', key: 'up_id', value: 'U' },
    ]);
  });

  it('login_resp_code=1 stores the external app uuid and goes to /login, and nothing else', () => {
    expect(plan('?login_resp_code=1&uuid=app-42&token=ignored&bd_vid=B')).toEqual([
      { type: 'remember tracking', key: 'bd_vid', value: 'B' },
      { type: 'store app uuid', uuid: 'app-42' },
      { type: 'navigate', to: '/login', replace: true },
    ]);
    // any other code is not the external app flow
    expect(plan('?login_resp_code=0')).toEqual([{ type: 'navigate', to: '/', replace: true }]);
  });

  it('a token in the query goes to the session and leaves the address at once', () => {
    // the session decides: log in, ask before switching accounts, or nothing for the same token
    expect(plan('?token=abc')).toEqual([
      { type: 'log in with token', token: 'abc' },
      { type: 'navigate', to: '/', replace: true },
    ]);
    expect(plan('?token=abc&bd_vid=B', true, '/dictionary')).toEqual([
      { type: 'remember tracking', key: 'bd_vid', value: 'B' },
      { type: 'log in with token', token: 'abc' },
      { type: 'navigate', to: '/dictionary?bd_vid=B', replace: true },
    ]);
  });

  it('a WeChat login code is exchanged by POST and leaves the address at once', () => {
    expect(plan('?wechat_code=c-1&bd_vid=B')).toEqual([
      { type: 'remember tracking', key: 'bd_vid', value: 'B' },
      { type: 'exchange wechat code', code: 'c-1' },
      { type: 'navigate', to: '/?bd_vid=B', replace: true },
    ]);
  });

  it('a msg in the query shows as an error, with the spec fallback when empty', () => {
    expect(plan('?msg=%E8%B4%A6%E5%8F%B7%E5%BC%82%E5%B8%B8', false, '/login')).toEqual([
      { type: 'notify', notice: { status: 'error', title: '账号异常' } },
      { type: 'navigate', to: '/login', replace: true },
    ]);
    expect(plan('?msg=&keep=1', false, '/login')).toEqual([
      { type: 'notify', notice: { status: 'error', title: ACCOUNT_LOCKED_MESSAGE } },
      { type: 'navigate', to: '/login?keep=1', replace: true },
    ]);
  });

  it.each([
    ['0', 'error', '操作失败'],
    ['1', 'success', '操作成功'],
    ['2', 'warning', '还未绑定微信'],
    ['3', 'warning', '当前微信与绑定微信不相同'],
    ['4', 'warning', '您已绑定微信，无需再次绑定'],
    ['5', 'warning', '该微信已绑定别的账号'],
    ['6', 'warning', '请先绑定手机号，再尝试解绑微信'],
  ])('status=%s goes to /user with %s %s', (status, level, title) => {
    expect(plan(`?status=${status}`, true)).toEqual([
      { type: 'navigate', to: '/user', replace: true },
      { type: 'notify', notice: { status: level, title } },
    ]);
  });

  it('an out-of-range status is only stripped from the address', () => {
    expect(plan('?status=9', true, '/right')).toEqual([{ type: 'navigate', to: '/right', replace: true }]);
  });

  it('type=chrome-login returns to / with the plugin message when logged in, else goes to /login', () => {
    expect(plan('?type=chrome-login', true, '/login')).toEqual([
      { type: 'navigate', to: '/', replace: true },
      { type: 'notify', notice: { status: 'success', title: CHROME_LOGIN_MESSAGE } },
    ]);
    expect(plan('?type=chrome-login', false)).toEqual([{ type: 'navigate', to: '/login', replace: true }]);
    // with a token in the same query, the session navigates and the plugin message follows
    expect(plan('?type=chrome-login&token=t', false)).toEqual([
      { type: 'log in with token', token: 't' },
      { type: 'notify', notice: { status: 'success', title: CHROME_LOGIN_MESSAGE } },
      { type: 'navigate', to: '/', replace: true },
    ]);
  });
});

describe('last route rule', () => {
  it('saves the previous path unless it is /login or /editor', () => {
    expect(routeToRemember('/document')).toBe('/document');
    expect(routeToRemember('/pdf?page=2')).toBe('/pdf?page=2');
    expect(routeToRemember('/')).toBe('/');
    expect(routeToRemember('/login')).toBeNull();
    expect(routeToRemember('/login?x=1')).toBeNull();
    expect(routeToRemember('/editor')).toBeNull();
    expect(routeToRemember('/editor/')).toBeNull();
    expect(routeToRemember('/editor?id=5')).toBeNull();
    expect(routeToRemember('/editorial')).toBe('/editorial');
    expect(routeToRemember(null)).toBeNull();
  });

  it('rememberPreviousRoute writes only remembered routes', () => {
    rememberPreviousRoute('/dictionary');
    rememberPreviousRoute('/editor?id=1');
    rememberPreviousRoute('/login');
    expect(getLastRoute()).toBe('/dictionary');
  });
});

describe('tracking on later navigations', () => {
  it('appends remembered parameters without duplicating and keeps the hash', () => {
    expect(withTracking('/pdf', [])).toBe('/pdf');
    expect(withTracking('/pdf', [['bd_vid', 'B']])).toBe('/pdf?bd_vid=B');
    expect(
      withTracking('/pdf?x=1&bd_vid=old#top', [
        ['bd_vid', 'B'],
        ['up_id', 'U'],
      ]),
    ).toBe('/pdf?x=1&bd_vid=old&up_id=U#top');
  });
});

describe('applyRouteEffects', () => {
  it('writes storage, notifies, navigates and hands the token to the session', () => {
    const navigations: Array<[string, boolean]> = [];
    const sent: unknown[] = [];
    const shown: Notice[] = [];
    const bindings = {
      navigate: (to: string, o: { replace: boolean }) => navigations.push([to, o.replace]),
      sendToSession: (e: unknown) => sent.push(e),
      notify: (n: Notice) => shown.push(n),
    };
    applyRouteEffects(plan('?bd_vid=B&up_id=U&token=tok&msg=x'), bindings);
    expect(getTrackingParam('bd_vid')).toBe('B');
    expect(stores.session.getItem('up_id')).toBe('U');
    expect(sent).toEqual([{ type: 'token received', token: 'tok' }]);
    expect(shown).toEqual([{ status: 'error', title: 'x' }]);
    expect(navigations).toEqual([['/?bd_vid=B&up_id=U', true]]);
    expect(trackedPath('/ai')).toBe('/ai?bd_vid=B&up_id=U');

    applyRouteEffects(plan('?login_resp_code=1&uuid=u-1'), bindings);
    expect(getAppUuid()).toBe('u-1');
    expect(navigations).toEqual([
      ['/?bd_vid=B&up_id=U', true],
      ['/login', true],
    ]);
  });
});

describe('applyRouteEffects: a WeChat login code', () => {
  it("hands the exchanged token to the session as a link's token; a refused code sends nothing", async () => {
    const sent: unknown[] = [];
    const exchanged: string[] = [];
    const bindings = {
      navigate: () => undefined,
      sendToSession: (e: unknown) => sent.push(e),
      exchangeWechatCode: async (code: string) => {
        exchanged.push(code);
        if (code === 'used') throw new Error('微信登录已失效，请重新扫码登录');
        return `token-for-${code}`;
      },
    };
    applyRouteEffects(plan('?wechat_code=c-1'), bindings);
    applyRouteEffects(plan('?wechat_code=used'), bindings);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(exchanged).toEqual(['c-1', 'used']);
    expect(sent).toEqual([{ type: 'token received', token: 'token-for-c-1' }]);
  });
});

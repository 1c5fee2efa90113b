// Model-based test of the session (spec §4, §8): an abstract model of what the user sees, whose
// paths drive the REAL live app actor (session + socket + the rest) over a fake fetch and a fake
// WebSocket class. Storage, src/api, the route-query effects and the machines all run for real.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { assign, createActor, setup, SimulatedClock, waitFor, type Actor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { modelOptions } from './model';
import { configureApi, resetUnauthorizedThrottle } from '../../src/api/client';
import { userInfo } from '../../src/api/user';
import { getToken, isLoginFlagSet, setLastRoute } from '../../src/api/storage';
import { createLiveApp } from '../../src/machines/live';
import { planRouteQuery } from '../../src/machines/routeQuery';
import { applyRouteEffects } from '../../src/machines/routeEffects';
import type { SessionActorRef } from '../../src/machines/session';
import type { SocketActorRef } from '../../src/machines/socket';
import { collectNotices, freshStores } from '../api/helpers';
import { ADMIN, NEWCOMER, fakeBackend, fakeWebSocketClass } from './fakes';

type Who = 'admin' | 'newcomer';

const model = setup({
  types: {} as {
    context: { who: Who | null; registered: boolean };
    events:
      | { type: 'LOGIN_OK' }
      | { type: 'LOGIN_WRONG_PASSWORD' }
      | { type: 'LOGIN_OFFLINE' }
      | { type: 'REGISTER_OK' }
      | { type: 'REGISTER_WRONG_CODE' }
      | { type: 'TOKEN_IN_QUERY' }
      | { type: 'LOGOUT' }
      | { type: 'TOKEN_REVOKED' }
      | { type: 'SOCKET_REJECTS_TOKEN' }
      | { type: 'RELOAD' }
      | { type: 'RELOAD_AFTER_REVOCATION' };
  },
  guards: {
    'already registered': ({ context }) => context.registered,
  },
}).createMachine({
  id: 'sessionModel',
  context: { who: null, registered: false },
  initial: 'loggedOut',
  states: {
    loggedOut: {
      entry: assign({ who: null }),
      initial: 'fresh',
      states: { fresh: {}, loginFailed: {}, offline: {}, registerFailed: {}, phoneTaken: {}, expired: {}, byUser: {} },
      on: {
        LOGIN_OK: { target: 'loggedIn.byLogin', actions: assign({ who: 'admin' }) },
        LOGIN_WRONG_PASSWORD: { target: '.loginFailed' },
        LOGIN_OFFLINE: { target: '.offline' },
        REGISTER_OK: [
          { guard: 'already registered', target: '.phoneTaken' },
          { target: 'loggedIn.byLogin', actions: assign({ who: 'newcomer', registered: true }) },
        ],
        REGISTER_WRONG_CODE: [{ guard: 'already registered', target: '.phoneTaken' }, { target: '.registerFailed' }],
        TOKEN_IN_QUERY: { target: 'loggedIn.byLogin', actions: assign({ who: 'admin' }) },
        RELOAD: { target: '.fresh' },
      },
    },
    loggedIn: {
      initial: 'byLogin',
      states: { byLogin: {}, restored: {} },
      on: {
        LOGOUT: { target: 'loggedOut.byUser' },
        TOKEN_REVOKED: { target: 'loggedOut.expired' },
        SOCKET_REJECTS_TOKEN: { target: 'loggedOut.expired' },
        RELOAD: { target: '.restored' },
        RELOAD_AFTER_REVOCATION: { target: 'loggedOut.expired' },
      },
    },
  },
});

const EXPIRED = '登录已失效，请重新登录';
const LAST_ROUTE = '/dictionary';

const { notices, unsubscribe } = collectNotices();
afterAll(unsubscribe);
beforeAll(() => {
  // Only Date is faked: each user step happens a few seconds after the previous one (the 401
  // message is throttled per 3 s of wall-clock time), while promises and timers stay real.
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-01-01T00:00:00Z') });
});
afterEach(() => {
  resetUnauthorizedThrottle();
});
afterAll(() => {
  vi.useRealTimers();
});

function harness() {
  freshStores();
  notices.length = 0;
  setLastRoute(LAST_ROUTE);
  const backend = fakeBackend();
  configureApi({ baseURL: 'http://app.test', fetch: backend.fetch });
  const sockets = fakeWebSocketClass(backend);
  const navigations: string[] = [];
  let actor: Actor<ReturnType<typeof createLiveApp>>;
  const start = () => {
    actor = createActor(
      createLiveApp({
        navigate: (p) => navigations.push(p),
        WebSocket: sockets.WebSocket,
        pageUrl: () => 'http://app.test/workbench/',
      }),
      { clock: new SimulatedClock() },
    );
    actor.start();
  };
  start();
  const session = () => actor.system.get('session') as SessionActorRef;
  const socket = () => actor.system.get('socket') as SocketActorRef;
  /** Waits until the session rests and the fake socket server has answered. */
  const settle = async () => {
    await waitFor(session(), (s) => s.matches('loggedIn') || s.matches('loggedOut'), { timeout: 2000 });
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
  };
  const later = () => vi.setSystemTime(Date.now() + 5000);
  return {
    backend,
    sockets,
    navigations,
    session,
    socket,
    settle,
    later,
    reload: async () => {
      actor.stop();
      navigations.length = 0;
      start();
      await settle();
    },
    stop: () => actor.stop(),
  };
}

type Harness = ReturnType<typeof harness>;

function assertLoggedOut(h: Harness) {
  const snapshot = h.session().getSnapshot();
  expect(snapshot.value).toBe('loggedOut');
  expect(snapshot.context.user).toBeNull();
  expect(getToken()).toBeNull();
  expect(isLoginFlagSet()).toBe(false);
  // the realtime socket is closed and stays closed
  expect(h.sockets.open()).toEqual([]);
  expect(h.socket().getSnapshot().value).toBe('idle');
}

function assertLoggedIn(h: Harness, who: Who) {
  const snapshot = h.session().getSnapshot();
  expect(snapshot.value).toBe('loggedIn');
  expect(snapshot.context.user?.phone).toBe(who === 'admin' ? ADMIN.phone : NEWCOMER.phone);
  expect(snapshot.context.user?.role).toBe(who === 'admin' ? 'root' : 'free');
  const token = getToken();
  expect(h.backend.isValid(token)).toBe(true);
  expect(isLoginFlagSet()).toBe(true);
  // exactly one realtime socket, opened with this token
  const open = h.sockets.open();
  expect(open).toHaveLength(1);
  expect(new URL(open[0].url).searchParams.get('token')).toBe(token);
  expect(h.socket().getSnapshot().value).toBe('open');
  // spec §4 side effects: the signed-in data was requested (501s for features not built are silent)
  expect(h.backend.calls).toContain('GET /user/v1/get_user_right');
  expect(notices.filter((n) => n.title === '该功能尚未开放')).toEqual([]);
}

describe('session (model-based)', () => {
  const testModel = createTestModel(model, modelOptions);
  // One shortest path to every (state, transition) of the model. Simple paths explode here
  // (tens of thousands), so the shortest paths are the coverage criterion.
  const shortest = testModel.getShortestPaths({ allowDuplicatePaths: true });
  console.log(`session: ${shortest.length} shortest paths`);

  it('has enough paths to cover the flow', () => {
    expect(shortest.length).toBeGreaterThanOrEqual(60);
  });

  const runPath = async (path: (typeof shortest)[number]) => {
    const h = harness();
    await h.settle();
    let expiredNotices = 0;
    try {
      await path.test({
        events: {
          LOGIN_OK: async () => {
            h.later();
            h.session().send({ type: 'login submitted', ...ADMIN });
            await h.settle();
          },
          LOGIN_WRONG_PASSWORD: async () => {
            h.later();
            h.session().send({ type: 'login submitted', phone: ADMIN.phone, password: 'wrong' });
            await h.settle();
          },
          LOGIN_OFFLINE: async () => {
            h.later();
            h.backend.setNetworkDown(true);
            h.session().send({ type: 'login submitted', ...ADMIN });
            await h.settle();
            h.backend.setNetworkDown(false);
          },
          REGISTER_OK: async () => {
            h.later();
            h.session().send({
              type: 'register submitted',
              phone: NEWCOMER.phone,
              code: NEWCOMER.code,
              password: NEWCOMER.password,
              name: '新人',
            });
            await h.settle();
          },
          REGISTER_WRONG_CODE: async () => {
            h.later();
            h.session().send({
              type: 'register submitted',
              phone: NEWCOMER.phone,
              code: '000000',
              password: NEWCOMER.password,
            });
            await h.settle();
          },
          TOKEN_IN_QUERY: async () => {
            h.later();
            const token = h.backend.issueToken(ADMIN.phone);
            const effects = planRouteQuery({ path: '/', search: `?token=${token}`, loggedIn: false });
            applyRouteEffects(effects, {
              navigate: (to) => h.navigations.push(to),
              sendToSession: (event) => h.session().send(event),
            });
            await h.settle();
          },
          LOGOUT: async () => {
            h.later();
            h.session().send({ type: 'logout requested' });
            await h.settle();
          },
          TOKEN_REVOKED: async () => {
            h.later();
            h.backend.revokeAll();
            expiredNotices = notices.filter((n) => n.title === EXPIRED).length;
            // the next calls anywhere in the app (two in flight at once) answer 401
            const results = await Promise.allSettled([userInfo(), userInfo()]);
            expect(results.map((r) => r.status === 'rejected' && (r.reason as { status: number }).status)).toEqual([
              401, 401,
            ]);
            await h.settle();
          },
          SOCKET_REJECTS_TOKEN: async () => {
            h.later();
            h.backend.revokeAll();
            expiredNotices = notices.filter((n) => n.title === EXPIRED).length;
            // the server closes the realtime socket of a revoked token (SocketClose.Unauthorized)
            const [open] = h.sockets.open();
            open.drop(4401, 'unauthorized: 登录已失效，请重新登录');
            await h.settle();
          },
          RELOAD: async () => {
            h.later();
            await h.reload();
          },
          RELOAD_AFTER_REVOCATION: async () => {
            h.later();
            h.backend.revokeAll();
            expiredNotices = notices.filter((n) => n.title === EXPIRED).length;
            await h.reload();
          },
        },
        states: {
          'loggedOut.fresh': () => {
            assertLoggedOut(h);
            expect(h.navigations).toEqual([]);
          },
          'loggedOut.loginFailed': () => {
            assertLoggedOut(h);
            expect(h.session().getSnapshot().context.error).toBe('手机号或密码错误');
            expect(notices.at(-1)).toEqual({ status: 'error', title: '手机号或密码错误' });
          },
          'loggedOut.offline': () => {
            assertLoggedOut(h);
            expect(h.session().getSnapshot().context.error).toBe('网络连接失败');
            expect(notices.at(-1)).toEqual({ status: 'error', title: '网络连接失败' });
          },
          'loggedOut.registerFailed': () => {
            assertLoggedOut(h);
            expect(h.session().getSnapshot().context.error).toBe('验证码错误');
          },
          'loggedOut.phoneTaken': () => {
            assertLoggedOut(h);
            expect(h.session().getSnapshot().context.error).toBe('该手机号已注册');
            expect(notices.at(-1)).toEqual({ status: 'error', title: '该手机号已注册' });
          },
          'loggedOut.expired': () => {
            assertLoggedOut(h);
            expect(h.navigations.at(-1)).toBe('/login');
            // shown once for this expiry, however many calls failed
            expect(notices.filter((n) => n.title === EXPIRED)).toHaveLength(expiredNotices + 1);
          },
          'loggedOut.byUser': () => {
            assertLoggedOut(h);
            expect(h.navigations.at(-1)).toBe('/login');
            // the token was revoked on the server, not only forgotten here
            expect(h.backend.activeTokens()).toBe(0);
            expect(notices.filter((n) => n.title === EXPIRED)).toHaveLength(expiredNotices);
          },
          'loggedIn.byLogin': (state) => {
            assertLoggedIn(h, state.context.who!);
            expect(h.navigations.at(-1)).toBe(LAST_ROUTE);
            expect(notices.at(-1)).toEqual({ status: 'success', title: '登录成功' });
          },
          'loggedIn.restored': (state) => {
            assertLoggedIn(h, state.context.who!);
            // a reload stays on the page it opened
            expect(h.navigations).toEqual([]);
          },
        },
      });
    } finally {
      h.stop();
    }
  };

  for (const path of shortest) {
    it(path.description, () => runPath(path));
  }
});

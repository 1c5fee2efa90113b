// Model-based test of the session (spec §4, §8): an abstract model of what the user sees, whose
// paths drive the REAL live app actor (session + socket + the rest) over a fake fetch and a fake
// WebSocket class. Storage, src/api, the route-query effects and the machines all run for real.
// Login links (`?token=`) sign a signed-out browser in; signed in, the same token changes nothing and
// another account's asks first (the switch dialog), at a page load too.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { assign, createActor, setup, SimulatedClock, waitFor, type Actor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { modelOptions } from './model';
import { configureApi, resetUnauthorizedThrottle } from '../../src/api/client';
import { userInfo } from '../../src/api/user';
import { getToken, isLoginFlagSet, setLastRoute } from '../../src/api/storage';
import type { Notice } from '../../src/api/notify';
import { createLiveApp } from '../../src/machines/live';
import { planRouteQuery } from '../../src/machines/routeQuery';
import { applyRouteEffects } from '../../src/machines/routeEffects';
import { LINK_TOKEN_INVALID, type SessionActorRef } from '../../src/machines/session';
import type { SocketActorRef } from '../../src/machines/socket';
import { collectNotices, freshStores } from '../api/helpers';
import { ADMIN, COLLEAGUE, NEWCOMER, fakeBackend, fakeWebSocketClass } from './fakes';

type Who = 'admin' | 'newcomer' | 'colleague';
const PHONES: Record<Who, string> = { admin: ADMIN.phone, newcomer: NEWCOMER.phone, colleague: COLLEAGUE.phone };
/** The account in another person's login link. */
const otherThan = (who: Who | null): Who => (who === 'colleague' ? 'admin' : 'colleague');

/** Links opened while signed in (the model's byLogin and restored states). */
const LINKS = {
  LINK_SAME_TOKEN: { target: '#sessionModel.loggedIn.untouched' },
  LINK_SAME_ACCOUNT: { target: '#sessionModel.loggedIn.untouched' },
  LINK_OTHER_ACCOUNT: { target: '#sessionModel.loggedIn.confirming' },
  LINK_INVALID: { target: '#sessionModel.loggedIn.linkRefused' },
} as const;

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
      | { type: 'RELOAD_AFTER_REVOCATION' }
      | { type: 'LINK_SAME_TOKEN' }
      | { type: 'LINK_SAME_ACCOUNT' }
      | { type: 'LINK_OTHER_ACCOUNT' }
      | { type: 'LINK_INVALID' }
      | { type: 'RELOAD_WITH_LINK' }
      | { type: 'RELOAD_EXPIRED_WITH_LINK' }
      | { type: 'SWITCH_CONFIRMED' }
      | { type: 'SWITCH_DECLINED' };
  },
  guards: {
    'already registered': ({ context }) => context.registered,
  },
  actions: {
    'switch to the link account': assign({ who: ({ context }) => otherThan(context.who) }),
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
      states: {
        byLogin: { on: LINKS },
        restored: { on: LINKS },
        // a link changed nothing: the same token, the same account, or the switch declined
        untouched: {},
        // a link whose token the server refuses: the signed-in account stays, with an error
        linkRefused: {},
        // the dialog naming both accounts; nothing stored has changed yet
        confirming: {
          on: {
            SWITCH_CONFIRMED: { target: 'byLogin', actions: 'switch to the link account' },
            SWITCH_DECLINED: { target: 'untouched' },
          },
        },
      },
      on: {
        LOGOUT: { target: 'loggedOut.byUser' },
        TOKEN_REVOKED: { target: 'loggedOut.expired' },
        SOCKET_REJECTS_TOKEN: { target: 'loggedOut.expired' },
        RELOAD: { target: '.restored' },
        RELOAD_AFTER_REVOCATION: { target: 'loggedOut.expired' },
        // a page load whose stored login is checked first: the link asks once it is
        RELOAD_WITH_LINK: { target: '.confirming' },
        // the stored login expired: the browser is signed out, so the link signs in
        RELOAD_EXPIRED_WITH_LINK: { target: '.byLogin', actions: 'switch to the link account' },
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
  /** The session's navigations (the route query's own go to `addressBar`). */
  const navigations: string[] = [];
  const addressBar: string[] = [];
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
  /** Waits until the session rests (a link being checked is not rest) and the fake socket server has answered. */
  const settle = async () => {
    await waitFor(
      session(),
      (s) => s.matches({ loggedIn: 'ready' }) || s.matches({ loggedIn: 'confirmingSwitch' }) || s.matches('loggedOut'),
      { timeout: 2000 },
    );
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
  };
  const later = () => vi.setSystemTime(Date.now() + 5000);
  /** The page is opened with `?token=` as a login link does (spec §2 route query). */
  const openLink = (token: string) =>
    applyRouteEffects(planRouteQuery({ path: '/', search: `?token=${token}`, loggedIn: isLoginFlagSet() }), {
      navigate: (to) => addressBar.push(to),
      sendToSession: (event) => session().send(event),
    });
  /** What a link may leave unchanged, taken before it is opened. */
  let before = { token: getToken(), notices: 0, navigations: 0, sockets: 0 };
  const mark = () => {
    before = {
      token: getToken(),
      notices: notices.length,
      navigations: navigations.length,
      sockets: sockets.instances.length,
    };
  };
  return {
    backend,
    sockets,
    navigations,
    addressBar,
    session,
    socket,
    settle,
    later,
    openLink,
    mark,
    before: () => before,
    /** The page loads again, optionally from a login link. */
    reload: async (link?: () => string) => {
      actor.stop();
      navigations.length = 0;
      start();
      if (link) {
        mark();
        openLink(link());
      }
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
  expect(snapshot.context.linkToken).toBeNull();
  expect(getToken()).toBeNull();
  expect(isLoginFlagSet()).toBe(false);
  // the realtime socket is closed and stays closed
  expect(h.sockets.open()).toEqual([]);
  expect(h.socket().getSnapshot().value).toBe('idle');
}

function assertLoggedIn(h: Harness, who: Who, substate: 'ready' | 'confirmingSwitch' = 'ready') {
  const snapshot = h.session().getSnapshot();
  expect(snapshot.value).toEqual({ loggedIn: substate });
  expect(snapshot.context.user?.phone).toBe(PHONES[who]);
  expect(snapshot.context.user?.role).toBe(who === 'admin' ? 'root' : 'free');
  const token = getToken();
  expect(h.backend.phoneOf(token)).toBe(PHONES[who]);
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

/** A link changed nothing of the signed-in session: the stored token, the socket, the page, no 登录成功. */
function assertUntouchedByLink(h: Harness, who: Who, said: Notice[]) {
  const before = h.before();
  assertLoggedIn(h, who);
  expect(getToken()).toBe(before.token);
  expect(h.sockets.instances).toHaveLength(before.sockets);
  expect(h.navigations).toHaveLength(before.navigations);
  expect(notices.slice(before.notices)).toEqual(said);
  expect(h.session().getSnapshot().context).toMatchObject({ linkToken: null, linkUser: null });
  // the token left the address
  expect(h.addressBar.at(-1)).toBe('/');
}

describe('session (model-based)', () => {
  const testModel = createTestModel(model, modelOptions);
  // One shortest path to every (state, transition) of the model. Simple paths explode here
  // (tens of thousands), so the shortest paths are the coverage criterion.
  const shortest = testModel.getShortestPaths({ allowDuplicatePaths: true });
  console.log(`session: ${shortest.length} shortest paths`);

  it('has enough paths to cover the flow', () => {
    expect(shortest.length).toBeGreaterThanOrEqual(300);
  });

  const runPath = async (path: (typeof shortest)[number]) => {
    const h = harness();
    await h.settle();
    let expiredNotices = 0;
    let loggedOutToken: string | null = null;
    /** The signed-in account, as the real session says (link events need it before the model moves). */
    const signedIn = (): Who => {
      const phone = h.session().getSnapshot().context.user?.phone;
      return (Object.keys(PHONES) as Who[]).find((who) => PHONES[who] === phone) ?? 'admin';
    };
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
            h.openLink(h.backend.issueToken(ADMIN.phone));
            await h.settle();
          },
          LOGOUT: async () => {
            h.later();
            loggedOutToken = getToken();
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
          LINK_SAME_TOKEN: async () => {
            h.later();
            h.mark();
            const calls = h.backend.calls.length;
            h.openLink(getToken()!);
            await h.settle();
            // not even the user is loaded again
            expect(h.backend.calls).toHaveLength(calls);
          },
          LINK_SAME_ACCOUNT: async () => {
            h.later();
            h.mark();
            h.openLink(h.backend.issueToken(PHONES[signedIn()]));
            await h.settle();
          },
          LINK_OTHER_ACCOUNT: async () => {
            h.later();
            h.mark();
            h.openLink(h.backend.issueToken(PHONES[otherThan(signedIn())]));
            await h.settle();
          },
          LINK_INVALID: async () => {
            h.later();
            h.mark();
            h.openLink('tok-never-issued');
            await h.settle();
          },
          RELOAD_WITH_LINK: async () => {
            h.later();
            const other = otherThan(signedIn());
            await h.reload(() => h.backend.issueToken(PHONES[other]));
          },
          RELOAD_EXPIRED_WITH_LINK: async () => {
            h.later();
            const other = otherThan(signedIn());
            h.backend.revokeAll();
            await h.reload(() => h.backend.issueToken(PHONES[other]));
            // the stored login's expiry is said once, before the link's 登录成功
            expiredNotices = notices.filter((n) => n.title === EXPIRED).length;
          },
          SWITCH_CONFIRMED: async () => {
            h.later();
            h.session().send({ type: 'switch confirmed' });
            await h.settle();
          },
          SWITCH_DECLINED: async () => {
            h.later();
            h.mark();
            h.session().send({ type: 'switch declined' });
            await h.settle();
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
            expect(h.backend.isValid(loggedOutToken)).toBe(false);
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
          'loggedIn.untouched': (state) => assertUntouchedByLink(h, state.context.who!, []),
          'loggedIn.linkRefused': (state) =>
            assertUntouchedByLink(h, state.context.who!, [{ status: 'error', title: LINK_TOKEN_INVALID }]),
          'loggedIn.confirming': (state) => {
            const who = state.context.who!;
            // still signed in as before, with the other account named and its token held back, not stored
            assertLoggedIn(h, who, 'confirmingSwitch');
            const { context } = h.session().getSnapshot();
            expect(context.linkUser?.phone).toBe(PHONES[otherThan(who)]);
            expect(h.backend.phoneOf(context.linkToken)).toBe(PHONES[otherThan(who)]);
            expect(getToken()).toBe(h.before().token);
            expect(notices.slice(h.before().notices).filter((n) => n.title === '登录成功')).toEqual([]);
            expect(h.addressBar.at(-1)).toBe('/');
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

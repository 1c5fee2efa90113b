import './setup';
import { render } from '@testing-library/react';
import { assign, fromCallback, fromPromise } from 'xstate';
import { memoryLocation } from 'wouter/memory-location';
import { configureApi } from '../../src/api/client';
import type { Locale, ThemeMode } from '../../src/api/storage';
import type { UserInfo } from '../../src/api/user';
import { appMachine } from '../../src/machines/app';
import { languageMachine } from '../../src/machines/language';
import { quotaDialogMachine } from '../../src/machines/quotaDialog';
import { sessionMachine } from '../../src/machines/session';
import { socketMachine, type ConnectionEvent } from '../../src/machines/socket';
import { themeMachine } from '../../src/machines/theme';
import { liveDocumentUploads, liveNotices } from '../../src/machines/live';
import { App, ROUTER_BASE } from '../../src/ui/App';
import { AppProviders, createQueryClient } from '../../src/ui/providers';

export const TEST_USER: UserInfo = {
  uid: 42,
  phone: '13912345678',
  name: '测试用户',
  role: 'free',
  user_identity: 0,
  enterprise_id: null,
  login_id: 'tester',
};

export interface RecordedRequest {
  method: string;
  path: string;
  search: string;
  body: unknown;
}

/**
 * The API answered in-process: the app's real client and unwrap() run against this fake transport
 * (only the network is faked). Unknown calls answer 501 like the server does for unbuilt features.
 */
export type FakeHandler = (request: RecordedRequest, raw: Request) => Response | Promise<Response>;

export function fakeServer(user: UserInfo = TEST_USER, handlers: Record<string, FakeHandler> = {}) {
  const requests: RecordedRequest[] = [];
  /** `METHOD /path` -> the failure the next such call answers with. */
  const failures = new Map<string, { status: number; msg: string }>();
  const envelope = (result: unknown, status = 200, msg = 'ok') =>
    new Response(JSON.stringify({ code: status, msg, result }), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  configureApi({
    baseURL: '',
    fetch: async (request: Request) => {
      const url = new URL(request.url);
      const json = (request.headers.get('content-type') ?? '').includes('json');
      const text = request.method === 'GET' || !json ? '' : await request.clone().text();
      const recorded = {
        method: request.method,
        path: url.pathname,
        search: url.search,
        body: text ? JSON.parse(text) : null,
      };
      requests.push(recorded);
      const key = `${request.method} ${url.pathname}`;
      const failure = failures.get(key);
      if (failure) {
        failures.delete(key);
        return envelope(null, failure.status, failure.msg);
      }
      const handler = handlers[key];
      if (handler) return handler(recorded, request);
      switch (key) {
        case 'GET /user/user_info':
          return envelope(user);
        case 'GET /user/portrait':
          return new Response(new Blob(['<svg xmlns="http://www.w3.org/2000/svg"/>'], { type: 'image/svg+xml' }), {
            status: 200,
            headers: { 'content-type': 'image/svg+xml' },
          });
        case 'POST /user/sms_code':
          return envelope({ expires_in: 300 });
        case 'PUT /user/login_id':
        case 'PUT /user/pwd':
        case 'PUT /user/phone':
        case 'POST /user/leave_message':
        case 'POST /user/cancellation':
          return envelope(null);
        default:
          return envelope(null, 501, '该功能尚未开放');
      }
    },
  });
  return {
    requests,
    failNext: (key: string, status: number, msg: string) => void failures.set(key, { status, msg }),
    bodyOf: (key: string) => requests.filter((r) => `${r.method} ${r.path}` === key).map((r) => r.body),
  };
}

export interface RenderOptions {
  /** App path, e.g. '/', '/user', '/login'. */
  path?: string;
  loggedIn?: boolean;
  locale?: Locale;
  theme?: ThemeMode;
  user?: UserInfo;
  /** extra API calls answered by the test (`METHOD /path`) */
  handlers?: Record<string, FakeHandler>;
  /** the accounts behind login links' tokens (`?token=`); any other token is refused with 401 */
  linkUsers?: Record<string, UserInfo>;
}

/**
 * Renders the real App and providers around the real app machine, with the machines' side effects
 * (storage, HTTP, WebSocket) replaced by recorders.
 */
export function renderApp(options: RenderOptions = {}) {
  const { path = '/', loggedIn = true, locale = 'cn', theme = 'light', user = TEST_USER } = options;
  const server = fakeServer(user, options.handlers);
  const queryClient = createQueryClient();
  const memory = memoryLocation({ path: ROUTER_BASE + path, record: true });
  const goTo = (to: string) => memory.navigate(ROUTER_BASE + to);
  const calls = {
    login: [] as Array<{ phone: string; password: string }>,
    register: [] as Array<{ phone: string; code: string; password: string; name?: string }>,
    logout: 0,
    persistedTheme: [] as ThemeMode[],
    persistedLocale: [] as Locale[],
  };

  /** What src/api would report: a 401 anywhere, an exhausted quota. */
  const triggers = {
    unauthorized: () => {},
    quotaExhausted: (_kind: 1 | 2) => {},
    /** What the WebSocket reports; set once the socket machine opened a connection. */
    socket: (_event: ConnectionEvent) => {},
  };

  const session = sessionMachine.provide({
    actors: {
      'log in': fromPromise(async ({ input }: { input: { phone: string; password: string } }) => {
        calls.login.push(input);
        return 'token-from-login';
      }),
      register: fromPromise(
        async ({ input }: { input: { phone: string; code: string; password: string; name?: string } }) => {
          calls.register.push(input);
          return 'token-from-register';
        },
      ),
      'load user': fromPromise(async () => user),
      'load link user': fromPromise(async ({ input }: { input: { token: string } }) => {
        const linked = options.linkUsers?.[input.token];
        if (!linked) throw Object.assign(new Error('登录已失效，请重新登录'), { status: 401 });
        return linked;
      }),
      'log out': fromPromise(async () => {
        calls.logout += 1;
      }),
      'unauthorized listener': fromCallback(({ sendBack }) => {
        triggers.unauthorized = () => sendBack({ type: 'unauthorized' });
        return () => {};
      }),
    },
    actions: {
      'store token': () => {},
      'clear stored session': () => {},
      'load signed-in data': () => {},
      'say logged in': () => {},
      'say link refused': () => {},
      'go to last route': () => goTo('/'),
      'go to login': () => goTo('/login'),
    },
    guards: { 'has stored token': () => loggedIn, 'is stored token': () => false },
  });

  const logic = appMachine.provide({
    actors: {
      session,
      socket: socketMachine.provide({
        actors: {
          'socket connection': fromCallback(({ sendBack }) => {
            triggers.socket = (event) => sendBack(event);
            return () => {};
          }),
        },
      }),
      quotaDialog: quotaDialogMachine.provide({
        actors: {
          'quota listener': fromCallback(({ sendBack }) => {
            triggers.quotaExhausted = (kind: 1 | 2) => sendBack({ type: 'quota exhausted', kind });
            return () => {};
          }),
        },
        actions: { 'go to share': () => goTo('/share'), 'go to upgrade': () => goTo('/upgrade') },
      }),
      language: languageMachine.provide({
        actions: {
          'restore locale': assign({ locale: () => locale }),
          'persist locale': (_, params: { locale: Locale }) => void calls.persistedLocale.push(params.locale),
        },
      }),
      // the document list's uploads run for real over the fake transport
      documentUploads: liveDocumentUploads({ queryClient }),
      // announcements from the fake transport (GET /notice/v1/list) and the socket messages a test sends
      notices: liveNotices(),
      theme: themeMachine.provide({
        actions: {
          'restore theme': assign({ mode: () => theme }),
          'persist theme': (_, params: { mode: ThemeMode }) => void calls.persistedTheme.push(params.mode),
        },
      }),
    },
  });

  const view = render(
    <AppProviders logic={logic} queryClient={queryClient}>
      <App router={{ hook: memory.hook, searchHook: memory.searchHook }} />
    </AppProviders>,
  );
  /** The app path the router is on now. */
  const currentPath = () => (memory.history?.at(-1) ?? '').replace(ROUTER_BASE, '') || '/';
  return { ...view, memory, goTo, calls, server, currentPath, triggers };
}

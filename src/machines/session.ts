// The login session (spec §4): restore from a stored token, log in, register, token from the route
// query, logout, and a 401 anywhere logging the user out once. A link's token never replaces another
// signed-in account unasked: the user confirms the switch in a dialog naming both accounts.
import { assertEvent, assign, enqueueActions, fromCallback, fromPromise, setup, type ActorRefFrom } from 'xstate';
import { mustProvide } from './provide';
import type { UserInfo } from '../api/user';

export type { UserInfo };

export interface Credentials {
  phone: string;
  password: string;
}

export interface Registration {
  phone: string;
  code: string;
  password: string;
  name?: string;
}

export interface SessionContext {
  user: UserInfo | null;
  error: string | null;
  /** Whether the user is sent on to the last route once the user info has loaded. */
  redirectAfterLoad: boolean;
  /** A link's token (route query, WeChat) held back while another account is signed in or being restored. */
  linkToken: string | null;
  /** The account behind `linkToken`, named in the switch dialog. */
  linkUser: UserInfo | null;
}

export type SessionEvent =
  | { type: 'login submitted'; phone: string; password: string }
  | { type: 'register submitted'; phone: string; code: string; password: string; name?: string }
  | { type: 'token received'; token: string }
  | { type: 'switch confirmed' }
  | { type: 'switch declined' }
  | { type: 'logout requested' }
  | { type: 'unauthorized' };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error ?? '');
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

/** Shown when a link's token is refused (401) while another account is signed in; that account stays. */
export const LINK_TOKEN_INVALID = '链接中的登录已失效，仍使用当前账号';

/** The held-back link token; the guards before every use make sure there is one. */
function linkTokenOf(context: SessionContext): string {
  if (context.linkToken === null) throw new Error('no link token is waiting');
  return context.linkToken;
}

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
  },
  actors: {
    /** POST /user/login -> token */
    'log in': fromPromise<string, Credentials>(async () => mustProvide('session', 'log in')),
    /** POST /user/register -> token */
    register: fromPromise<string, Registration>(async () => mustProvide('session', 'register')),
    /** GET /user/user_info with the stored token */
    'load user': fromPromise<UserInfo>(async () => mustProvide('session', 'load user')),
    /** GET /user/user_info with a link's token, which is not stored; its 401 logs no one out */
    'load link user': fromPromise<UserInfo, { token: string }>(async () => mustProvide('session', 'load link user')),
    /** POST /user/logout (revokes the token on the server); failures do not keep anyone logged in */
    'log out': fromPromise<void>(async () => mustProvide('session', 'log out')),
    /** Sends {type: 'unauthorized'} whenever a call answers 401 */
    'unauthorized listener': fromCallback(() => mustProvide('session', 'unauthorized listener')),
  },
  actions: {
    'store token': (_, _params: { token: string }) => mustProvide('session', 'store token'),
    /** Spec §4 logout: token, login flag, token cookie, cached user data (dictionary id, invites, identity) */
    'clear stored session': () => mustProvide('session', 'clear stored session'),
    /**
     * Spec §4 login: avatar, own dictionary, invites, guide, fine-proofreading status, rights 1 and 32, applications
     */
    'load signed-in data': () => mustProvide('session', 'load signed-in data'),
    'say logged in': () => mustProvide('session', 'say logged in'),
    'say link refused': (_, _params: { message: string }) => mustProvide('session', 'say link refused'),
    'go to last route': () => mustProvide('session', 'go to last route'),
    'go to login': () => mustProvide('session', 'go to login'),
    /** The realtime socket opens when logged in and closes on logout (spec §4); absent in isolation. */
    'open realtime': ({ system }) => {
      system.get('socket')?.send({ type: 'connect' });
      system.get('notices')?.send({ type: 'signed in' });
    },
    'close realtime': ({ system }) => {
      system.get('socket')?.send({ type: 'disconnect' });
      system.get('notices')?.send({ type: 'signed out' });
    },
    'forget user': assign({ user: null, redirectAfterLoad: false, linkToken: null, linkUser: null }),
    'hold link token': assign({
      linkToken: ({ event }) => {
        assertEvent(event, 'token received');
        return event.token;
      },
    }),
    'forget link': assign({ linkToken: null, linkUser: null }),
  },
  guards: {
    'has stored token': () => mustProvide('session', 'has stored token'),
    /** The token is the one stored already: the link repeats the current login. */
    'is stored token': (_, _params: { token: string }) => mustProvide('session', 'is stored token'),
    'login expired': (_, params: { error: unknown }) => statusOf(params.error) === 401,
    'redirect after load': ({ context }) => context.redirectAfterLoad,
    'link token waiting': ({ context }) => context.linkToken !== null,
    /** The stored login expired while a link's token waited: the browser is signed out, so the link signs in. */
    'link token waiting and login expired': ({ context }, params: { error: unknown }) =>
      context.linkToken !== null && statusOf(params.error) === 401,
    'link is the same account': ({ context }, params: { user: UserInfo }) => context.user?.uid === params.user.uid,
  },
}).createMachine({
  id: 'session',
  context: { user: null, error: null, redirectAfterLoad: false, linkToken: null, linkUser: null },
  invoke: { src: 'unauthorized listener' },
  initial: 'starting',
  states: {
    // Transient: decides between restoring a stored session and showing the login page.
    starting: {
      always: [{ guard: 'has stored token', target: 'restoring' }, { target: 'loggedOut' }],
    },
    restoring: {
      on: {
        // A link's token waits until the stored login is known: kept if that is signed in, adopted if it expired.
        'token received': [
          { guard: { type: 'is stored token', params: ({ event }) => ({ token: event.token }) } },
          { actions: 'hold link token' },
        ],
      },
      invoke: {
        src: 'load user',
        onDone: [
          {
            guard: 'link token waiting',
            target: 'loggedIn.checkingLink',
            actions: assign({ user: ({ event }) => event.output, error: null }),
          },
          { target: 'loggedIn', actions: assign({ user: ({ event }) => event.output, error: null }) },
        ],
        onError: [
          {
            guard: {
              type: 'link token waiting and login expired',
              params: ({ event }) => ({ error: event.error }),
            },
            target: 'loggingIn.loadingUser',
            actions: [
              'clear stored session',
              { type: 'store token', params: ({ context }) => ({ token: linkTokenOf(context) }) },
              'say logged in',
              'forget link',
            ],
          },
          {
            guard: { type: 'login expired', params: ({ event }) => ({ error: event.error }) },
            target: 'loggedOut',
            actions: ['clear stored session', 'forget user', 'go to login'],
          },
          // Offline or a server error: keep the token so a reload can try again (the link cannot be checked either).
          {
            target: 'loggedOut',
            actions: ['forget link', assign({ error: ({ event }) => messageOf(event.error) })],
          },
        ],
      },
    },
    loggedOut: {
      on: {
        'login submitted': { target: 'loggingIn' },
        'register submitted': { target: 'registering' },
        'token received': {
          target: 'loggingIn.loadingUser',
          actions: [{ type: 'store token', params: ({ event }) => ({ token: event.token }) }, 'say logged in'],
        },
      },
    },
    loggingIn: {
      entry: assign({ error: null }),
      initial: 'authenticating',
      states: {
        authenticating: {
          invoke: {
            src: 'log in',
            input: ({ event }) => {
              assertEvent(event, 'login submitted');
              return { phone: event.phone, password: event.password };
            },
            onDone: {
              target: 'loadingUser',
              actions: [{ type: 'store token', params: ({ event }) => ({ token: event.output }) }, 'say logged in'],
            },
            onError: {
              target: '#session.loggedOut',
              actions: assign({ error: ({ event }) => messageOf(event.error) }),
            },
          },
        },
        loadingUser: {
          entry: assign({ redirectAfterLoad: true }),
          invoke: {
            src: 'load user',
            onDone: {
              target: '#session.loggedIn',
              actions: assign({ user: ({ event }) => event.output }),
            },
            onError: {
              target: '#session.loggedOut',
              actions: [
                'clear stored session',
                'forget user',
                assign({ error: ({ event }) => messageOf(event.error) }),
              ],
            },
          },
        },
      },
    },
    registering: {
      entry: assign({ error: null }),
      invoke: {
        src: 'register',
        input: ({ event }) => {
          assertEvent(event, 'register submitted');
          const { type: _type, ...registration } = event;
          return registration;
        },
        onDone: {
          target: 'loggingIn.loadingUser',
          actions: [{ type: 'store token', params: ({ event }) => ({ token: event.output }) }, 'say logged in'],
        },
        onError: {
          target: 'loggedOut',
          actions: assign({ error: ({ event }) => messageOf(event.error) }),
        },
      },
    },
    loggedIn: {
      entry: [
        'load signed-in data',
        'open realtime',
        enqueueActions(({ check, enqueue }) => {
          if (check('redirect after load')) enqueue('go to last route');
        }),
        assign({ redirectAfterLoad: false, error: null }),
      ],
      on: {
        'logout requested': { target: 'loggingOut' },
        // Spec §4/§8: a 401 logs the user out; later 401s find the session already logged out.
        unauthorized: {
          target: 'loggedOut',
          actions: ['close realtime', 'clear stored session', 'forget user', 'go to login'],
        },
      },
      initial: 'ready',
      states: {
        ready: {
          on: {
            // The same token as the stored one changes nothing; another one is checked before anything is stored.
            'token received': [
              { guard: { type: 'is stored token', params: ({ event }) => ({ token: event.token }) } },
              { target: 'checkingLink', actions: 'hold link token' },
            ],
          },
        },
        checkingLink: {
          invoke: {
            src: 'load link user',
            input: ({ context }) => ({ token: linkTokenOf(context) }),
            onDone: [
              {
                guard: { type: 'link is the same account', params: ({ event }) => ({ user: event.output }) },
                target: 'ready',
                actions: 'forget link',
              },
              { target: 'confirmingSwitch', actions: assign({ linkUser: ({ event }) => event.output }) },
            ],
            onError: {
              target: 'ready',
              actions: [
                {
                  type: 'say link refused',
                  params: ({ event }) => ({
                    message: statusOf(event.error) === 401 ? LINK_TOKEN_INVALID : messageOf(event.error),
                  }),
                },
                'forget link',
              ],
            },
          },
        },
        // The dialog naming both accounts: only a confirmation stores the link's token.
        confirmingSwitch: {
          on: {
            'switch confirmed': {
              target: '#session.loggingIn.loadingUser',
              actions: [
                'close realtime',
                'clear stored session',
                { type: 'store token', params: ({ context }) => ({ token: linkTokenOf(context) }) },
                'say logged in',
                'forget user',
              ],
            },
            'switch declined': { target: 'ready', actions: 'forget link' },
          },
        },
      },
    },
    loggingOut: {
      entry: 'close realtime',
      invoke: {
        src: 'log out',
        onDone: { target: 'loggedOut', actions: ['clear stored session', 'forget user', 'go to login'] },
        onError: { target: 'loggedOut', actions: ['clear stored session', 'forget user', 'go to login'] },
      },
    },
  },
});

export type SessionActorRef = ActorRefFrom<typeof sessionMachine>;

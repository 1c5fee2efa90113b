// The signed-in user's relation to a team (route /team): in no team (with the invitations they received and their
// latest application to join), or a member. An invitation arriving on the socket (type 5 cmd 3) reads the state
// again; accepting joins, refusing drops it; an invitation that ran out answers 404 and is gone on the next read;
// an application by the team's code waits for the team's answer (read again on `reload`); a member may quit, and a
// member who was removed finds themselves in no team on the next read.
//
// loading -> ready (none | member; action: idle | accepting | refusing | looking up | applying | quitting) | failed
import { assign, fromPromise, setup } from 'xstate';
import type { ServerMessage } from '../../openapi/socket-protocol';
import { notProvided } from './provide';
import { socketMessages } from './findings/socket';
import type { ApplyInfo, MembershipState } from './teamCalls';

export interface MembershipContext extends MembershipState {
  /** the team behind a code the user typed, before they apply */
  found: ApplyInfo | null;
  /** the invitation the running action answers */
  pendingId: number | null;
  /** the code / name of the running application */
  code: string;
  name: string;
  /** the last action's failure, for the view (a server message code or text) */
  error: string | null;
}

export type MembershipEvent =
  | { type: 'accept'; id: number }
  | { type: 'refuse'; id: number }
  | { type: 'look up'; code: string }
  | { type: 'apply'; code: string; name?: string }
  | { type: 'quit' }
  | { type: 'reload' }
  | { type: 'retry' }
  | { type: 'server message'; message: ServerMessage };

const loaded = (state: MembershipState) => ({
  team: state.team,
  invitations: state.invitations,
  application: state.application,
});

const errorText = (error: unknown) => (error instanceof Error && error.message ? error.message : '系统异常');

const isInvitation = ({ event }: { event: MembershipEvent }) =>
  event.type === 'server message' && event.message.type === 5 && event.message.cmd === 3;

export const membershipMachine = setup({
  types: {
    context: {} as MembershipContext,
    events: {} as MembershipEvent,
  },
  actors: {
    /** GET /enterprise/v1/get_user_info, then (outside a team) the invitations and the latest application */
    load: fromPromise<MembershipState>(notProvided('membership', 'load')),
    /** POST /enterprise/v1/pass_apply_or_invite */
    answer: fromPromise<void, { id: number; pass: boolean }>(notProvided('membership', 'answer')),
    /** GET /enterprise/user/v1/get_apply_enterprise_info?invitation_code */
    'look up': fromPromise<ApplyInfo, { code: string }>(notProvided('membership', 'look up')),
    /** POST /enterprise/user/v1/apply_join_enterprise */
    apply: fromPromise<void, { code: string; name: string }>(notProvided('membership', 'apply')),
    /** POST /enterprise/v1/quit_enterprise */
    quit: fromPromise<void>(notProvided('membership', 'quit')),
    'socket messages': socketMessages,
  },
  guards: {
    'in a team': ({ context }) => context.team !== null,
    'is invitation': isInvitation,
  },
}).createMachine({
  id: 'membership',
  context: {
    team: null,
    invitations: [],
    application: null,
    found: null,
    pendingId: null,
    code: '',
    name: '',
    error: null,
  },
  invoke: { src: 'socket messages', id: 'socketMessages' },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'load',
        onDone: { target: 'ready', actions: assign(({ event }) => loaded(event.output)) },
        onError: { target: 'failed', actions: assign(({ event }) => ({ error: errorText(event.error) })) },
      },
    },
    failed: { on: { retry: 'loading' } },
    ready: {
      initial: 'idle',
      on: {
        reload: '.reloading',
        'server message': { guard: 'is invitation', target: '.reloading' },
      },
      states: {
        idle: {
          on: {
            accept: {
              guard: ({ context }) => context.team === null,
              target: 'accepting',
              actions: assign(({ event }) => ({ pendingId: event.id, error: null })),
            },
            refuse: {
              guard: ({ context }) => context.team === null,
              target: 'refusing',
              actions: assign(({ event }) => ({ pendingId: event.id, error: null })),
            },
            'look up': {
              guard: ({ context }) => context.team === null,
              target: 'looking up',
              actions: assign(({ event }) => ({ code: event.code.trim(), found: null, error: null })),
            },
            apply: {
              guard: ({ context }) => context.team === null,
              target: 'applying',
              actions: assign(({ event }) => ({
                code: event.code.trim(),
                name: event.name?.trim() ?? '',
                error: null,
              })),
            },
            quit: { guard: 'in a team', target: 'quitting', actions: assign({ error: null }) },
          },
        },
        accepting: {
          invoke: {
            src: 'answer',
            input: ({ context }) => ({ id: context.pendingId ?? 0, pass: true }),
            onDone: 'reloading',
            // an invitation that ran out or was answered elsewhere: say why, and read again
            onError: { target: 'reloading', actions: assign(({ event }) => ({ error: errorText(event.error) })) },
          },
        },
        refusing: {
          invoke: {
            src: 'answer',
            input: ({ context }) => ({ id: context.pendingId ?? 0, pass: false }),
            onDone: 'reloading',
            onError: { target: 'reloading', actions: assign(({ event }) => ({ error: errorText(event.error) })) },
          },
        },
        'looking up': {
          invoke: {
            src: 'look up',
            input: ({ context }) => ({ code: context.code }),
            onDone: { target: 'idle', actions: assign(({ event }) => ({ found: event.output })) },
            onError: { target: 'idle', actions: assign(({ event }) => ({ error: errorText(event.error) })) },
          },
        },
        applying: {
          invoke: {
            src: 'apply',
            input: ({ context }) => ({ code: context.code, name: context.name }),
            onDone: { target: 'reloading', actions: assign({ found: null }) },
            onError: { target: 'idle', actions: assign(({ event }) => ({ error: errorText(event.error) })) },
          },
        },
        quitting: {
          invoke: {
            src: 'quit',
            onDone: 'reloading',
            onError: { target: 'idle', actions: assign(({ event }) => ({ error: errorText(event.error) })) },
          },
        },
        reloading: {
          invoke: {
            src: 'load',
            onDone: { target: 'idle', actions: assign(({ event }) => loaded(event.output)) },
            onError: { target: 'idle', actions: assign(({ event }) => ({ error: errorText(event.error) })) },
          },
        },
      },
    },
  },
});

/** Where the user stands, for the view. */
export function standing(context: MembershipContext): 'member' | 'applied' | 'invited' | 'none' {
  if (context.team) return 'member';
  if (context.application?.status === 6) return 'applied';
  if (context.invitations.length) return 'invited';
  return 'none';
}

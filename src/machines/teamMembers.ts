// The members tab of /team (member admins): a page of the team's rows (members, invitations, applications) with
// search and a status filter; inviting phones, answering applications, giving roles, suspending / restoring and
// removing members. Each change reads the page again; an application arriving on the socket (type 5 cmd 4) too.
//
// loading -> ready (action: idle | inviting | answering | changing | renewing) | failed
import { assign, fromPromise, setup } from 'xstate';
import type { ServerMessage } from '../../openapi/socket-protocol';
import { notProvided } from './provide';
import { socketMessages } from './findings/socket';
import type { Member, MemberPage, SettableStatus, TeamRole } from './teamCalls';

export const MEMBER_PAGE_SIZE = 20;

export interface TeamMembersContext {
  page: MemberPage;
  num: number;
  keyword: string;
  status: Member['status'] | null;
  /** phones an invitation could not reach, with the reason code */
  failed: Array<{ phone: string; reason: string }>;
  invited: number;
  /** the team's code for applications after it was renewed here (until then the team's details have it) */
  code: string | null;
  error: string | null;
}

/** One change to members, as the view asks for it. */
export type MemberChange =
  | { kind: 'remove'; uid: number }
  | { kind: 'role'; uid: number; role: TeamRole }
  | { kind: 'status'; uid: number; status: SettableStatus }
  | { kind: 'rename'; uid: number; name: string }
  | { kind: 'transfer'; uid: number }
  /** an invitation (its row id: the invitee may have no account) */
  | { kind: 'withdraw'; id: number };

export type TeamMembersEvent =
  | { type: 'search'; keyword: string }
  | { type: 'filter'; status: Member['status'] | null }
  | { type: 'page'; num: number }
  | { type: 'invite'; phones: string[]; role: TeamRole }
  | { type: 'answer'; id: number; pass: boolean }
  | { type: 'change'; change: MemberChange }
  /** a new code for applications; the old one stops working */
  | { type: 'renew code' }
  | { type: 'retry' }
  | { type: 'server message'; message: ServerMessage };

const errorText = (error: unknown) => (error instanceof Error && error.message ? error.message : '系统异常');

export const teamMembersMachine = setup({
  types: {
    context: {} as TeamMembersContext,
    events: {} as TeamMembersEvent,
  },
  actors: {
    /** GET /enterprise/v1/get_enterprise_members */
    'load page': fromPromise<MemberPage, { num: number; keyword: string; status: Member['status'] | null }>(
      notProvided('teamMembers', 'load page'),
    ),
    /** POST /enterprise/v1/inviteAndApply */
    invite: fromPromise<
      { invited: number; failed: Array<{ phone: string; reason: string }> },
      { phones: string[]; role: TeamRole }
    >(notProvided('teamMembers', 'invite')),
    /** POST /enterprise/v1/pass_apply_or_invite */
    answer: fromPromise<void, { id: number; pass: boolean }>(notProvided('teamMembers', 'answer')),
    /** remove_enterprise_user, modify_user_auth, modify_enterprise_user_status, update_enterprise_username,
     *  transfer_root */
    change: fromPromise<void, MemberChange>(notProvided('teamMembers', 'change')),
    /** POST /enterprise/v1/reset_invitation_code */
    'renew code': fromPromise<string, void>(notProvided('teamMembers', 'renew code')),
    'socket messages': socketMessages,
  },
  guards: {
    'is application': ({ event }) =>
      event.type === 'server message' && event.message.type === 5 && event.message.cmd === 4,
  },
}).createMachine({
  id: 'teamMembers',
  context: {
    page: { list: [], total: 0, num: 1, size: MEMBER_PAGE_SIZE },
    num: 1,
    keyword: '',
    status: null,
    failed: [],
    invited: 0,
    code: null,
    error: null,
  },
  invoke: { src: 'socket messages', id: 'socketMessages' },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'load page',
        input: ({ context }) => ({ num: context.num, keyword: context.keyword, status: context.status }),
        onDone: { target: 'ready', actions: assign(({ event }) => ({ page: event.output })) },
        onError: { target: 'failed', actions: assign(({ event }) => ({ error: errorText(event.error) })) },
      },
    },
    failed: { on: { retry: 'loading' } },
    ready: {
      initial: 'idle',
      on: {
        search: { target: 'loading', actions: assign(({ event }) => ({ keyword: event.keyword.trim(), num: 1 })) },
        filter: { target: 'loading', actions: assign(({ event }) => ({ status: event.status, num: 1 })) },
        page: { target: 'loading', actions: assign(({ event }) => ({ num: event.num })) },
        'server message': { guard: 'is application', target: 'loading' },
      },
      states: {
        idle: {
          on: {
            invite: { target: 'inviting', actions: assign({ error: null, failed: [], invited: 0 }) },
            answer: { target: 'answering', actions: assign({ error: null }) },
            change: { target: 'changing', actions: assign({ error: null }) },
            'renew code': { target: 'renewing', actions: assign({ error: null }) },
          },
        },
        renewing: {
          invoke: {
            src: 'renew code',
            onDone: { target: 'idle', actions: assign(({ event }) => ({ code: event.output })) },
            onError: { target: 'idle', actions: assign(({ event }) => ({ error: errorText(event.error) })) },
          },
        },
        inviting: {
          invoke: {
            src: 'invite',
            input: ({ event }) =>
              event.type === 'invite' ? { phones: event.phones, role: event.role } : { phones: [], role: 'user' },
            onDone: {
              target: '#teamMembers.loading',
              actions: assign(({ event }) => ({ invited: event.output.invited, failed: event.output.failed })),
            },
            onError: { target: 'idle', actions: assign(({ event }) => ({ error: errorText(event.error) })) },
          },
        },
        answering: {
          invoke: {
            src: 'answer',
            input: ({ event }) =>
              event.type === 'answer' ? { id: event.id, pass: event.pass } : { id: 0, pass: false },
            onDone: '#teamMembers.loading',
            onError: {
              target: '#teamMembers.loading',
              actions: assign(({ event }) => ({ error: errorText(event.error) })),
            },
          },
        },
        changing: {
          invoke: {
            src: 'change',
            input: ({ event }) => (event.type === 'change' ? event.change : { kind: 'remove', uid: 0 }),
            onDone: '#teamMembers.loading',
            onError: { target: 'idle', actions: assign(({ event }) => ({ error: errorText(event.error) })) },
          },
        },
      },
    },
  },
});

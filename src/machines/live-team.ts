// The team screen's bindings, apart from live.ts so that they load with the screen, not with the app.
import { fromPromise } from 'xstate';
import { forwardServerMessages, type SocketRef } from './findings/socket';
import { membershipMachine } from './membership';
import * as team from './teamCalls';
import { teamMembersMachine, MEMBER_PAGE_SIZE } from './teamMembers';

/** The user's relation to a team (/team) bound to the team calls. */
export function liveMembership(options: { socket?: () => SocketRef | undefined } = {}) {
  return membershipMachine.provide({
    actors: {
      ...(options.socket ? { 'socket messages': forwardServerMessages(options.socket) } : {}),
      load: fromPromise(() => team.membershipState()),
      answer: fromPromise(({ input }) => team.answerInvitation(input.id, input.pass)),
      'look up': fromPromise(({ input }) => team.teamByCode(input.code)),
      apply: fromPromise(({ input }) => team.applyByCode(input.code, input.name || undefined)),
      quit: fromPromise(() => team.quitTeam()),
    },
  });
}

/** The members tab of /team bound to the member calls. */
export function liveTeamMembers(options: { socket?: () => SocketRef | undefined } = {}) {
  return teamMembersMachine.provide({
    actors: {
      ...(options.socket ? { 'socket messages': forwardServerMessages(options.socket) } : {}),
      'load page': fromPromise(({ input }) =>
        team.memberPage({
          num: input.num,
          size: MEMBER_PAGE_SIZE,
          ...(input.keyword ? { keyword: input.keyword } : {}),
          ...(input.status !== null ? { status: input.status } : {}),
        }),
      ),
      invite: fromPromise(({ input }) => team.invitePhones(input.phones, input.role)),
      answer: fromPromise(({ input }) => team.answerInvitation(input.id, input.pass)),
      change: fromPromise(async ({ input }) => {
        if (input.kind === 'remove') await team.removeMembers([input.uid]);
        else if (input.kind === 'role') await team.setRole(input.uid, input.role);
        else if (input.kind === 'status') await team.setStatus([input.uid], input.status);
        else if (input.kind === 'rename') await team.renameMember(input.name, input.uid);
        else if (input.kind === 'withdraw') await team.cancelInvitation(input.id);
        else await team.transferRoot(input.uid);
      }),
      'renew code': fromPromise(() => team.renewInvitationCode()),
    },
  });
}

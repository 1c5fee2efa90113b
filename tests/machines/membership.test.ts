// Model-based test of the membership flow (/team as a user sees it): an abstract model whose paths drive the REAL
// live machine (liveMembership: the team calls through the API client). Only the transport is fake; an invitation
// arrives as the app's socket forwards it (type 5 cmd 3).
import { afterAll, describe, expect, it } from 'vitest';
import { createActor, setup } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { modelOptions, settle, fakeApi } from './model';
import { liveMembership } from '../../src/machines/live-team';
import { standing } from '../../src/machines/membership';
import { collectNotices } from '../api/helpers';

const model = setup({
  types: {} as {
    events:
      | { type: 'OPEN' }
      | { type: 'INVITED' }
      | { type: 'ACCEPT' }
      | { type: 'REFUSE' }
      | { type: 'EXPIRED' }
      | { type: 'APPLY' }
      | { type: 'PASSED' }
      | { type: 'REFUSED' }
      | { type: 'QUIT' }
      | { type: 'REMOVED' };
  },
}).createMachine({
  id: 'membershipModel',
  initial: 'start',
  states: {
    start: { on: { OPEN: 'none' } },
    none: { on: { INVITED: 'invited', APPLY: 'applied' } },
    invited: { on: { ACCEPT: 'member', REFUSE: 'none', EXPIRED: 'none' } },
    applied: { on: { PASSED: 'member', REFUSED: 'none' } },
    member: { on: { QUIT: 'none', REMOVED: 'none' } },
  },
});

const { notices, unsubscribe } = collectNotices();
afterAll(unsubscribe);
const NOW = '2026-11-27T02:00:00.000Z';
const ok = (result: unknown) => ({ body: { code: 200, msg: 'success', result } });
const TEAM = {
  enterprise_id: 7,
  name: '晨报编辑部',
  address: '',
  user_num: 3,
  equity_num: 20,
  equity_time: null,
  role: 'user' as const,
};
const INVITATION = { id: 41, enterprise_id: 7, enterprise_name: '晨报编辑部', inviter_name: '陈主编', created_at: NOW };

describe('membership (model-based)', () => {
  const shortest = createTestModel(model, modelOptions).getShortestPaths({ allowDuplicatePaths: true });
  it('has enough paths to cover the flow', () => expect(shortest.length).toBeGreaterThanOrEqual(10));

  for (const path of shortest) {
    it(path.description, async () => {
      notices.length = 0;
      const routes: Record<string, { status?: number; body?: unknown; networkDown?: boolean }> = {};
      const transport = fakeApi(routes);
      const held: { actor: ReturnType<typeof createActor<ReturnType<typeof liveMembership>>> | null } = { actor: null };
      const a = () => held.actor!;
      /** what the server answers to a read of the user's standing */
      const serverSays = (over: { team?: unknown; invitations?: unknown[]; application?: unknown }) => {
        routes['GET /enterprise/v1/get_user_info'] = ok(over.team ?? null);
        routes['GET /enterprise/user/v1/get_enterprise_invitation'] = ok(over.invitations ?? []);
        routes['GET /enterprise/user/v1/get_apply_enterprise_info'] = ok(over.application ?? null);
      };
      let last = '';
      const calls = (key: string) =>
        transport.requests.filter((r) => `${r.method} ${new URL(r.url).pathname}` === key).length;
      const events: Record<string, () => Promise<void>> = {
        OPEN: async () => {
          serverSays({});
          held.actor = createActor(liveMembership());
          held.actor.start();
          await settle();
        },
        INVITED: async () => {
          serverSays({ invitations: [INVITATION] });
          a().send({
            type: 'server message',
            message: {
              type: 5,
              cmd: 3,
              status: 200,
              index: 1,
              data: { id: 41, enterprise_id: 7, enterprise_name: '晨报编辑部', inviter_name: '陈主编' },
            },
          });
          await settle();
        },
        ACCEPT: async () => {
          routes['POST /enterprise/v1/pass_apply_or_invite'] = ok(null);
          serverSays({ team: TEAM });
          a().send({ type: 'accept', id: 41 });
          await settle();
        },
        REFUSE: async () => {
          routes['POST /enterprise/v1/pass_apply_or_invite'] = ok(null);
          serverSays({});
          a().send({ type: 'refuse', id: 41 });
          await settle();
        },
        EXPIRED: async () => {
          routes['POST /enterprise/v1/pass_apply_or_invite'] = {
            status: 404,
            body: { code: 404, msg: '邀请已过期', msg_code: 'team.invitation_expired', result: null },
          };
          serverSays({});
          a().send({ type: 'accept', id: 41 });
          await settle();
        },
        APPLY: async () => {
          routes['GET /enterprise/user/v1/get_apply_enterprise_info'] = ok({
            enterprise_id: 7,
            name: '晨报编辑部',
            status: null,
          });
          a().send({ type: 'look up', code: 'TEAMCODE1' });
          await settle();
          expect(a().getSnapshot().context.found).toMatchObject({ name: '晨报编辑部' });
          routes['POST /enterprise/user/v1/apply_join_enterprise'] = ok({ id: 52 });
          serverSays({ application: { enterprise_id: 7, name: '晨报编辑部', status: 6 } });
          a().send({ type: 'apply', code: 'TEAMCODE1', name: '小周' });
          await settle();
        },
        PASSED: async () => {
          serverSays({ team: TEAM });
          a().send({ type: 'reload' });
          await settle();
        },
        REFUSED: async () => {
          serverSays({ application: { enterprise_id: 7, name: '晨报编辑部', status: 7 } });
          a().send({ type: 'reload' });
          await settle();
        },
        QUIT: async () => {
          routes['POST /enterprise/v1/quit_enterprise'] = ok(null);
          serverSays({});
          a().send({ type: 'quit' });
          await settle();
          expect(calls('POST /enterprise/v1/quit_enterprise')).toBe(1);
        },
        REMOVED: async () => {
          serverSays({});
          a().send({ type: 'reload' });
          await settle();
        },
      };
      await path.test({
        events: Object.fromEntries(
          Object.entries(events).map(([type, run]) => [
            type,
            async () => {
              last = type;
              await run();
            },
          ]),
        ),
        states: {
          start: () => {},
          none: () => {
            const snap = a().getSnapshot();
            expect(snap.matches({ ready: 'idle' })).toBe(true);
            expect(standing(snap.context)).toBe('none');
            if (last === 'EXPIRED') expect(snap.context.error).toBe('邀请已过期');
            if (last === 'REFUSED') expect(snap.context.application?.status).toBe(7);
          },
          invited: () => {
            const snap = a().getSnapshot();
            expect(snap.matches({ ready: 'idle' })).toBe(true);
            expect(standing(snap.context)).toBe('invited');
            expect(snap.context.invitations.map((i) => i.id)).toEqual([41]);
          },
          applied: () => {
            expect(standing(a().getSnapshot().context)).toBe('applied');
            expect(calls('POST /enterprise/user/v1/apply_join_enterprise')).toBe(1);
          },
          member: () => {
            const snap = a().getSnapshot();
            expect(snap.matches({ ready: 'idle' })).toBe(true);
            expect(standing(snap.context)).toBe('member');
            expect(snap.context.team?.name).toBe('晨报编辑部');
          },
        },
      });
      held.actor?.stop();
    });
  }
});

// Model-based test of the members tab (/team, member admins): an abstract model whose paths drive the REAL live
// machine (liveTeamMembers: the member calls through the API client). Only the transport is fake; an application
// arrives as the app's socket forwards it (type 5 cmd 4) and reads the page again.
import { afterAll, describe, expect, it } from 'vitest';
import { createActor, setup } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { modelOptions, settle, fakeApi } from './model';
import { liveTeamMembers } from '../../src/machines/live-team';
import type { Member } from '../../src/machines/teamCalls';
import { collectNotices } from '../api/helpers';

const model = setup({
  types: {} as {
    events:
      | { type: 'OPEN' }
      | { type: 'OPEN_FAILS' }
      | { type: 'RETRY' }
      | { type: 'INVITE' }
      | { type: 'INVITE_PARTLY' }
      | { type: 'APPLIED' }
      | { type: 'PASS' }
      | { type: 'REFUSE' }
      | { type: 'REMOVE' }
      | { type: 'REMOVE_FORBIDDEN' }
      | { type: 'WITHDRAW' }
      | { type: 'RENEW_CODE' }
      | { type: 'RENEW_FAILS' };
  },
}).createMachine({
  id: 'teamMembersModel',
  initial: 'start',
  states: {
    start: { on: { OPEN: 'alone', OPEN_FAILS: 'failed' } },
    failed: { on: { RETRY: 'alone' } },
    alone: {
      on: {
        INVITE: 'invited',
        INVITE_PARTLY: 'invitedPartly',
        APPLIED: 'applied',
        RENEW_CODE: 'renewed',
        RENEW_FAILS: 'renewRefused',
      },
    },
    renewed: {},
    renewRefused: {},
    invited: { on: { WITHDRAW: 'alone' } },
    invitedPartly: {},
    applied: { on: { PASS: 'joined', REFUSE: 'refused' } },
    joined: { on: { REMOVE: 'alone', REMOVE_FORBIDDEN: 'refusedRemoval' } },
    refused: {},
    refusedRemoval: {},
  },
});

const { notices, unsubscribe } = collectNotices();
afterAll(unsubscribe);
const NOW = '2026-11-27T02:00:00.000Z';
const ok = (result: unknown) => ({ body: { code: 200, msg: 'success', result } });
const member = (over: Partial<Member>): Member => ({
  id: 1,
  uid: 10,
  name: '陈主编',
  phone: '139****0001',
  role: 'root',
  status: 1,
  created_at: NOW,
  joined_at: NOW,
  ...over,
});
const ROOT = member({});
const page = (rows: Member[]) => ok({ list: rows, total: rows.length, num: 1, size: 20 });

describe('team members (model-based)', () => {
  const shortest = createTestModel(model, modelOptions).getShortestPaths({ allowDuplicatePaths: true });
  it('has enough paths to cover the flow', () => expect(shortest.length).toBeGreaterThanOrEqual(11));

  for (const path of shortest) {
    it(path.description, async () => {
      notices.length = 0;
      const routes: Record<string, { status?: number; body?: unknown; networkDown?: boolean }> = {};
      const transport = fakeApi(routes);
      const held: { actor: ReturnType<typeof createActor<ReturnType<typeof liveTeamMembers>>> | null } = {
        actor: null,
      };
      const a = () => held.actor!;
      const bodies = (key: string) =>
        transport.requests.filter((r) => `${r.method} ${new URL(r.url).pathname}` === key);
      const start = async () => {
        held.actor = createActor(liveTeamMembers());
        held.actor.start();
        await settle();
      };
      await path.test({
        events: {
          OPEN: async () => {
            routes['GET /enterprise/v1/get_enterprise_members'] = page([ROOT]);
            await start();
          },
          OPEN_FAILS: async () => {
            routes['GET /enterprise/v1/get_enterprise_members'] = { networkDown: true };
            await start();
          },
          RETRY: async () => {
            routes['GET /enterprise/v1/get_enterprise_members'] = page([ROOT]);
            a().send({ type: 'retry' });
            await settle();
          },
          INVITE: async () => {
            routes['POST /enterprise/v1/inviteAndApply'] = ok({ invited: 1, failed: [] });
            routes['GET /enterprise/v1/get_enterprise_members'] = page([
              ROOT,
              member({ id: 2, uid: null, name: '139****0002', role: 'user', status: 4, joined_at: null }),
            ]);
            a().send({ type: 'invite', phones: ['13900000002'], role: 'user' });
            await settle();
          },
          INVITE_PARTLY: async () => {
            routes['POST /enterprise/v1/inviteAndApply'] = ok({
              invited: 0,
              failed: [{ phone: '13900000003', reason: 'team.phone_in_other_team' }],
            });
            a().send({ type: 'invite', phones: ['13900000003'], role: 'user' });
            await settle();
          },
          APPLIED: async () => {
            routes['GET /enterprise/v1/get_enterprise_members'] = page([
              ROOT,
              member({ id: 3, uid: 11, name: '小周', role: 'user', status: 6, joined_at: null }),
            ]);
            a().send({
              type: 'server message',
              message: {
                type: 5,
                cmd: 4,
                status: 200,
                index: 2,
                data: { id: 3, enterprise_id: 7, applicant_name: '小周', phone: '139****0004' },
              },
            });
            await settle();
          },
          PASS: async () => {
            routes['POST /enterprise/v1/pass_apply_or_invite'] = ok(null);
            routes['GET /enterprise/v1/get_enterprise_members'] = page([
              ROOT,
              member({ id: 3, uid: 11, name: '小周', role: 'user', status: 1 }),
            ]);
            a().send({ type: 'answer', id: 3, pass: true });
            await settle();
          },
          REFUSE: async () => {
            routes['POST /enterprise/v1/pass_apply_or_invite'] = ok(null);
            routes['GET /enterprise/v1/get_enterprise_members'] = page([
              ROOT,
              member({ id: 3, uid: 11, name: '小周', role: 'user', status: 7, joined_at: null }),
            ]);
            a().send({ type: 'answer', id: 3, pass: false });
            await settle();
          },
          REMOVE: async () => {
            routes['POST /enterprise/v1/remove_enterprise_user'] = ok({ count: 1 });
            routes['GET /enterprise/v1/get_enterprise_members'] = page([ROOT]);
            a().send({ type: 'change', change: { kind: 'remove', uid: 11 } });
            await settle();
          },
          WITHDRAW: async () => {
            routes['POST /enterprise/v1/cancel_invitation'] = ok(null);
            routes['GET /enterprise/v1/get_enterprise_members'] = page([ROOT]);
            a().send({ type: 'change', change: { kind: 'withdraw', id: 2 } });
            await settle();
            const [sent] = bodies('POST /enterprise/v1/cancel_invitation');
            expect(await sent.clone().json()).toEqual({ id: 2 });
          },
          RENEW_CODE: async () => {
            routes['POST /enterprise/v1/reset_invitation_code'] = ok({ invitation_code: 'fresh-code-1' });
            a().send({ type: 'renew code' });
            await settle();
          },
          RENEW_FAILS: async () => {
            routes['POST /enterprise/v1/reset_invitation_code'] = {
              status: 403,
              body: { code: 403, msg: '您无权管理成员', msg_code: 'team.cannot_manage_members', result: null },
            };
            a().send({ type: 'renew code' });
            await settle();
          },
          REMOVE_FORBIDDEN: async () => {
            routes['POST /enterprise/v1/remove_enterprise_user'] = {
              status: 403,
              body: { code: 403, msg: '您无权修改该成员：小周', msg_code: 'team.cannot_act_on_member', result: null },
            };
            a().send({ type: 'change', change: { kind: 'remove', uid: 11 } });
            await settle();
          },
        },
        states: {
          start: () => {},
          failed: () => expect(a().getSnapshot().matches('failed')).toBe(true),
          alone: () => {
            const snap = a().getSnapshot();
            expect(snap.matches({ ready: 'idle' })).toBe(true);
            expect(snap.context.page.list.map((m) => m.id)).toEqual([1]);
          },
          invited: async () => {
            const snap = a().getSnapshot();
            expect(snap.context.invited).toBe(1);
            expect(snap.context.page.list.map((m) => m.status)).toEqual([1, 4]);
            const [sent] = bodies('POST /enterprise/v1/inviteAndApply');
            expect(await sent.clone().json()).toEqual({ phones: ['13900000002'], role: 'user' });
          },
          invitedPartly: () => {
            const snap = a().getSnapshot();
            expect(snap.context.invited).toBe(0);
            expect(snap.context.failed).toEqual([{ phone: '13900000003', reason: 'team.phone_in_other_team' }]);
          },
          applied: () => {
            expect(
              a()
                .getSnapshot()
                .context.page.list.map((m) => m.status),
            ).toEqual([1, 6]);
          },
          joined: () => {
            expect(
              a()
                .getSnapshot()
                .context.page.list.map((m) => [m.id, m.status]),
            ).toEqual([
              [1, 1],
              [3, 1],
            ]);
          },
          refused: () => {
            expect(
              a()
                .getSnapshot()
                .context.page.list.map((m) => m.status),
            ).toEqual([1, 7]);
          },
          renewed: () => {
            const snap = a().getSnapshot();
            expect(snap.matches({ ready: 'idle' })).toBe(true);
            expect(snap.context.code).toBe('fresh-code-1');
            expect(bodies('POST /enterprise/v1/reset_invitation_code')).toHaveLength(1);
          },
          renewRefused: () => {
            const snap = a().getSnapshot();
            expect(snap.matches({ ready: 'idle' })).toBe(true);
            expect(snap.context.code).toBeNull();
            expect(snap.context.error).toBe('您无权管理成员');
          },
          refusedRemoval: () => {
            const snap = a().getSnapshot();
            expect(snap.matches({ ready: 'idle' })).toBe(true);
            expect(snap.context.error).toBe('您无权修改该成员：小周');
            // nothing changed: the member is still listed
            expect(snap.context.page.list.map((m) => m.id)).toEqual([1, 3]);
          },
        },
      });
      held.actor?.stop();
    });
  }
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../server/cli/admin';
import { checkerPool } from '../../server/workers/checker/pool';
import { grantTeamPackage } from '../../server/domain/teams/packages';
import { consumeRight, InsufficientRight } from '../../server/domain/rights/ledger';
import { call, register, startTestApp, type TestApp } from './helpers';
import { listen, runCheck, SocketClient } from './proofread-support';

/**
 * A team's life over HTTP and the socket: application and approval, an invitation received live and accepted, an
 * allocation used by a member's check that flags a leader's wrong title, the root's metrics, applications by
 * code, seats, removal (the unused allocation returns), the SMS link (expired, reused), and the root's transfer.
 * The SMS provider is the console one (its outbox file), as in every server test.
 */
let t: TestApp;
let base: string;
const phones = { boss: '13920000001', member: '13920000002', applicant: '13920000003', late: '13920000004' };
const tokens = {} as Record<keyof typeof phones, string>;
const uids = {} as Record<keyof typeof phones, number>;
let team = 0;

const post = (url: string, body: unknown, token: string) => call(t.app, 'POST', url, body, token);
const get = (url: string, token: string) => call(t.app, 'GET', url, undefined, token);
const put = (url: string, body: unknown, token: string) => call(t.app, 'PUT', url, body, token);

function smsOutbox(): Array<{ phone: string; purpose: string; link?: string; team?: string }> {
  return readFileSync(join(t.dataDir, 'sms-outbox.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

async function admin(...args: string[]) {
  const out: string[] = [];
  await runAdmin(args, t.app.db, (line) => out.push(line));
  return out;
}

beforeAll(async () => {
  t = await startTestApp();
  base = await listen(t);
  await checkerPool().ready();
  for (const [who, phone] of Object.entries(phones)) {
    tokens[who as keyof typeof phones] = await register(t, phone);
    uids[who as keyof typeof phones] = (
      await get('/user/user_info', tokens[who as keyof typeof phones])
    ).json.result.uid;
  }
}, 60_000);
afterAll(async () => t.close());

describe('a team from application to metrics', () => {
  it('an application approved by an operator makes the applicant the root of a new team', async () => {
    const applied = await post(
      '/enterprise/v1/team-application',
      { name: '晨报编辑部', contact_name: '陈主编', phone: phones.boss, user_num: 3, remark: '日常稿件校对' },
      tokens.boss,
    );
    expect(applied.status).toBe(200);
    const again = await post(
      '/enterprise/v1/team-application',
      { name: '晨报编辑部', contact_name: '陈主编', phone: phones.boss },
      tokens.boss,
    );
    expect([again.status, again.json.msg_code]).toEqual([409, 'team.application_pending']);
    const listed = await admin('application', 'list', '--status', 'pending');
    expect(listed.join('\n')).toContain('晨报编辑部');
    const approved = await admin('application', 'approve', String(applied.json.result.id));
    team = Number(/created team (\d+)/.exec(approved[0])![1]);
    const info = await get('/enterprise/v1/get_user_info', tokens.boss);
    expect(info.json.result).toMatchObject({ enterprise_id: team, name: '晨报编辑部', role: 'root', equity_num: 3 });
    const auth = await get('/enterprise/v1/get_user_auth', tokens.boss);
    expect(auth.json.result.role).toBe('root');
    expect(auth.json.result.permissions).toContain('rights.allocate');
    // who the root may act on and which roles it may give: the server's tables, not the client's copy
    expect(auth.json.result).toMatchObject({
      acts_on: ['admin', 'dic_admin', 'user_admin', 'user'],
      grantable: ['admin', 'dic_admin', 'user_admin', 'user'],
    });
    // reviewed once only
    expect((await admin('application', 'list', '--status', 'approved')).join('\n')).toContain('晨报编辑部');
    await expect(admin('application', 'refuse', String(applied.json.result.id))).rejects.toThrow();
  });

  it('an invitation reaches the invitee live and by SMS; accepting makes a member; no second invite', async () => {
    const client = await SocketClient.open(base, tokens.member);
    try {
      const res = await post('/enterprise/v1/invite_or_apply', { type: 1, phone: phones.member }, tokens.boss);
      expect(res.status).toBe(200);
      const live = await client.next();
      expect(live).toMatchObject({ type: 5, cmd: 3, data: { id: res.json.result.id, enterprise_name: '晨报编辑部' } });
      const sms = smsOutbox().filter((m) => m.phone === phones.member && m.purpose === 'invite');
      expect(sms).toHaveLength(1);
      expect(sms[0].link).toMatch(/^http:\/\/localhost:\d+\/workbench\/sms_invite\?sms_invitation_code=[\w-]+$/);
      const twice = await post('/enterprise/v1/inviteAndApply', { phones: [phones.member] }, tokens.boss);
      expect(twice.json.result).toEqual({
        invited: 0,
        failed: [{ phone: phones.member, reason: 'team.already_invited' }],
      });

      const pending = await get('/enterprise/user/v1/get_enterprise_invitation', tokens.member);
      expect(pending.json.result).toEqual([
        expect.objectContaining({ id: res.json.result.id, enterprise_id: team, enterprise_name: '晨报编辑部' }),
      ]);
      // /sms_invite names the team before the link is accepted; only the invited phone's account learns it
      const linkCode = new URL(sms[0].link!).searchParams.get('sms_invitation_code')!;
      const info = `/enterprise/user/v1/get_apply_enterprise_info?sms_invitation_code=${linkCode}`;
      expect((await get(info, tokens.member)).json.result).toMatchObject({
        enterprise_id: team,
        name: '晨报编辑部',
        status: 4,
      });
      const stranger = await get(info, tokens.applicant);
      expect([stranger.status, stranger.json.msg_code]).toEqual([403, 'team.invitation_not_yours']);
      const unknown = await get(
        '/enterprise/user/v1/get_apply_enterprise_info?sms_invitation_code=nosuch',
        tokens.member,
      );
      expect([unknown.status, unknown.json.msg_code]).toEqual([404, 'team.unknown_invitation']);
      const accepted = await post(
        '/enterprise/v1/pass_apply_or_invite',
        { id: res.json.result.id, pass: true },
        tokens.member,
      );
      expect(accepted.status).toBe(200);
      const answeredTwice = await post(
        '/enterprise/v1/pass_apply_or_invite',
        { id: res.json.result.id, pass: true },
        tokens.member,
      );
      expect([answeredTwice.status, answeredTwice.json.msg_code]).toEqual([409, 'team.already_answered']);
      // the link of an answered invitation no longer works
      const code = new URL(sms[0].link!).searchParams.get('sms_invitation_code')!;
      const reused = await get(
        `/enterprise/user/v1/join_enterprise_by_link?sms_invitation_code=${code}`,
        tokens.member,
      );
      expect([reused.status, reused.json.msg_code]).toEqual([404, 'team.unknown_invitation']);
      expect((await get('/enterprise/v1/get_user_info', tokens.member)).json.result).toMatchObject({ role: 'user' });
      // the account says it is in a team (spec §3 user_identity 1 member, 2 administrator)
      expect((await get('/user/user_info', tokens.member)).json.result).toMatchObject({
        enterprise_id: team,
        user_identity: 1,
      });
      expect((await get('/user/user_info', tokens.boss)).json.result.user_identity).toBe(2);
    } finally {
      await client.close();
    }
  });

  it("the root allocates 10,000 characters; a member's check flags a leader's wrong title; metrics", async () => {
    const packageId = await grantTeamPackage(t.app.db, {
      enterpriseId: team,
      productName: '团队版（年付）',
      orderId: null,
      expiresAt: null,
      rights: [{ user_right_type: 1, num: 50_000 }],
    });
    const rightBefore = (await get('/user/v1/get_user_right?user_right_type=1', tokens.member)).json.result;
    const allocated = await post(
      '/enterprise/right_product_package/v1/allocate_user',
      { package_id: packageId, uids: [uids.member], user_right_type: 1, num: 10_000 },
      tokens.boss,
    );
    expect(allocated.status).toBe(200);
    const rightAfter = (await get('/user/v1/get_user_right?user_right_type=1', tokens.member)).json.result;
    expect(rightAfter.disposable_num - rightBefore.disposable_num).toBe(10_000);
    const tooMuch = await post(
      '/enterprise/right_product_package/v1/allocate_user',
      { package_id: packageId, uids: [uids.member, uids.boss], user_right_type: 1, num: 30_000 },
      tokens.boss,
    );
    expect([tooMuch.status, tooMuch.json.msg_code]).toEqual([409, 'team.package_short']);
    const packages = (await get('/enterprise/right_product_package/v1/get', tokens.boss)).json.result;
    expect(packages[0].rights[0]).toMatchObject({ total: 50_000, allocated: 10_000, remaining: 40_000 });

    expect(
      (
        await post(
          '/enterprise-dic/leader/batch',
          {
            action: 'add',
            items: [
              { name: '王建国', titles: ['市委书记'] },
              { name: '李红梅', titles: ['市长'] },
            ],
          },
          tokens.boss,
        )
      ).status,
    ).toBe(200);
    const client = await SocketClient.open(base, tokens.member);
    try {
      const run = await runCheck(base, tokens.member, client, { text: '市长王建国出席了今天的开幕式。' });
      expect(run.status).toBe(200);
      const finding = run.results.flatMap((r) => r.issues).find((i) => i.category === '12-1');
      expect(finding).toMatchObject({ original: '市长', suggestions: ['市委书记'] });
    } finally {
      await client.close();
    }
    const used = await get(
      `/enterprise/right_product_package/v1/get_allocated_info?package_id=${packageId}`,
      tokens.boss,
    );
    expect(used.json.result).toEqual([
      {
        uid: uids.member,
        name: expect.any(String),
        rights: [expect.objectContaining({ num: 10_000, used: expect.any(Number) })],
      },
    ]);
    const metrics = (await get('/enterprise/v2/get_metric', tokens.boss)).json.result;
    expect(metrics).toMatchObject({ check_count: 1, active_members: 1 });
    expect(metrics.word_count).toBeGreaterThan(10);
    expect(metrics.members[0]).toMatchObject({ uid: uids.member, check_count: 1 });
    expect(metrics.members[0].categories['12-1']).toBe(1);
    // members do not see metrics
    expect((await get('/enterprise/v2/get_metric', tokens.member)).status).toBe(403);
    expect((await get('/enterprise/v2/get_metric?start=2026-02-01&end=2025-01-01', tokens.boss)).status).toBe(400);
  });

  it("a member short of a right draws the rest from the team's packages (TEAM_POOL_FALLBACK)", async () => {
    const db = t.app.db;
    const pkg = await grantTeamPackage(db, {
      enterpriseId: team,
      productName: '精校包',
      orderId: null,
      expiresAt: null,
      rights: [{ user_right_type: 8192, num: 3_000 }],
    });
    const fine = async () => (await get('/user/v1/get_user_right?user_right_type=8192', tokens.member)).json.result;
    expect((await fine()).disposable_num).toBe(0);
    t.app.config.team.poolFallback = false;
    try {
      await expect(consumeRight(db, uids.member, 8192, 1_000, '精校')).rejects.toBeInstanceOf(InsufficientRight);
    } finally {
      t.app.config.team.poolFallback = true;
    }
    await consumeRight(db, uids.member, 8192, 1_000, '精校');
    // what was drawn is the member's allocation, all of it used
    const mine = (await get(`/enterprise/right_product_package/v1/get_allocated_info?package_id=${pkg}`, tokens.boss))
      .json.result;
    expect(mine).toEqual([
      expect.objectContaining({ uid: uids.member, rights: [expect.objectContaining({ num: 1_000, used: 1_000 })] }),
    ]);
    // more than the team can give is refused, and nothing moves from the team to the member
    await expect(consumeRight(db, uids.member, 8192, 5_000, '精校')).rejects.toBeInstanceOf(InsufficientRight);
    const left = (await get('/enterprise/right_product_package/v1/get', tokens.boss)).json.result.find(
      (p: { id: number }) => p.id === pkg,
    );
    expect(left.rights[0]).toMatchObject({ total: 3_000, allocated: 1_000, remaining: 2_000 });
    expect((await fine()).disposable_num).toBe(0);
  });

  it("a team plan bought by the root becomes the team's package, not the buyer's rights", async () => {
    const products = (await get('/user/right_product/get_list?type=1', tokens.boss)).json.result;
    const plan = products.find((p: { code: string }) => p.code === 'team_yearly');
    const { order_no } = (await get(`/pay/wx/native_prepay?product_id=${plan.id}`, tokens.boss)).json.result;
    const before = (await get('/user/v1/get_user_right?user_right_type=8192', tokens.boss)).json.result.disposable_num;
    const paid = await admin('order', 'paid', order_no);
    expect(paid.join('\n')).toContain(`became a right package of team ${team}`);
    const after = (await get('/user/v1/get_user_right?user_right_type=8192', tokens.boss)).json.result.disposable_num;
    expect(after).toBe(before);
    const packages = (await get('/enterprise/right_product_package/v1/get', tokens.boss)).json.result;
    const bought = packages.find(
      (p: { product_name: string; expire_time: string | null }) => p.product_name === '团队版（年付）' && p.expire_time,
    );
    expect(bought.rights.find((r: { user_right_type: number }) => r.user_right_type === 8192)).toMatchObject({
      total: 10_000_000,
      allocated: 0,
    });
    // the team card shows until when the team's rights run
    expect((await get('/enterprise/v1/get_user_info', tokens.boss)).json.result.equity_time).toBe(bought.expire_time);
  });

  it('an application by code reaches the member admins live; seats bound the team', async () => {
    const code = (await get('/enterprise/v2/get_enterprise_info', tokens.boss)).json.result.invitation_code;
    expect(code).toMatch(/^[\w-]{8,}$/);
    // members without members.invite do not see the code
    expect(
      (await get('/enterprise/v2/get_enterprise_info', tokens.member)).json.result.invitation_code,
    ).toBeUndefined();
    const info = await get(`/enterprise/user/v1/get_apply_enterprise_info?invitation_code=${code}`, tokens.applicant);
    expect(info.json.result).toMatchObject({ enterprise_id: team, name: '晨报编辑部', status: null });
    const bossSocket = await SocketClient.open(base, tokens.boss);
    try {
      const applied = await post(
        '/enterprise/user/v1/apply_join_enterprise',
        { invitation_code: code, name: '小周' },
        tokens.applicant,
      );
      expect(applied.status).toBe(200);
      expect(await bossSocket.next()).toMatchObject({
        type: 5,
        cmd: 4,
        data: { id: applied.json.result.id, applicant_name: '小周' },
      });
      expect((await get('/enterprise/v1/get_user_apply', tokens.boss)).json.result).toEqual({ result: 1 });
      const twice = await post(
        '/enterprise/user/v1/apply_join_enterprise',
        { invitation_code: code },
        tokens.applicant,
      );
      expect([twice.status, twice.json.msg_code]).toEqual([409, 'team.already_applied']);
      expect(
        (await post('/enterprise/v1/pass_apply_or_invite', { id: applied.json.result.id, pass: true }, tokens.boss))
          .status,
      ).toBe(200);
    } finally {
      await bossSocket.close();
    }
    // three seats: root, member, applicant; a fourth is refused
    const full = await post('/enterprise/v1/invite_or_apply', { type: 1, phone: phones.late }, tokens.boss);
    expect([full.status, full.json.msg_code]).toEqual([409, 'team.full']);
    const wrongCode = await post(
      '/enterprise/user/v1/apply_join_enterprise',
      { invitation_code: 'nosuchcode' },
      tokens.late,
    );
    expect([wrongCode.status, wrongCode.json.msg_code]).toEqual([404, 'team.unknown_code']);

    // a new code: the old one stops working at once, the new one is what get_enterprise_info shows
    expect((await post('/enterprise/v1/reset_invitation_code', {}, tokens.member)).status).toBe(403);
    const rotated = await post('/enterprise/v1/reset_invitation_code', {}, tokens.boss);
    expect(rotated.status).toBe(200);
    const fresh = rotated.json.result.invitation_code;
    expect(fresh).toMatch(/^[\w-]{8,}$/);
    expect(fresh).not.toBe(code);
    expect((await get('/enterprise/v2/get_enterprise_info', tokens.boss)).json.result.invitation_code).toBe(fresh);
    const old = await get(`/enterprise/user/v1/get_apply_enterprise_info?invitation_code=${code}`, tokens.late);
    expect([old.status, old.json.msg_code]).toEqual([404, 'team.unknown_code']);
    const byNew = await get(`/enterprise/user/v1/get_apply_enterprise_info?invitation_code=${fresh}`, tokens.late);
    expect(byNew.json.result).toMatchObject({ enterprise_id: team, status: null });
  });

  it('removing a member returns the unused allocation to the package and ends their access', async () => {
    const chars = async () =>
      (await get('/enterprise/right_product_package/v1/get', tokens.boss)).json.result[0].rights.find(
        (r: { user_right_type: number }) => r.user_right_type === 1,
      );
    const before = await chars();
    const removed = await post('/enterprise/v1/remove_enterprise_user', { uids: [uids.member] }, tokens.boss);
    expect(removed.json.result).toEqual({ count: 1 });
    const after = await chars();
    expect(after.allocated).toBeLessThan(before.allocated);
    expect(after.allocated).toBeGreaterThan(0); // what the member used stays used
    expect((await get('/enterprise/v1/get_user_info', tokens.member)).json.result).toBeNull();
    expect((await get('/enterprise-dic/leader/list', tokens.member)).status).toBe(403);
    const again = await post('/enterprise/v1/remove_enterprise_user', { uids: [uids.member] }, tokens.boss);
    expect([again.status, again.json.msg_code]).toEqual([404, 'team.unknown_member']);
  });

  it('a team withdraws an invitation: its link stops working; another team cannot withdraw it', async () => {
    const res = await post('/enterprise/v1/invite_or_apply', { type: 1, phone: phones.late }, tokens.boss);
    expect(res.status).toBe(200);
    const link = smsOutbox()
      .filter((m) => m.phone === phones.late && m.purpose === 'invite')
      .pop()!.link!;
    const code = new URL(link).searchParams.get('sms_invitation_code')!;
    const outsider = await register(t, '13920000021');
    const foreign = await post('/enterprise/v1/cancel_invitation', { id: res.json.result.id }, outsider);
    expect(foreign.status).toBe(403);
    expect((await post('/enterprise/v1/cancel_invitation', { id: res.json.result.id }, tokens.boss)).status).toBe(200);
    const again = await post('/enterprise/v1/cancel_invitation', { id: res.json.result.id }, tokens.boss);
    expect([again.status, again.json.msg_code]).toEqual([409, 'team.already_answered']);
    const used = await get(`/enterprise/user/v1/join_enterprise_by_link?sms_invitation_code=${code}`, tokens.late);
    expect([used.status, used.json.msg_code]).toEqual([404, 'team.unknown_invitation']);
    expect((await get('/enterprise/user/v1/get_enterprise_invitation', tokens.late)).json.result).toEqual([]);
  });

  it('an expired SMS link is refused; another phone cannot use a link', async () => {
    const res = await post('/enterprise/v1/invite_or_apply', { type: 1, phone: phones.member }, tokens.boss);
    expect(res.status).toBe(200);
    const link = smsOutbox()
      .filter((m) => m.phone === phones.member && m.purpose === 'invite')
      .pop()!.link!;
    const code = new URL(link).searchParams.get('sms_invitation_code')!;
    const stranger = await get(`/enterprise/user/v1/join_enterprise_by_link?sms_invitation_code=${code}`, tokens.late);
    expect([stranger.status, stranger.json.msg_code]).toEqual([403, 'team.invitation_not_yours']);
    await t.app.db
      .updateTable('enterprise_members')
      .set({ invite_expires_at: '2020-01-01T00:00:00.000Z' })
      .where('invite_code', '=', code)
      .execute();
    const expired = await get(`/enterprise/user/v1/join_enterprise_by_link?sms_invitation_code=${code}`, tokens.member);
    expect([expired.status, expired.json.msg_code]).toEqual([404, 'team.invitation_expired']);
    expect((await get('/enterprise/v1/get_user_info', tokens.member)).json.result).toBeNull();
  });

  it('the root cannot quit or be removed; after a transfer the old root can leave', async () => {
    const quit = await post('/enterprise/v1/quit_enterprise', {}, tokens.boss);
    expect([quit.status, quit.json.msg_code]).toEqual([403, 'team.root_cannot_quit']);
    const transferred = await post('/enterprise/v1/transfer_root', { uid: uids.applicant }, tokens.boss);
    expect(transferred.status).toBe(200);
    expect((await get('/enterprise/v1/get_user_auth', tokens.applicant)).json.result.role).toBe('root');
    // the new root may remove the old one (now an admin); the old one may no longer act on the root
    const demoted = await post('/enterprise/v1/modify_user_auth', { uid: uids.applicant, role: 'user' }, tokens.boss);
    expect([demoted.status, demoted.json.msg_code]).toEqual([403, 'team.cannot_act_on_member']);
    expect((await post('/enterprise/v1/quit_enterprise', {}, tokens.boss)).status).toBe(200);
    expect((await get('/enterprise/v1/get_user_info', tokens.boss)).json.result).toBeNull();
  });

  it('guards: phone search by last digits, ceilings within the package, invitations after the inviter', async () => {
    // searching the middle of a phone finds nothing (the list shows phones masked); the last four digits do
    const middle = await get(
      `/enterprise/v1/get_enterprise_members?keyword=${phones.boss.slice(3, 7)}`,
      tokens.applicant,
    );
    expect(middle.json.result.total).toBe(0);
    const last = await get(
      `/enterprise/v1/get_enterprise_members?keyword=${phones.applicant.slice(-4)}`,
      tokens.applicant,
    );
    expect(last.json.result.list.map((m: { uid: number }) => m.uid)).toEqual([uids.applicant]);

    // a ceiling (characters per check) cannot be allocated above what the package holds
    const pkg = await grantTeamPackage(t.app.db, {
      enterpriseId: team,
      productName: '上限包',
      orderId: null,
      expiresAt: null,
      rights: [{ user_right_type: 32, num: 50_000 }],
    });
    const over = await post(
      '/enterprise/right_product_package/v1/allocate_user',
      { package_id: pkg, uids: [uids.applicant], user_right_type: 32, num: 1_000_000_000 },
      tokens.applicant,
    );
    expect([over.status, over.json.msg_code]).toEqual([409, 'team.package_short']);

    // an admin's invitation as admin gives a plain member once the admin lost the role
    const seats = await t.app.db.updateTable('enterprises').set({ equity_num: 10 }).where('id', '=', team).execute();
    expect(seats).toBeDefined();
    const adminPhone = '13920000005';
    const guestPhone = '13920000006';
    const adminToken = await register(t, adminPhone);
    const guestToken = await register(t, guestPhone);
    const adminUid = (await get('/user/user_info', adminToken)).json.result.uid;
    const invited = await post('/enterprise/v1/invite_or_apply', { type: 1, phone: adminPhone }, tokens.applicant);
    await post('/enterprise/v1/pass_apply_or_invite', { id: invited.json.result.id, pass: true }, adminToken);
    await post('/enterprise/v1/modify_user_auth', { uid: adminUid, role: 'admin' }, tokens.applicant);
    const asAdmin = await post('/enterprise/v1/inviteAndApply', { phones: [guestPhone], role: 'admin' }, adminToken);
    expect(asAdmin.json.result.invited).toBe(1);
    await post('/enterprise/v1/modify_user_auth', { uid: adminUid, role: 'user' }, tokens.applicant);
    const [invitation] = (await get('/enterprise/user/v1/get_enterprise_invitation', guestToken)).json.result;
    expect(invitation.role).toBe('admin');
    await post('/enterprise/v1/pass_apply_or_invite', { id: invitation.id, pass: true }, guestToken);
    expect((await get('/enterprise/v1/get_user_auth', guestToken)).json.result).toMatchObject({
      role: 'user',
      acts_on: [],
      grantable: [],
    });

    // applying by a team's id is refused: the team's code is the way in
    const byId = await post('/enterprise/v1/invite_or_apply', { type: 2, enterprise_id: team }, tokens.late);
    expect([byId.status, byId.json.msg_code]).toEqual([403, 'team.apply_with_code']);
  });

  it('a phone gets at most three invitations a day from all teams', async () => {
    const target = '13920000007';
    const roots: string[] = [];
    for (let i = 0; i < 4; i++) {
      const phone = `1392000001${i}`;
      roots.push(await register(t, phone));
      expect((await admin('team', 'create', '--name', `邀请团队${i}`, '--admin', phone))[0]).toMatch(/created team/);
    }
    for (const token of roots.slice(0, 3))
      expect((await post('/enterprise/v1/invite_or_apply', { type: 1, phone: target }, token)).status).toBe(200);
    const refused = await post('/enterprise/v1/invite_or_apply', { type: 1, phone: target }, roots[3]);
    expect([refused.status, refused.json.msg_code]).toEqual([429, 'team.phone_invited_too_often']);
    // and nothing was sent for the refused one
    expect(smsOutbox().filter((m) => m.phone === target && m.purpose === 'invite')).toHaveLength(3);
  });

  it('leader dictionary: order, history, bad input', async () => {
    const list = (await get('/enterprise-dic/leader/list', tokens.applicant)).json.result;
    expect(list.list.map((l: { name: string }) => l.name)).toEqual(['王建国', '李红梅']);
    const ids = list.list.map((l: { id: number }) => l.id);
    expect((await post('/enterprise-dic/leader/sort', { ids: [ids[0]] }, tokens.applicant)).json.msg_code).toBe(
      'leader.bad_order',
    );
    expect((await post('/enterprise-dic/leader/sort', { ids: [...ids].reverse() }, tokens.applicant)).status).toBe(200);
    const dup = await post('/enterprise-dic/leader/add', { name: '王建国', titles: ['主任'] }, tokens.applicant);
    expect([dup.status, dup.json.msg_code]).toEqual([409, 'leader.duplicate']);
    const bad = await post('/enterprise-dic/leader/add', { name: 'Tom', titles: ['主任'] }, tokens.applicant);
    expect([bad.status, bad.json.msg_code]).toEqual([400, 'leader.name_invalid']);
    const updated = await put(
      `/enterprise-dic/leader/update/${ids[0]}`,
      { name: '王建国', titles: ['市委书记', '市人大常委会主任'] },
      tokens.applicant,
    );
    expect(updated.json.result.titles).toEqual(['市委书记', '市人大常委会主任']);
    const history = (await get('/enterprise-dic/leader/history', tokens.applicant)).json.result;
    expect(history.list.map((h: { action: string }) => h.action)).toEqual(['update', 'sort', 'batch_add']);
    expect(history.list[0].summary).toContain('市人大常委会主任');
  });
});

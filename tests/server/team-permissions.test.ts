import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from '../../server/db/repos/users';
import { issueToken } from '../../server/domain/accounts/tokens';
import { addLeader } from '../../server/domain/dictionaries/leaders';
import { applyToTeam, invitationCodeOf, invitePhone, type TeamDeps } from '../../server/domain/teams/members';
import { grantTeamPackage } from '../../server/domain/teams/packages';
import {
  addMember,
  createTeam,
  permissionMatrix,
  teamContext,
  TEAM_PERMISSIONS,
  type TeamAction,
} from '../../server/domain/teams/teams';
import { nowIso } from '../../server/db';
import { call, startTestApp, type TestApp } from './helpers';

/**
 * Every team call run as each of the six roles (free = no team, user, user_admin, dic_admin, admin, root) and as
 * an admin of another team, against a fresh team each time (so one call's change cannot decide another's answer).
 * What is allowed comes from the server's permission table (domain/teams/teams.ts TEAM_PERMISSIONS), which the README's
 * matrix is checked against below.
 */

const ROLES = ['free', 'user', 'user_admin', 'dic_admin', 'admin', 'root', 'other'] as const;
type Actor = (typeof ROLES)[number];

let t: TestApp;
let phoneSeq = 0;
const nextPhone = () => `166${String(++phoneSeq).padStart(8, '0')}`;

interface Person {
  uid: number;
  phone: string;
  token: string;
}

interface World {
  team: number;
  teamName: string;
  actors: Record<Actor, Person>;
  target: Person;
  applicationId: number;
  inviteCode: string;
  invitationId: number;
  invitationCode: string;
  packageId: number;
  leaderIds: number[];
}

let worldSeq = 0;

async function person(): Promise<Person> {
  const db = t.app.db;
  const phone = nextPhone();
  const user = await insertUser(db, {
    phone,
    login_id: null,
    name: `用户${phone.slice(-4)}`,
    role: 'free',
    user_identity: 0,
    enterprise_id: null,
    password_hash: 'x',
    created_at: nowIso(),
    closed_at: null,
  });
  return { uid: Number(user.uid), phone, token: await issueToken(db, Number(user.uid)) };
}

const deps = (): TeamDeps => ({
  db: t.app.db,
  sms: t.app.sms,
  notify: (uid, message) => t.app.realtime.sendToUser(uid, message),
  inviteDays: t.app.config.team.inviteDays,
  origin: t.app.config.origin,
});

async function world(): Promise<World> {
  const db = t.app.db;
  const teamName = `权限团队${++worldSeq}`;
  const root = await person();
  const team = await createTeam(db, { name: teamName, adminUid: root.uid, adminPhone: root.phone, seats: 50 });
  const member = async (role: 'admin' | 'user_admin' | 'dic_admin' | 'user') => {
    const p = await person();
    await addMember(db, { enterpriseId: team, uid: p.uid, phone: p.phone, role });
    return p;
  };
  const admin = await member('admin');
  const actors = {
    root,
    admin,
    user_admin: await member('user_admin'),
    dic_admin: await member('dic_admin'),
    user: await member('user'),
    free: await person(),
    other: await person(),
  };
  const target = await member('user');
  const otherRoot = await person();
  const otherTeam = await createTeam(db, {
    name: `另一团队${worldSeq}`,
    adminUid: otherRoot.uid,
    adminPhone: otherRoot.phone,
    seats: 20,
  });
  await addMember(db, { enterpriseId: otherTeam, uid: actors.other.uid, phone: actors.other.phone, role: 'admin' });
  const applicant = await person();
  const applicationId = await applyToTeam(deps(), applicant.uid, team, {});
  const invitee = await person();
  const invitationId = await invitePhone(deps(), await teamContext(db, root.uid), invitee.phone);
  const row = await db
    .selectFrom('enterprise_members')
    .select('invite_code')
    .where('id', '=', invitationId)
    .executeTakeFirstOrThrow();
  const packageId = await grantTeamPackage(db, {
    enterpriseId: team,
    productName: '团队版',
    orderId: null,
    expiresAt: null,
    rights: [{ user_right_type: 1, num: 1_000_000 }],
  });
  const owner = { kind: 'team' as const, id: team };
  const l1 = await addLeader(db, owner, root.uid, { name: '张建国', titles: ['市长'] });
  const l2 = await addLeader(db, owner, root.uid, { name: '李卫东', titles: ['副市长'] });
  return {
    team,
    teamName,
    actors,
    target,
    applicationId,
    inviteCode: row.invite_code!,
    invitationId,
    invitationCode: await invitationCodeOf(db, team),
    packageId,
    leaderIds: [l1.id, l2.id],
  };
}

/**
 * `action`: the permission the call needs in the caller's team. Other kinds: `anyone` (any account), `join` (only
 * accounts in no team; members get 409), `operator` (site operators only), `invitee` (only the invited phone),
 * `quit` (members but the root), `transfer` (the root only), `never` (refused to everyone: applying by a team's id).
 * `ids`: the call names this team's objects, so an admin of another team gets `otherStatus` (404: not revealed).
 */
interface Case {
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  url: (w: World) => string;
  body?: (w: World) => unknown;
  action: TeamAction | 'anyone' | 'join' | 'operator' | 'invitee' | 'quit' | 'transfer' | 'never';
  ids?: boolean;
  otherStatus?: number;
  freeStatus?: number;
  /** the team is shown by design (to whoever holds its invitation code) */
  shows?: true;
}

const CASES: Case[] = [
  {
    name: 'team-application',
    method: 'POST',
    url: () => '/enterprise/v1/team-application',
    action: 'join',
    body: () => ({ name: '新团队', contact_name: '王', phone: '13900000000', user_num: 5 }),
  },
  {
    name: 'add_one_checkno',
    method: 'POST',
    url: () => '/crm/component/app/add_one_checkno',
    action: 'anyone',
    body: () => ({ name: '王', phone: '13900000000', usage: '接入校对' }),
  },
  {
    name: 'inviteAndApply',
    method: 'POST',
    url: () => '/enterprise/v1/inviteAndApply',
    action: 'members.invite',
    body: () => ({ phones: [nextPhone()] }),
  },
  {
    name: 'invite_or_apply type 1',
    method: 'POST',
    url: () => '/enterprise/v1/invite_or_apply',
    action: 'members.invite',
    body: () => ({ type: 1, phone: nextPhone() }),
  },
  {
    name: 'invite_or_apply type 2',
    method: 'POST',
    url: () => '/enterprise/v1/invite_or_apply',
    action: 'never',
    body: (w) => ({ type: 2, enterprise_id: w.team }),
  },
  {
    name: 'apply_join_enterprise',
    method: 'POST',
    url: () => '/enterprise/user/v1/apply_join_enterprise',
    action: 'join',
    body: (w) => ({ invitation_code: w.invitationCode }),
  },
  {
    name: 'cancel_invitation',
    method: 'POST',
    url: () => '/enterprise/v1/cancel_invitation',
    action: 'members.invite',
    ids: true,
    body: (w) => ({ id: w.invitationId }),
  },
  {
    name: 'reset_invitation_code',
    method: 'POST',
    url: () => '/enterprise/v1/reset_invitation_code',
    action: 'members.invite',
  },
  {
    name: 'get_enterprise_invitation',
    method: 'GET',
    url: () => '/enterprise/user/v1/get_enterprise_invitation',
    action: 'anyone',
  },
  {
    name: 'pass_apply_or_invite',
    method: 'POST',
    url: () => '/enterprise/v1/pass_apply_or_invite',
    action: 'applications.answer',
    ids: true,
    freeStatus: 404,
    body: (w) => ({ id: w.applicationId, pass: true }),
  },
  { name: 'get_user_apply', method: 'GET', url: () => '/enterprise/v1/get_user_apply', action: 'anyone' },
  {
    name: 'get_apply_enterprise_info',
    method: 'GET',
    action: 'anyone',
    shows: true,
    url: (w) => `/enterprise/user/v1/get_apply_enterprise_info?invitation_code=${w.invitationCode}`,
  },
  {
    name: 'join_enterprise_by_link',
    method: 'GET',
    action: 'invitee',
    url: (w) => `/enterprise/user/v1/join_enterprise_by_link?sms_invitation_code=${w.inviteCode}`,
  },
  { name: 'get_user_info', method: 'GET', url: () => '/enterprise/v1/get_user_info', action: 'anyone' },
  { name: 'get_enterprise_info', method: 'GET', url: () => '/enterprise/v2/get_enterprise_info', action: 'team.view' },
  { name: 'get_metric', method: 'GET', url: () => '/enterprise/v2/get_metric', action: 'metrics.view' },
  {
    name: 'get_enterprise_members',
    method: 'GET',
    url: () => '/enterprise/v1/get_enterprise_members',
    action: 'members.view',
  },
  {
    name: 'remove_enterprise_user',
    method: 'POST',
    url: () => '/enterprise/v1/remove_enterprise_user',
    action: 'members.remove',
    ids: true,
    body: (w) => ({ uids: [w.target.uid] }),
  },
  {
    name: 'modify_user_auth',
    method: 'POST',
    url: () => '/enterprise/v1/modify_user_auth',
    action: 'roles.change',
    ids: true,
    body: (w) => ({ uid: w.target.uid, role: 'dic_admin' }),
  },
  {
    name: 'updateAuth',
    method: 'POST',
    url: () => '/enterprise/v1/updateAuth',
    action: 'roles.change',
    ids: true,
    body: (w) => ({ uids: [w.target.uid], role: 'user_admin' }),
  },
  { name: 'get_user_auth', method: 'GET', url: () => '/enterprise/v1/get_user_auth', action: 'anyone' },
  {
    name: 'update_enterprise_username (another member)',
    method: 'POST',
    action: 'members.status',
    ids: true,
    url: () => '/enterprise/user/v1/update_enterprise_username',
    body: (w) => ({ uid: w.target.uid, name: '小王' }),
  },
  {
    name: 'update_enterprise_username (own)',
    method: 'POST',
    action: 'team.view',
    url: () => '/enterprise/user/v1/update_enterprise_username',
    body: () => ({ name: '我自己' }),
  },
  { name: 'quit_enterprise', method: 'POST', url: () => '/enterprise/v1/quit_enterprise', action: 'quit' },
  {
    name: 'modify_enterprise_user_status',
    method: 'POST',
    url: () => '/enterprise/v1/modify_enterprise_user_status',
    action: 'members.status',
    ids: true,
    body: (w) => ({ uids: [w.target.uid], status: 3 }),
  },
  {
    name: 'transfer_root',
    method: 'POST',
    url: () => '/enterprise/v1/transfer_root',
    action: 'transfer',
    body: (w) => ({ uid: w.target.uid }),
  },
  { name: 'admin applications', method: 'GET', url: () => '/admin/v1/applications', action: 'operator' },
  {
    name: 'admin review',
    method: 'POST',
    url: () => '/admin/v1/applications/review',
    action: 'operator',
    body: () => ({ id: 1, approve: false }),
  },
  {
    name: 'right package get',
    method: 'GET',
    url: () => '/enterprise/right_product_package/v1/get',
    action: 'rights.view',
  },
  {
    name: 'right package allocated',
    method: 'GET',
    action: 'rights.view',
    ids: true,
    url: (w) => `/enterprise/right_product_package/v1/get_allocated_info?package_id=${w.packageId}`,
  },
  {
    name: 'right package allocate',
    method: 'POST',
    url: () => '/enterprise/right_product_package/v1/allocate_user',
    action: 'rights.allocate',
    ids: true,
    body: (w) => ({ package_id: w.packageId, uids: [w.target.uid], user_right_type: 1, num: 1000 }),
  },
  { name: 'leader list', method: 'GET', url: () => '/enterprise-dic/leader/list', action: 'leader.read' },
  { name: 'leader history', method: 'GET', url: () => '/enterprise-dic/leader/history', action: 'leader.read' },
  {
    name: 'leader add',
    method: 'POST',
    url: () => '/enterprise-dic/leader/add',
    action: 'leader.manage',
    body: () => ({ name: '赵明', titles: ['秘书长'] }),
  },
  {
    name: 'leader batch add',
    method: 'POST',
    url: () => '/enterprise-dic/leader/batch',
    action: 'leader.manage',
    body: () => ({ action: 'add', items: [{ name: '钱进', titles: ['局长'] }] }),
  },
  {
    name: 'leader batch delete',
    method: 'POST',
    url: () => '/enterprise-dic/leader/batch',
    action: 'leader.manage',
    ids: true,
    body: (w) => ({ action: 'delete', ids: [w.leaderIds[1]] }),
  },
  {
    name: 'leader update',
    method: 'PUT',
    url: (w) => `/enterprise-dic/leader/update/${w.leaderIds[0]}`,
    action: 'leader.manage',
    ids: true,
    body: () => ({ name: '张建国', titles: ['市委书记'] }),
  },
  {
    name: 'leader sort',
    method: 'POST',
    url: () => '/enterprise-dic/leader/sort',
    action: 'leader.manage',
    ids: true,
    otherStatus: 400,
    body: (w) => ({ ids: [...w.leaderIds].reverse() }),
  },
  { name: 'personal leader list', method: 'GET', url: () => '/dict/v1/leader/list', action: 'anyone' },
  { name: 'personal leader history', method: 'GET', url: () => '/dict/v1/leader/history', action: 'anyone' },
  {
    name: 'personal leader add',
    method: 'POST',
    url: () => '/dict/v1/leader/add',
    action: 'anyone',
    body: () => ({ name: '孙立', titles: ['主任'] }),
  },
  {
    name: 'personal leader batch',
    method: 'POST',
    url: () => '/dict/v1/leader/batch',
    action: 'anyone',
    body: () => ({ action: 'add', items: [{ name: '周平', titles: ['处长'] }] }),
  },
  {
    name: 'shared dictionary list',
    method: 'GET',
    url: () => '/enterprise/v1/get_share_dictionary_list',
    action: 'dictionaries.read',
  },
  {
    name: 'shared dictionary create',
    method: 'POST',
    url: () => '/enterprise/v1/add_share_dic_info',
    action: 'dictionaries.manage',
    body: () => ({ name: '新词库' }),
  },
  {
    name: 'shared dictionary usage',
    method: 'GET',
    url: () => '/enterprise/v1/get_enterprise_dict_in_use',
    action: 'dictionaries.usage',
  },
];

function expected(c: Case, actor: Actor): number {
  switch (c.action) {
    case 'anyone':
      return 200;
    case 'operator':
    case 'invitee':
    case 'never':
      return 403;
    case 'join':
      return actor === 'free' ? 200 : 409;
    case 'quit':
      return actor === 'free' ? 404 : actor === 'root' ? 403 : 200;
    case 'transfer':
      return actor === 'root' ? 200 : 403;
  }
  const action = c.action;
  if (actor === 'free') return c.freeStatus ?? 403;
  if (actor === 'other') {
    if (!TEAM_PERMISSIONS.admin.includes(action)) return 403;
    return c.ids ? (c.otherStatus ?? 404) : 200;
  }
  return TEAM_PERMISSIONS[actor].includes(action) ? 200 : 403;
}

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

describe('every team call as every role', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const seen: string[] = [];
      const want: string[] = [];
      for (const actor of ROLES) {
        const w = await world();
        const res = await call(t.app, c.method, c.url(w), c.body?.(w), w.actors[actor].token);
        seen.push(`${actor} ${res.status}`);
        want.push(`${actor} ${expected(c, actor)}`);
        if (res.status === 403) expect(res.json.msg_code, `${c.name} as ${actor}`).toMatch(/^team\./);
        // another team's admin never sees this team's data
        if (actor === 'other' && res.status === 200 && !c.shows)
          expect(JSON.stringify(res.json)).not.toContain(w.teamName);
      }
      expect(seen).toEqual(want);
    });
  }

  it('an invitation is withdrawn only by a role that may give its role', async () => {
    const w = await world();
    const db = t.app.db;
    const invitee = await person();
    const forAdmin = await invitePhone(deps(), await teamContext(db, w.actors.root.uid), invitee.phone, '', 'admin');
    const cancel = (who: Actor) =>
      call(t.app, 'POST', '/enterprise/v1/cancel_invitation', { id: forAdmin }, w.actors[who].token);
    const refused = await cancel('user_admin');
    expect([refused.status, refused.json.msg_code]).toEqual([403, 'team.cannot_give_role']);
    expect((await cancel('admin')).status).toBe(200);
  });

  it('the invited phone itself may accept the SMS link; the operator may list applications', async () => {
    const w = await world();
    const invitation = await t.app.db
      .selectFrom('enterprise_members')
      .select(['uid', 'phone'])
      .where('invite_code', '=', w.inviteCode)
      .executeTakeFirstOrThrow();
    const invitee = await t.app.db
      .selectFrom('users')
      .select('uid')
      .where('phone', '=', invitation.phone)
      .executeTakeFirstOrThrow();
    const token = await issueToken(t.app.db, Number(invitee.uid));
    const res = await call(
      t.app,
      'GET',
      `/enterprise/user/v1/join_enterprise_by_link?sms_invitation_code=${w.inviteCode}`,
      undefined,
      token,
    );
    expect(res.status).toBe(200);
    expect(res.json.result).toEqual({ enterprise_id: w.team, name: w.teamName });
    const operator = await t.app.db
      .selectFrom('users')
      .select('uid')
      .where('role', '=', 'root')
      .executeTakeFirstOrThrow();
    const listed = await call(
      t.app,
      'GET',
      '/admin/v1/applications',
      undefined,
      await issueToken(t.app.db, Number(operator.uid)),
    );
    expect(listed.status).toBe(200);
  });
});

describe('the README matrix', () => {
  it('is the server permission table', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(permissionMatrix());
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, PG_BIN } from './pg-cluster';
import { call, register, startTestApp, type TestApp } from './helpers';
import { runAdmin } from '../../server/cli/admin';
import { checkerPool } from '../../server/workers/checker/pool';

// Teams and shared dictionaries on PostgreSQL: migration 0004, the CLI, the calls and /v2/check.
describe.skipIf(!PG_BIN)('teams and shared dictionaries on PostgreSQL', () => {
  const cluster = new Cluster();
  let t: TestApp;
  let adminToken: string;
  let memberToken: string;
  beforeAll(async () => {
    const url = await cluster.start();
    t = await startTestApp({ databaseUrl: url });
    await checkerPool().ready();
    adminToken = await register(t, '13900000051');
    memberToken = await register(t, '13900000052');
    const out: string[] = [];
    await runAdmin(['team', 'create', '--name', '编辑部', '--admin', '13900000051'], t.app.db, (l) => out.push(l));
    const team = /created team (\d+)/.exec(out[0])![1];
    await runAdmin(['team', 'add-member', '--team', team, '--phone', '13900000052', '--role', 'user'], t.app.db, (l) =>
      out.push(l),
    );
    await runAdmin(['team', 'list'], t.app.db, (l) => out.push(l));
    expect(out[3].split('\t').slice(0, 4)).toEqual([team, '编辑部', '2', '0']);
  }, 90_000);
  afterAll(async () => {
    await t?.close();
    await cluster.stop();
  });

  it('creates, fills, uses and deletes a shared dictionary; its words reach /v2/check', async () => {
    const created = await call(t.app, 'POST', '/enterprise/v1/add_share_dic_info', { name: '通用词库' }, adminToken);
    expect(created.json.result).toMatchObject({ name: '通用词库', in_use: true, user_count: 1, word_count: 0 });
    const id = created.json.result.id;
    expect(
      (await call(t.app, 'POST', '/enterprise/v1/add_share_dic_info', { name: '通用词库' }, adminToken)).status,
    ).toBe(409);
    expect(
      (
        await call(
          t.app,
          'POST',
          '/enterprise-dic/add_one',
          { dic_id: id, word: '阿里爸爸', type: 5, correct: '阿里巴巴' },
          adminToken,
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await call(
          t.app,
          'POST',
          '/enterprise-dic/add_one',
          { dic_id: id, word: '阿里爸爸', type: 5, correct: '阿里巴巴' },
          adminToken,
        )
      ).status,
    ).toBe(409);
    expect(
      (await call(t.app, 'POST', '/enterprise-dic/add_one', { dic_id: id, word: '随便', type: 4 }, memberToken)).status,
    ).toBe(403);
    await call(t.app, 'POST', '/dict/v1/add_one', { word: '萍果', type: 5, correct: '苹果' }, adminToken);
    expect(
      (await call(t.app, 'POST', '/enterprise-dic/person_to_enterprise_dic', { dic_id: id }, adminToken)).json.result,
    ).toEqual({ count: 1 });
    expect(
      (await call(t.app, 'POST', '/enterprise-dic/person_to_enterprise_dic', { dic_id: id }, adminToken)).json.result,
    ).toEqual({ count: 0 });
    const words = await call(t.app, 'POST', '/enterprise-dic/get_list', { dic_id: id, keyword: '巴巴' }, memberToken);
    expect(words.json.result).toMatchObject({ total: 1, list: [{ word: '阿里爸爸', correct: '阿里巴巴' }] });
    expect(
      (await call(t.app, 'GET', `/enterprise/v1/get_enterprise_dic?id=${id}`, undefined, memberToken)).json.result,
    ).toMatchObject({ word_count: 2, counts: { '5': 2 } });

    const check = async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v2/check',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${memberToken}` },
        payload: new URLSearchParams({ text: '我们和阿里爸爸签了合同。', language: 'zh-CN' }).toString(),
      });
      expect(res.statusCode).toBe(200);
      return res.json().matches.find((m: { rule: { id: string } }) => m.rule.id === 'ZH_CUSTOM_7');
    };
    expect(await check()).toBeUndefined();
    expect(
      (await call(t.app, 'POST', '/enterprise/v1/modify_share_dic_status', { id, status: 1 }, memberToken)).status,
    ).toBe(200);
    expect(await check()).toMatchObject({ offset: 3, length: 4, replacements: [{ value: '阿里巴巴' }] });
    expect(
      (await call(t.app, 'GET', '/enterprise/v1/get_enterprise_dict_in_use', undefined, adminToken)).json.result,
    ).toEqual([expect.objectContaining({ id, user_count: 2 })]);
    expect((await call(t.app, 'POST', '/enterprise/v1/delete_share_dic', { id }, adminToken)).status).toBe(200);
    expect(await check()).toBeUndefined();
  });

  it('members, invitations, packages, leaders and metrics on PostgreSQL', async () => {
    const guestToken = await register(t, '13900000053');
    const invited = await call(t.app, 'POST', '/enterprise/v1/inviteAndApply', { phones: ['13900000053'] }, adminToken);
    expect(invited.json.result).toEqual({ invited: 1, failed: [] });
    const [invitation] = (
      await call(t.app, 'GET', '/enterprise/user/v1/get_enterprise_invitation', undefined, guestToken)
    ).json.result;
    const answered = await call(
      t.app,
      'POST',
      '/enterprise/v1/pass_apply_or_invite',
      { id: invitation.id, pass: true },
      guestToken,
    );
    expect(answered.status).toBe(200);
    // the claim: a second answer finds it answered
    const again = await call(
      t.app,
      'POST',
      '/enterprise/v1/pass_apply_or_invite',
      { id: invitation.id, pass: true },
      guestToken,
    );
    expect(again.status).toBe(409);
    const page = await call(t.app, 'GET', '/enterprise/v1/get_enterprise_members?keyword=0053', undefined, adminToken);
    expect(page.json.result.list.map((m: { phone: string }) => m.phone)).toEqual(['139****0053']);

    const info = (await call(t.app, 'GET', '/enterprise/v1/get_user_info', undefined, adminToken)).json.result;
    const { grantTeamPackage } = await import('../../server/domain/teams/packages');
    const pkg = await grantTeamPackage(t.app.db, {
      enterpriseId: info.enterprise_id,
      productName: '团队版',
      orderId: null,
      expiresAt: null,
      rights: [{ user_right_type: 1, num: 30_000 }],
    });
    const guestUid = (await call(t.app, 'GET', '/user/user_info', undefined, guestToken)).json.result.uid;
    const allocated = await call(
      t.app,
      'POST',
      '/enterprise/right_product_package/v1/allocate_user',
      { package_id: pkg, uids: [guestUid], user_right_type: 1, num: 10_000 },
      adminToken,
    );
    expect(allocated.json.result).toEqual({ count: 1 });

    for (const [name, title] of [
      ['王建国', '市委书记'],
      ['李红梅', '市长'],
    ])
      expect(
        (await call(t.app, 'POST', '/enterprise-dic/leader/add', { name, titles: [title] }, adminToken)).status,
      ).toBe(200);
    const checked = await t.app.inject({
      method: 'POST',
      url: '/v2/check',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${guestToken}` },
      payload: new URLSearchParams({ text: '市长王建国出席了会议。', language: 'zh-CN' }).toString(),
    });
    expect(checked.statusCode).toBe(200);
    const metrics = (await call(t.app, 'GET', '/enterprise/v2/get_metric', undefined, adminToken)).json.result;
    // the member's /v2/check calls of the test before count too
    expect(metrics.members.find((m: { uid: number }) => m.uid === guestUid)).toMatchObject({
      check_count: 1,
      categories: { '12-1': 1 },
    });
    expect(metrics.daily.at(-1).check_count).toBe(metrics.check_count);
    expect(metrics.check_count).toBeGreaterThan(1);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../server/cli/admin';
import { checkerPool } from '../../server/workers/checker/pool';
import { call, register, startTestApp, type TestApp } from './helpers';
import { listen, runCheck, SocketClient } from './proofread-support';

/**
 * Teams and their shared dictionaries: every call, the permission table (admin / dic_admin / plain member /
 * outsider / another team), and the shared words applied to real checks over HTTP + the socket and /v2/check.
 */
let t: TestApp;
let base: string;
const phones = {
  admin: '13910000001',
  dicAdmin: '13910000002',
  member: '13910000003',
  outsider: '13910000004',
  otherAdmin: '13910000005',
  idle: '13910000006',
};
const tokens = {} as Record<keyof typeof phones, string>;
let team = 0;
let otherTeam = 0;

async function admin(...args: string[]) {
  const out: string[] = [];
  await runAdmin(args, t.app.db, (line) => out.push(line));
  return out;
}

const post = (url: string, body: unknown, token?: string) => call(t.app, 'POST', url, body, token);
const get = (url: string, token?: string) => call(t.app, 'GET', url, undefined, token);

beforeAll(async () => {
  t = await startTestApp();
  base = await listen(t);
  await checkerPool().ready();
  for (const [who, phone] of Object.entries(phones)) tokens[who as keyof typeof phones] = await register(t, phone);
  const created = await admin('team', 'create', '--name', '编辑部', '--admin', phones.admin, '--address', '北京市');
  team = Number(/created team (\d+)/.exec(created[0])![1]);
  await admin('team', 'add-member', '--team', String(team), '--phone', phones.dicAdmin, '--role', 'dic_admin');
  await admin('team', 'add-member', '--team', String(team), '--phone', phones.member, '--role', 'user');
  await admin('team', 'add-member', '--team', String(team), '--phone', phones.idle, '--role', 'user_admin');
  otherTeam = Number(
    /created team (\d+)/.exec(
      (await admin('team', 'create', '--name', '另一个团队', '--admin', phones.otherAdmin))[0],
    )![1],
  );
}, 60_000);
afterAll(async () => t.close());

describe('team info', () => {
  it("get_user_info gives the caller's team and role, null outside a team", async () => {
    const mine = await get('/enterprise/v1/get_user_info', tokens.dicAdmin);
    expect(mine.status).toBe(200);
    expect(mine.json).toMatchObject({
      code: 200,
      result: {
        enterprise_id: team,
        name: '编辑部',
        address: '北京市',
        user_num: 4,
        equity_num: 20,
        equity_time: null,
        role: 'dic_admin',
      },
    });
    expect((await get('/enterprise/v1/get_user_info', tokens.outsider)).json).toMatchObject({
      code: 200,
      result: null,
    });
    expect((await get('/enterprise/v1/get_user_info')).status).toBe(401);
    expect((await get('/user/user_info', tokens.member)).json.result.enterprise_id).toBe(team);
  });
});

let dictId = 0;
let otherDictId = 0;

describe('shared dictionaries', () => {
  it('admin and dic_admin create them; plain members and outsiders get 403; names are checked', async () => {
    const created = await post(
      '/enterprise/v1/add_share_dic_info',
      { name: ' 通用词库 ', description: '全团队' },
      tokens.admin,
    );
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({
      code: 200,
      result: {
        name: '通用词库',
        description: '全团队',
        word_count: 0,
        in_use: true,
        user_count: 1,
        creator_name: expect.any(String),
      },
    });
    dictId = created.json.result.id;
    expect((await post('/enterprise/v1/add_share_dic_info', { name: '术语库' }, tokens.dicAdmin)).status).toBe(200);

    const plain = await post('/enterprise/v1/add_share_dic_info', { name: '我的' }, tokens.member);
    expect(plain.status).toBe(403);
    expect(plain.json.msg).toMatch(/无权管理共享词库/);
    expect((await post('/enterprise/v1/add_share_dic_info', { name: '我的' }, tokens.idle)).status).toBe(403);
    const outsider = await post('/enterprise/v1/add_share_dic_info', { name: '我的' }, tokens.outsider);
    expect(outsider.status).toBe(403);
    expect(outsider.json.msg).toMatch(/还没有加入团队/);
    expect((await post('/enterprise/v1/add_share_dic_info', { name: '通用词库' }, tokens.dicAdmin)).status).toBe(409);
    expect((await post('/enterprise/v1/add_share_dic_info', { name: '   ' }, tokens.admin)).status).toBe(400);
    expect((await post('/enterprise/v1/add_share_dic_info', { name: 'x'.repeat(51) }, tokens.admin)).status).toBe(400);
    expect((await post('/enterprise/v1/add_share_dic_info', {}, tokens.admin)).status).toBe(400);
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/enterprise/v1/add_share_dic_info',
      headers: { authorization: `Bearer ${tokens.admin}`, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(malformed.statusCode).toBe(400);
    expect((await post('/enterprise/v1/add_share_dic_info', { name: '新' })).status).toBe(401);

    // the same name in another team is fine
    const other = await post('/enterprise/v1/add_share_dic_info', { name: '通用词库' }, tokens.otherAdmin);
    expect(other.status).toBe(200);
    otherDictId = other.json.result.id;
  });

  it('members list and read them; outsiders get 403 (share_dic_in_use: an empty list)', async () => {
    const list = await get('/enterprise/v1/get_share_dictionary_list', tokens.member);
    expect(list.status).toBe(200);
    expect(list.json.result.map((d: { name: string; in_use: boolean }) => [d.name, d.in_use])).toEqual([
      ['通用词库', false],
      ['术语库', false],
    ]);
    expect((await get('/enterprise/v1/get_dict_options', tokens.member)).json.result).toEqual([
      { id: dictId, name: '通用词库' },
      { id: expect.any(Number), name: '术语库' },
    ]);
    expect((await get('/enterprise/v1/get_share_dictionary_list', tokens.outsider)).status).toBe(403);
    expect((await get('/enterprise/v1/get_dict_options', tokens.outsider)).status).toBe(403);
    expect((await get('/enterprise/v1/share_dic_in_use', tokens.outsider)).json).toEqual({
      code: 200,
      msg: 'success',
      result: [],
    });
    expect(
      (await get('/enterprise/v1/share_dic_in_use', tokens.admin)).json.result.map((d: { id: number }) => d.id),
    ).toEqual([dictId]);
    const one = await get(`/enterprise/v1/get_enterprise_dic?id=${dictId}`, tokens.member);
    expect(one.json.result).toMatchObject({ id: dictId, name: '通用词库', counts: { '1': 0, '4': 0, '5': 0, '9': 0 } });
    expect((await get(`/enterprise/v1/get_enterprise_dic?id=${otherDictId}`, tokens.member)).status).toBe(404);
    expect((await get('/enterprise/v1/get_enterprise_dic?id=999999', tokens.member)).status).toBe(404);
    expect((await get(`/enterprise/v1/get_enterprise_dic?id=${dictId}`, tokens.outsider)).status).toBe(403);
    expect((await get('/enterprise/v1/get_enterprise_dic?id=abc', tokens.member)).status).toBe(400);
  });

  it('renames (admin / dic_admin only, unique in the team, other team 404)', async () => {
    const renamed = await post(
      '/enterprise/v1/modify_enterprise_dict',
      { id: dictId, name: '通用词表' },
      tokens.dicAdmin,
    );
    expect(renamed.status).toBe(200);
    expect(renamed.json.result).toMatchObject({ id: dictId, name: '通用词表', description: '全团队' });
    expect(
      (await post('/enterprise/v1/modify_enterprise_dict', { id: dictId, name: '术语库' }, tokens.admin)).status,
    ).toBe(409);
    expect(
      (await post('/enterprise/v1/modify_enterprise_dict', { id: dictId, name: '改名' }, tokens.member)).status,
    ).toBe(403);
    expect(
      (await post('/enterprise/v1/modify_enterprise_dict', { id: otherDictId, name: '改名' }, tokens.admin)).status,
    ).toBe(404);
    expect((await post('/enterprise/v1/modify_enterprise_dict', { id: dictId }, tokens.admin)).status).toBe(400);
    expect((await post('/enterprise/v1/modify_enterprise_dict', { id: dictId, name: '' }, tokens.admin)).status).toBe(
      400,
    );
  });
});

describe('words of a shared dictionary', () => {
  it("admin / dic_admin add words with the personal dictionary's rules; others are refused", async () => {
    const add = (token: string, body: Record<string, unknown>) =>
      post('/enterprise-dic/add_one', { dic_id: dictId, ...body }, token);
    const wrong = await add(tokens.dicAdmin, { word: '阿里爸爸', type: 5, correct: '阿里巴巴' });
    expect(wrong.status).toBe(200);
    expect(wrong.json.result).toMatchObject({ word: '阿里爸爸', type: 5, correct: '阿里巴巴' });
    expect((await add(tokens.admin, { word: '内部代号', type: 4 })).json.result).toMatchObject({
      type: 4,
      correct: null,
    });
    expect((await add(tokens.admin, { word: '季度目标', type: 9 })).status).toBe(200);
    expect((await add(tokens.admin, { word: '阿里爸爸', type: 5, correct: '阿里巴巴' })).status).toBe(409);
    expect((await add(tokens.admin, { word: '错词', type: 5 })).status).toBe(400);
    expect((await add(tokens.admin, { word: '错词', type: 5, correct: '错词' })).status).toBe(400);
    expect((await add(tokens.admin, { word: '词', type: 3 })).status).toBe(400);
    expect((await add(tokens.admin, { word: ' \n ', type: 4 })).status).toBe(400);
    const plain = await add(tokens.member, { word: '随便', type: 4 });
    expect(plain.status).toBe(403);
    expect(plain.json).toMatchObject({ code: 403, result: null });
    expect((await add(tokens.outsider, { word: '随便', type: 4 })).status).toBe(403);
    expect(
      (await post('/enterprise-dic/add_one', { dic_id: otherDictId, word: '随便', type: 4 }, tokens.admin)).status,
    ).toBe(404);
    expect(
      (await post('/enterprise-dic/add_one', { dic_id: dictId, word: '随便', type: 4 }, tokens.otherAdmin)).status,
    ).toBe(404);
  });

  it('lists words with paging, type and keyword for every member; not for other teams', async () => {
    const list = await post('/enterprise-dic/get_list', { dic_id: dictId, num: 1, size: 2 }, tokens.member);
    expect(list.status).toBe(200);
    expect(list.json.result).toMatchObject({ total: 3, num: 1, size: 2 });
    expect(list.json.result.list.map((w: { word: string }) => w.word)).toEqual(['季度目标', '内部代号']);
    expect(
      (await post('/enterprise-dic/get_list', { dic_id: dictId, type: 5 }, tokens.member)).json.result.list,
    ).toEqual([expect.objectContaining({ word: '阿里爸爸', correct: '阿里巴巴' })]);
    expect(
      (await post('/enterprise-dic/get_list', { dic_id: dictId, keyword: '巴巴' }, tokens.member)).json.result.total,
    ).toBe(1);
    expect(
      (await post('/enterprise-dic/get_list', { dic_id: dictId, keyword: '%' }, tokens.member)).json.result.total,
    ).toBe(0);
    expect((await post('/enterprise-dic/get_list', { dic_id: dictId }, tokens.otherAdmin)).status).toBe(404);
    expect((await post('/enterprise-dic/get_list', { dic_id: dictId }, tokens.outsider)).status).toBe(403);
    expect((await post('/enterprise-dic/get_list', { dic_id: dictId, size: 1000 }, tokens.member)).status).toBe(400);
    expect((await post('/enterprise-dic/get_list', {}, tokens.member)).status).toBe(400);
    expect((await get(`/enterprise/v1/get_enterprise_dic?id=${dictId}`, tokens.member)).json.result).toMatchObject({
      word_count: 3,
      counts: { '1': 0, '4': 1, '5': 1, '9': 1 },
    });
  });

  it('updates and deletes single words: managers only, other teams 404', async () => {
    const key = (await post('/enterprise-dic/get_list', { dic_id: dictId, type: 9 }, tokens.admin)).json.result.list[0];
    const upd = await post('/enterprise-dic/update_one', { id: key.id, word: '年度目标', type: 9 }, tokens.dicAdmin);
    expect(upd.status).toBe(200);
    expect(upd.json.result).toMatchObject({ id: key.id, word: '年度目标', type: 9 });
    expect(
      (
        await post(
          '/enterprise-dic/update_one',
          { id: key.id, word: '阿里爸爸', type: 5, correct: '阿里巴巴' },
          tokens.admin,
        )
      ).status,
    ).toBe(409);
    expect(
      (await post('/enterprise-dic/update_one', { id: key.id, word: '别的', type: 9 }, tokens.member)).status,
    ).toBe(403);
    expect(
      (await post('/enterprise-dic/update_one', { id: key.id, word: '别的', type: 9 }, tokens.otherAdmin)).status,
    ).toBe(404);
    expect((await post('/enterprise-dic/update_one', { id: 999999, word: '别的', type: 9 }, tokens.admin)).status).toBe(
      404,
    );
    expect((await post('/enterprise-dic/delete_one', { id: key.id }, tokens.member)).status).toBe(403);
    expect((await post('/enterprise-dic/delete_one', { id: key.id }, tokens.otherAdmin)).status).toBe(404);
    expect((await post('/enterprise-dic/delete_one', { id: key.id }, tokens.admin)).status).toBe(200);
    expect((await post('/enterprise-dic/delete_one', { id: key.id }, tokens.admin)).status).toBe(404);
    expect((await post('/enterprise-dic/delete_one', { id: 'x' }, tokens.admin)).status).toBe(400);
  });

  it('copies personal words, deletes many (own team only) and empties by type', async () => {
    await post('/dict/v1/add_one', { word: '萍果', type: 5, correct: '苹果' }, tokens.dicAdmin);
    await post('/dict/v1/add_one', { word: '小样', type: 9 }, tokens.dicAdmin);
    const foreign = (await post('/dict/v1/add_one', { word: '外人', type: 9 }, tokens.outsider)).json.result.id;
    const copied = await post('/enterprise-dic/person_to_enterprise_dic', { dic_id: dictId }, tokens.dicAdmin);
    expect(copied.json).toMatchObject({ code: 200, result: { count: 2 } });
    expect(
      (await post('/enterprise-dic/person_to_enterprise_dic', { dic_id: dictId }, tokens.dicAdmin)).json.result.count,
    ).toBe(0);
    expect(
      (await post('/enterprise-dic/person_to_enterprise_dic', { dic_id: dictId, ids: [foreign] }, tokens.dicAdmin))
        .status,
    ).toBe(404);
    expect((await post('/enterprise-dic/person_to_enterprise_dic', { dic_id: dictId }, tokens.member)).status).toBe(
      403,
    );
    expect(
      (await post('/enterprise-dic/person_to_enterprise_dic', { dic_id: otherDictId }, tokens.dicAdmin)).status,
    ).toBe(404);

    const otherWord = (
      await post('/enterprise-dic/add_one', { dic_id: otherDictId, word: '他们的', type: 9 }, tokens.otherAdmin)
    ).json.result.id;
    const words = (await post('/enterprise-dic/get_list', { dic_id: dictId, size: 100 }, tokens.admin)).json.result
      .list as Array<{ id: number; word: string }>;
    const copiedIds = words.filter((w) => w.word === '萍果' || w.word === '小样').map((w) => w.id);
    expect((await post('/enterprise-dic/delete_many', { ids: copiedIds }, tokens.member)).status).toBe(403);
    const many = await post('/enterprise-dic/delete_many', { ids: [...copiedIds, otherWord] }, tokens.admin);
    expect(many.json.result).toEqual({ count: 2 });
    expect((await post('/enterprise-dic/get_list', { dic_id: otherDictId }, tokens.otherAdmin)).json.result.total).toBe(
      1,
    );
    expect((await post('/enterprise-dic/delete_many', { ids: [] }, tokens.admin)).status).toBe(400);

    const scratch = (await post('/enterprise/v1/add_share_dic_info', { name: '临时' }, tokens.admin)).json.result.id;
    for (const [word, type] of [
      ['甲', 4],
      ['乙', 4],
      ['丙', 9],
    ] as const)
      await post('/enterprise-dic/add_one', { dic_id: scratch, word, type }, tokens.admin);
    expect((await post('/enterprise-dic/delete_all_word', { dic_id: scratch, type: 4 }, tokens.member)).status).toBe(
      403,
    );
    expect(
      (await post('/enterprise-dic/delete_all_word', { dic_id: scratch, type: 4 }, tokens.otherAdmin)).status,
    ).toBe(404);
    expect(
      (await post('/enterprise-dic/delete_all_word', { dic_id: scratch, type: 4 }, tokens.admin)).json.result,
    ).toEqual({ count: 2 });
    expect((await post('/enterprise-dic/delete_all_word', { dic_id: scratch }, tokens.admin)).json.result).toEqual({
      count: 1,
    });
    expect((await post('/enterprise/v1/delete_share_dic', { id: scratch }, tokens.member)).status).toBe(403);
    expect((await post('/enterprise/v1/delete_share_dic', { id: scratch }, tokens.otherAdmin)).status).toBe(404);
    expect((await post('/enterprise/v1/delete_share_dic', { id: scratch }, tokens.admin)).json).toEqual({
      code: 200,
      msg: '删除成功',
      result: null,
    });
    expect((await post('/enterprise/v1/delete_share_dic', { id: scratch }, tokens.admin)).status).toBe(404);
  });
});

describe('shared dictionaries in checks', () => {
  let client: SocketClient;
  beforeAll(async () => {
    client = await SocketClient.open(base, tokens.member);
  });
  afterAll(async () => client.close());

  const TEXT = '我们和阿里爸爸签了合同，这是内部代号，明天讨论这个问提。';
  const check = async (text = TEXT) => {
    const run = await runCheck(base, tokens.member, client, { text });
    expect(run.status).toBe(200);
    return run.results.flatMap((r) => r.issues);
  };

  it(
    'applies the team words only once the member uses the dictionary, with labels ' + '7 / 6, on the very next check',
    async () => {
      const before = await check();
      expect(before.find((i) => i.original === '阿里爸爸')).toBeUndefined();
      expect(before.find((i) => i.type === 6 || i.type === 7)).toBeUndefined();

      expect(
        (await post('/enterprise/v1/modify_share_dic_status', { id: dictId, status: 1 }, tokens.member)).json,
      ).toMatchObject({ code: 200, result: null });
      const after = await check();
      expect(after).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            original: '阿里爸爸',
            type: 7,
            suggestions: ['阿里巴巴'],
            start: TEXT.indexOf('阿里爸爸'),
          }),
          expect.objectContaining({ original: '内部代号', type: 6 }),
        ]),
      );
      expect(
        (await get('/enterprise/v1/share_dic_in_use', tokens.member)).json.result.map((d: { id: number }) => d.id),
      ).toEqual([dictId]);
      const usage = await get('/enterprise/v1/get_enterprise_dict_in_use', tokens.admin);
      // the creators use their dictionaries; the member now uses the first one too
      expect(usage.json.result.map((d: { name: string; user_count: number }) => [d.name, d.user_count])).toEqual([
        ['通用词表', 2],
        ['术语库', 1],
      ]);
      expect((await get('/enterprise/v1/get_enterprise_dict_in_use', tokens.member)).status).toBe(403);
      expect((await get('/enterprise/v1/get_enterprise_dict_in_use', tokens.outsider)).status).toBe(403);
    },
  );

  it('a word added while in use applies to the next check of the same text (type 10 key word)', async () => {
    expect((await check()).find((i) => i.type === 10)).toBeUndefined();
    await post('/enterprise-dic/add_one', { dic_id: dictId, word: '签了合同', type: 9 }, tokens.admin);
    expect(await check()).toEqual(
      expect.arrayContaining([expect.objectContaining({ original: '签了合同', type: 10 })]),
    );
  });

  it('a team allowed word silences an engine finding', async () => {
    const flagged = await check();
    expect(flagged).toEqual(expect.arrayContaining([expect.objectContaining({ original: '提', suggestions: ['题'] })]));
    const allowed = await post('/enterprise-dic/add_one', { dic_id: dictId, word: '问提', type: 1 }, tokens.admin);
    expect(allowed.status).toBe(200);
    const silenced = await check();
    expect(silenced.find((i) => i.start >= TEXT.indexOf('问提') && i.start < TEXT.indexOf('问提') + 2)).toBeUndefined();
    await post('/enterprise-dic/delete_one', { id: allowed.json.result.id }, tokens.admin);
  });

  it("the team's entry for a word wins over the member's own", async () => {
    const mine = await post('/dict/v1/add_one', { word: '阿里爸爸', type: 1 }, tokens.member);
    expect(mine.status).toBe(200);
    expect(await check()).toEqual(
      expect.arrayContaining([expect.objectContaining({ original: '阿里爸爸', type: 7, suggestions: ['阿里巴巴'] })]),
    );
    const removed = await call(
      t.app,
      'DELETE',
      `/dict/v1/delete_one?id=${mine.json.result.id}`,
      undefined,
      tokens.member,
    );
    expect(removed.status).toBe(200);
  });

  it('/v2/check applies the shared dictionaries too', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/check',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${tokens.member}` },
      payload: new URLSearchParams({ text: TEXT, language: 'zh-CN' }).toString(),
    });
    expect(res.statusCode).toBe(200);
    const match = res.json().matches.find((m: { offset: number }) => m.offset === TEXT.indexOf('阿里爸爸'));
    expect(match).toMatchObject({
      length: 4,
      replacements: [{ value: '阿里巴巴' }],
      rule: { id: 'ZH_CUSTOM_7', category: { id: 'CUSTOM' } },
    });
    const sensitive = res.json().matches.find((m: { offset: number }) => m.offset === TEXT.indexOf('内部代号'));
    expect(sensitive).toMatchObject({ rule: { id: 'ZH_CUSTOM_6', category: { id: 'CUSTOM' } } });
  });

  it('turning the dictionary off stops it on the next check; other teams cannot switch it on', async () => {
    expect(
      (await post('/enterprise/v1/modify_share_dic_status', { id: otherDictId, status: 1 }, tokens.member)).status,
    ).toBe(404);
    expect(
      (await post('/enterprise/v1/modify_share_dic_status', { id: dictId, status: 1 }, tokens.outsider)).status,
    ).toBe(403);
    expect(
      (await post('/enterprise/v1/modify_share_dic_status', { id: dictId, status: 2 }, tokens.member)).status,
    ).toBe(400);
    expect(
      (await post('/enterprise/v1/modify_share_dic_status', { id: dictId, status: 0 }, tokens.member)).json.msg,
    ).toBe('已停用');
    const off = await check();
    expect(off.find((i) => i.type === 6 || i.type === 7 || i.type === 10)).toBeUndefined();
    expect((await get('/enterprise/v1/share_dic_in_use', tokens.member)).json.result).toEqual([]);
  });

  it('deleting a dictionary removes it from the checks of everyone who used it', async () => {
    await post('/enterprise/v1/modify_share_dic_status', { id: dictId, status: 1 }, tokens.member);
    expect((await check()).find((i) => i.type === 7)).toBeDefined();
    expect((await post('/enterprise/v1/delete_share_dic', { id: dictId }, tokens.dicAdmin)).status).toBe(200);
    expect((await check()).find((i) => i.type === 6 || i.type === 7 || i.type === 10)).toBeUndefined();
    expect((await get('/enterprise/v1/share_dic_in_use', tokens.member)).json.result).toEqual([]);
  });
});

describe('admin CLI for teams', () => {
  it('lists teams and refuses bad input', async () => {
    const list = await admin('team', 'list');
    expect(list[0].split('\t')).toEqual(['id', 'name', 'members', 'dictionaries', 'address', 'created_at']);
    expect(list.slice(1).map((l) => l.split('\t').slice(0, 3))).toEqual([
      [String(team), '编辑部', '4'],
      [String(otherTeam), '另一个团队', '1'],
    ]);
    await expect(
      admin('team', 'add-member', '--team', String(team), '--phone', phones.otherAdmin, '--role', 'user'),
    ).rejects.toThrow(/该用户已是团队 \d+ 的成员/);
    await expect(
      admin('team', 'add-member', '--team', '999', '--phone', phones.outsider, '--role', 'user'),
    ).rejects.toThrow(/团队不存在：999/);
    await expect(
      admin('team', 'add-member', '--team', String(team), '--phone', phones.outsider, '--role', 'root'),
    ).rejects.toThrow(/--role must be one of admin, dic_admin, user_admin, user/);
    await expect(
      admin('team', 'add-member', '--team', 'x', '--phone', phones.outsider, '--role', 'user'),
    ).rejects.toThrow(/--team/);
    await expect(admin('team', 'create', '--name', '新团队', '--admin', '13999999999')).rejects.toThrow(
      /no open account/,
    );
    await expect(admin('team', 'create', '--admin', phones.outsider)).rejects.toThrow(/--name/);
    // changing a member's role
    await admin('team', 'add-member', '--team', String(team), '--phone', phones.member, '--role', 'dic_admin');
    expect((await get('/enterprise/v1/get_user_info', tokens.member)).json.result.role).toBe('dic_admin');
  });
});

describe('check rate limits', () => {
  let limited: TestApp;
  let token: string;
  beforeAll(async () => {
    limited = await startTestApp({ config: { checkRateLimit: { checkMax: 3, anonymousMax: 2, windowMs: 60_000 } } });
    token = await register(limited, '13910000099');
  });
  afterAll(async () => limited.close());

  it('check_text answers 429 with the envelope after the burst, per user', async () => {
    const attempt = (tk: string) =>
      limited.app.inject({
        method: 'POST',
        url: '/misscut/v2/check_text',
        headers: { authorization: `Bearer ${tk}`, session: 'no-such-session' },
        payload: { text: '你好。' },
      });
    // no live socket session: refused with 400, but each attempt counts
    for (let i = 0; i < 3; i++) expect((await attempt(token)).statusCode).toBe(400);
    const res = await attempt(token);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({
      code: 429,
      msg: expect.stringMatching(/^校对请求过于频繁：每个账号每 60 秒最多 3 次，请 \d+ 秒后再试$/),
      msg_code: 'rate.check_account',
      msg_params: { window: 60, max: 3, retry: expect.any(Number) },
      result: null,
    });
    const other = await register(limited, '13910000098');
    expect((await attempt(other)).statusCode).toBe(400);
  });

  it('/v2/check answers 429 in plain text per user, and per address without a token', async () => {
    const lt = (fields: Record<string, string>, bearer?: string) =>
      limited.app.inject({
        method: 'POST',
        url: '/v2/check',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        },
        payload: new URLSearchParams(fields).toString(),
      });
    for (let i = 0; i < 3; i++) expect((await lt({ text: '你好。', language: 'zh-CN' }, token)).statusCode).toBe(200);
    const limitedRes = await lt({ text: '你好。', language: 'zh-CN' }, token);
    expect(limitedRes.statusCode).toBe(429);
    expect(limitedRes.body).toMatch(/^Error: 校对请求过于频繁/);
    expect(String(limitedRes.headers['content-type'])).toMatch(/text\/plain/);

    for (let i = 0; i < 2; i++)
      expect(
        (await lt({ text: '你好。', language: 'zh-CN', username: '13910000099', apiKey: 'wb_wrong' })).statusCode,
      ).toBe(401);
    const anon = await lt({ text: '你好。', language: 'zh-CN', username: '13910000099', apiKey: 'wb_wrong' });
    expect(anon.statusCode).toBe(429);
    expect(anon.body).toMatch(/未登录时每个地址/);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp, TEST_USER, type FakeHandler } from './helpers';

afterEach(cleanup);

const ok = (result: unknown, msg = 'success') =>
  new Response(JSON.stringify({ code: 200, msg, result }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
const fail = (status: number, msg: string) =>
  new Response(JSON.stringify({ code: status, msg, result: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  });

describe('/redemption', () => {
  const balance: FakeHandler = () =>
    ok({
      user_right_type: 1,
      title: '高速校对字数',
      disposable_num: 20000,
      num_desc: '20000字',
      total_num: 20000,
      expire_time: null,
    });

  it('sends the cleaned code and shows what was granted', async () => {
    const app = renderApp({
      path: '/redemption',
      handlers: {
        'GET /user/v1/get_user_right': balance,
        'POST /user/right_coupon_code/v1/use': () =>
          ok({ granted: [{ user_right_type: 8192, title: '精校字数', num: 3000, num_desc: '3000字' }] }, '兑换成功'),
      },
    });
    await waitFor(() => expect(screen.getByTestId('redemption-balance').textContent).toContain('20,000'));
    const input = screen.getByRole('textbox', { name: /请输入兑换码/ });
    fireEvent.change(input, { target: { value: ' ab12 cd34-ef56 ' } });
    fireEvent.click(screen.getByTestId('redeem-submit'));
    await waitFor(() =>
      expect(app.server.bodyOf('POST /user/right_coupon_code/v1/use')).toEqual([{ code: 'AB12CD34-EF56' }]),
    );
    expect((await screen.findByTestId('redemption-success')).textContent).toContain('精校字数：3,000 字');
  });

  it('refuses a malformed code without calling the server, and names used and expired codes', async () => {
    const app = renderApp({ path: '/redemption', handlers: { 'GET /user/v1/get_user_right': balance } });
    const input = await screen.findByRole('textbox', { name: /请输入兑换码/ });
    fireEvent.change(input, { target: { value: 'x!' } });
    fireEvent.click(screen.getByTestId('redeem-submit'));
    expect(await screen.findByText('兑换码格式不正确')).toBeTruthy();
    expect(app.server.bodyOf('POST /user/right_coupon_code/v1/use')).toEqual([]);

    app.server.failNext('POST /user/right_coupon_code/v1/use', 409, '该兑换码已过期');
    fireEvent.change(input, { target: { value: 'AAAA-BBBB' } });
    fireEvent.click(screen.getByTestId('redeem-submit'));
    expect((await screen.findByTestId('redemption-error')).textContent).toBe('该兑换码已过期');

    app.server.failNext('POST /user/right_coupon_code/v1/use', 409, '该兑换码已被使用');
    fireEvent.click(screen.getByTestId('redeem-submit'));
    await waitFor(() => expect(screen.getByTestId('redemption-error').textContent).toBe('该兑换码已被使用'));

    app.server.failNext('POST /user/right_coupon_code/v1/use', 429, '请求过于频繁，请稍后再试');
    fireEvent.click(screen.getByTestId('redeem-submit'));
    await waitFor(() =>
      expect(screen.getByTestId('redemption-error').textContent).toBe('尝试次数过多，请 10 分钟后再试'),
    );
  });

  it('asks a logged-out visitor to log in first', async () => {
    renderApp({ path: '/redemption', loggedIn: false });
    expect(await screen.findByTestId('redemption-login')).toBeTruthy();
    expect(screen.getByRole('link', { name: '去登录' })).toBeTruthy();
  });

  it('speaks English', async () => {
    renderApp({ path: '/redemption', locale: 'en', handlers: { 'GET /user/v1/get_user_right': balance } });
    expect((await screen.findByTestId('redeem-submit')).textContent).toBe('Redeem');
  });
});

describe('/download', () => {
  it('shows the empty state', async () => {
    renderApp({
      path: '/download',
      handlers: { 'GET /user/download/page': () => ok({ total: 0, num: 1, size: 20, list: [] }) },
    });
    expect(await screen.findByTestId('downloads-empty')).toBeTruthy();
    expect(screen.getByText('暂无可下载的文件')).toBeTruthy();
  });

  it('lists files with size and dates, pages, and fetches a file again', async () => {
    const file = (id: number) => ({
      id,
      name: `导出${id}.docx`,
      mime: 'application/octet-stream',
      size: 1536,
      created_at: '2026-11-20T08:00:00.000Z',
      expires_at: '2026-11-27T08:00:00.000Z',
    });
    const app = renderApp({
      path: '/download',
      handlers: {
        'GET /user/download/page': (r) => {
          const num = Number(new URLSearchParams(r.search).get('num'));
          return ok({
            total: 21,
            num,
            size: 20,
            list: num === 1 ? Array.from({ length: 20 }, (_, i) => file(21 - i)) : [file(1)],
          });
        },
        'GET /user/download/file': () =>
          new Response('PK', { status: 200, headers: { 'content-type': 'application/octet-stream' } }),
      },
    });
    await waitFor(() => expect(screen.getAllByTestId('download-row')).toHaveLength(20));
    const first = screen.getAllByTestId('download-row')[0];
    expect(first.textContent).toContain('导出21.docx');
    expect(first.textContent).toContain('1.5 KB');
    fireEvent.click(screen.getByRole('button', { name: '下一页' }));
    await waitFor(() => expect(screen.getAllByTestId('download-row')).toHaveLength(1));
    let created = 0;
    URL.createObjectURL = () => {
      created++;
      return 'blob:test';
    };
    URL.revokeObjectURL = () => {};
    fireEvent.click(within(screen.getByTestId('download-row')).getByRole('button', { name: '下载 导出1.docx' }));
    await waitFor(() =>
      expect(app.server.requests.filter((r) => r.path === '/user/download/file').map((r) => r.search)).toEqual([
        '?id=1',
      ]),
    );
    await waitFor(() => expect(created).toBe(1));
  });
});

describe('/download: delete', () => {
  it('deletes a file after confirmation and refreshes the list', async () => {
    let files = [
      {
        id: 5,
        name: '旧导出.xlsx',
        mime: 'application/octet-stream',
        size: 10,
        created_at: '2026-11-20T08:00:00.000Z',
        expires_at: '2026-11-27T08:00:00.000Z',
      },
    ];
    const app = renderApp({
      path: '/download',
      handlers: {
        'GET /user/download/page': () => ok({ total: files.length, num: 1, size: 20, list: files }),
        'POST /user/download/delete': () => {
          files = [];
          return ok(null, '删除成功');
        },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: '删除 旧导出.xlsx' }));
    fireEvent.click(await screen.findByRole('button', { name: '确认' }));
    await waitFor(() => expect(app.server.bodyOf('POST /user/download/delete')).toEqual([{ id: 5 }]));
    expect(await screen.findByTestId('downloads-empty')).toBeTruthy();
  });
});

describe('/share', () => {
  it('states the rule and records a share', async () => {
    let rewarded = false;
    const app = renderApp({
      path: '/share',
      handlers: {
        'GET /user/sharing_info': () =>
          ok({ shared_count: rewarded ? 1 : 0, rewarded_today: rewarded, bonus: 5000, bonus_days: 30 }),
        'POST /user/add_sharing_info': () => {
          rewarded = true;
          return ok({ shared_count: 1, reward_num: 5000 });
        },
      },
    });
    expect((await screen.findByTestId('share-rule')).textContent).toContain(
      '每天首次分享可获得 5,000 高速校对字数，30 天内有效',
    );
    expect(screen.getByTestId('share-today').textContent).toBe('今日奖励可领取');
    fireEvent.click(screen.getByTestId('share-link'));
    await waitFor(() =>
      expect(app.server.bodyOf('POST /user/add_sharing_info')).toEqual([
        { channel: 'link', share_url: `${window.location.origin}/workbench/` },
      ]),
    );
    await waitFor(() => expect(screen.getByTestId('share-today').textContent).toBe('今日奖励已领取'));
  });
});

describe('/sms_invite', () => {
  /** Accept, once the team has been asked for (the button waits for it). */
  async function accept() {
    const button = (await screen.findByTestId('sms-invite-accept')) as HTMLButtonElement;
    await waitFor(() => expect(button.disabled).toBe(false));
    fireEvent.click(button);
  }

  it('shows the code and explains an invitation that ran out', async () => {
    const app = renderApp({
      path: '/sms_invite?sms_invitation_code=INV-1234',
      handlers: { 'GET /enterprise/user/v1/join_enterprise_by_link': () => fail(404, '邀请已过期') },
    });
    expect((await screen.findByTestId('sms-invite-code')).textContent).toBe('INV-1234');
    await accept();
    expect((await screen.findByTestId('sms-invite-error')).textContent).toContain('邀请已失效或不存在');
    expect(app.server.requests.find((r) => r.path === '/enterprise/user/v1/join_enterprise_by_link')?.search).toBe(
      '?sms_invitation_code=INV-1234',
    );
  });

  it('joins the team when the server accepts, and refuses a link without a code', async () => {
    renderApp({
      path: '/sms_invite?code=ABCD5678',
      handlers: { 'GET /enterprise/user/v1/join_enterprise_by_link': () => ok({ enterprise_id: 7, name: '编辑部' }) },
    });
    await accept();
    expect((await screen.findByTestId('sms-invite-joined')).textContent).toContain('已加入团队「编辑部」');
    cleanup();
    renderApp({ path: '/sms_invite' });
    expect(await screen.findByTestId('sms-invite-missing')).toBeTruthy();
  });

  it('names the team before the invitation is accepted', async () => {
    const app = renderApp({
      path: '/sms_invite?sms_invitation_code=INV-4321',
      handlers: {
        'GET /enterprise/user/v1/get_apply_enterprise_info': () =>
          ok({ enterprise_id: 7, name: '晨报编辑部', admin_name: '老周', user_num: 5, status: 4 }),
        'GET /enterprise/user/v1/join_enterprise_by_link': () => ok({ enterprise_id: 7, name: '晨报编辑部' }),
      },
    });
    expect((await screen.findByTestId('sms-invite-team-name')).textContent).toBe('晨报编辑部');
    expect(screen.getByTestId('sms-invite-team').textContent).toContain('管理员：老周');
    expect(app.server.requests.find((r) => r.path === '/enterprise/user/v1/get_apply_enterprise_info')?.search).toBe(
      '?sms_invitation_code=INV-4321',
    );
    // nothing is accepted by looking
    expect(app.server.bodyOf('GET /enterprise/user/v1/join_enterprise_by_link')).toEqual([]);
    await waitFor(() => expect((screen.getByTestId('sms-invite-accept') as HTMLButtonElement).disabled).toBe(false));
  });

  it('says before accepting that an invitation is for another phone', async () => {
    renderApp({
      path: '/sms_invite?sms_invitation_code=INV-7777',
      handlers: { 'GET /enterprise/user/v1/get_apply_enterprise_info': () => fail(403, 'forbidden') },
    });
    expect((await screen.findByTestId('sms-invite-team-error')).textContent).toContain('该邀请发给了另一个手机号');
    expect(screen.queryByTestId('sms-invite-team')).toBeNull();
  });

  it('explains an invitation for another phone', async () => {
    renderApp({
      path: '/sms_invite?sms_invitation_code=INV-9999',
      handlers: { 'GET /enterprise/user/v1/join_enterprise_by_link': () => fail(403, 'forbidden') },
    });
    await accept();
    expect((await screen.findByTestId('sms-invite-error')).textContent).toContain('该邀请发给了另一个手机号');
  });
});

describe('/user: WeChat and API key', () => {
  it('says WeChat login is not configured, and creates an API key shown once', async () => {
    let exists = false;
    const app = renderApp({
      path: '/user',
      handlers: {
        'GET /user/api_key': () =>
          ok({
            exists,
            username: 'tester',
            hint: exists ? 'f00d' : null,
            created_at: exists ? '2026-11-23T10:00:00.000Z' : null,
            allowed: true,
            application: 'approved',
          }),
        'POST /user/api_key': () => {
          exists = true;
          return ok({ api_key: 'wb_secret_f00d', username: 'tester' });
        },
      },
    });
    expect(await screen.findByTestId('wechat-unconfigured')).toBeTruthy();
    const card = await screen.findByTestId('api-key-card');
    await waitFor(() => expect(within(card).getByTestId('api-key-state').textContent).toContain('还没有 API 密钥'));
    fireEvent.click(within(card).getByTestId('api-key-create'));
    expect((await within(card).findByTestId('api-key-value')).textContent).toBe('wb_secret_f00d');
    await waitFor(() => expect(within(card).getByTestId('api-key-state').textContent).toContain('…f00d'));
    // replacing an existing key asks first
    fireEvent.click(within(card).getByTestId('api-key-create'));
    fireEvent.click(await screen.findByRole('button', { name: '确认' }));
    await waitFor(() => expect(app.server.bodyOf('POST /user/api_key')).toHaveLength(2));
  });
});

describe('/user: API key before approval', () => {
  it('offers the API application instead of a key, and says when it is being reviewed', async () => {
    let application: 'pending' | null = null;
    renderApp({
      path: '/user',
      handlers: {
        'GET /user/api_key': () =>
          ok({ exists: false, username: 'tester', hint: null, created_at: null, allowed: false, application }),
      },
    });
    const card = await screen.findByTestId('api-key-card');
    const apply = await within(card).findByTestId('api-key-apply');
    expect(apply.textContent).toContain('API 接入需要先提交申请');
    expect(within(apply).getByRole('link', { name: '申请 API 接入' }).getAttribute('href')).toContain('/apiApply');
    expect((within(card).getByTestId('api-key-create') as HTMLButtonElement).disabled).toBe(true);
    application = 'pending';
    cleanup();
    renderApp({
      path: '/user',
      handlers: {
        'GET /user/api_key': () =>
          ok({ exists: false, username: 'tester', hint: null, created_at: null, allowed: false, application }),
      },
    });
    const pending = await screen.findByTestId('api-key-apply');
    expect(pending.textContent).toContain('正在审核');
    expect(within(pending).queryByRole('link')).toBeNull();
  });
});

describe('/user: the operators review applications', () => {
  const pending = {
    id: 5,
    kind: 'team' as const,
    uid: 77,
    name: '晨报编辑部',
    contact_name: '陈主编',
    phone: '13920000001',
    email: '',
    address: '',
    user_num: 12,
    remark: '日常稿件校对',
    status: 'pending' as const,
    enterprise_id: null,
    review_note: '',
    created_at: '2026-11-27T02:00:00.000Z',
    reviewed_at: null,
  };

  it('lists pending applications to operators and approves one with its seats', async () => {
    let reviewed = false;
    const app = renderApp({
      path: '/user',
      user: { ...TEST_USER, role: 'root' },
      handlers: {
        'GET /admin/v1/applications': () => ok(reviewed ? [] : [pending]),
        'POST /admin/v1/applications/review': () => {
          reviewed = true;
          return ok({ enterprise_id: 9 });
        },
      },
    });
    const row = await screen.findByTestId('application-row');
    expect(row.textContent).toContain('晨报编辑部');
    expect((within(row).getByRole('textbox', { name: '席位数' }) as HTMLInputElement).value).toBe('12');
    fireEvent.click(within(row).getByTestId('application-approve'));
    await waitFor(() =>
      expect(app.server.bodyOf('POST /admin/v1/applications/review')).toEqual([{ id: 5, approve: true, seats: 12 }]),
    );
    expect(await screen.findByText('没有待审核的申请')).toBeTruthy();
  });

  it('is not shown to other accounts', async () => {
    renderApp({ path: '/user' });
    await screen.findByTestId('api-key-card');
    expect(screen.queryByTestId('applications-review')).toBeNull();
  });
});

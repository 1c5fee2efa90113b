import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { renderApp, TEST_USER } from './helpers';

afterEach(cleanup);

describe('main layout and routes (spec §2)', () => {
  it('shows the side bar with the current route marked', async () => {
    renderApp({ path: '/' });
    const nav = await screen.findByTestId('side-bar');
    const current = within(nav).getByRole('link', { current: 'page' });
    expect(current.textContent).toContain('文本校对');
    expect(screen.getByTestId('page-title').textContent).toBe('文本校对');
    await waitFor(() => expect(document.title).toBe('文本校对 · 智能校对工作台'));
    // Text proofreading is built: the home screen shows its editor.
    expect(await screen.findByTestId('home-screen')).toBeTruthy();
  });

  it('lists only the screens that work: nothing unfinished in the side bar', async () => {
    renderApp({ path: '/' });
    const nav = await screen.findByTestId('side-bar');
    const labels = within(nav)
      .getAllByRole('link')
      .map((a) => a.textContent);
    expect(labels).toEqual([
      '文本校对',
      '网页校对',
      'AI 写作',
      '我的文档',
      '图片校对',
      'PDF 校对',
      '音视频校对',
      '格式检查',
      '文档对比',
      '我的词库',
      '下载中心',
      '我的权益',
      '升级会员',
      '个人中心',
    ]);
    expect(nav.textContent).not.toMatch(/即将开放|我的团队/);
  });

  it('lists 我的团队 for a member of a team and for a user with a pending invitation', async () => {
    renderApp({ user: { ...TEST_USER, enterprise_id: 3 } });
    const nav = await screen.findByTestId('side-bar');
    await waitFor(() => expect(within(nav).getByRole('link', { name: '我的团队' })).toBeTruthy());
    cleanup();
    renderApp({
      handlers: {
        'GET /enterprise/user/v1/get_enterprise_invitation': () =>
          Response.json({
            code: 200,
            msg: 'success',
            result: [
              {
                id: 1,
                enterprise_id: 3,
                enterprise_name: '编辑部',
                inviter_name: '陈',
                created_at: '2026-11-27T00:00:00Z',
              },
            ],
          }),
      },
    });
    const again = await screen.findByTestId('side-bar');
    await waitFor(() => expect(within(again).getByRole('link', { name: '我的团队' })).toBeTruthy());
    // the invitation waiting at login is said once, in a toast
    expect(await screen.findByText('您有 1 份团队邀请，可在“我的团队”中查看')).toBeTruthy();
  });

  it.each(['/editor', '/pdfdetail', '/teamApply', '/apiApply', '/share', '/sms_invite'])(
    'hides the side bar on %s',
    async (path) => {
      renderApp({ path });
      await screen.findByTestId('main-layout');
      expect(screen.queryByTestId('side-bar')).toBeNull();
      // the header's way back (the share page has one of its own in its content)
      expect(within(screen.getByRole('banner')).getByRole('link', { name: '返回工作台' })).toBeTruthy();
    },
  );

  it.each([
    '/',
    '/ai',
    '/document',
    '/image',
    '/pdf',
    '/video',
    '/format',
    '/diff',
    '/dictionary',
    '/team',
    '/download',
    '/right',
    '/upgrade',
    '/user',
  ])('shows the side bar on %s', async (path) => {
    renderApp({ path });
    expect(await screen.findByTestId('side-bar')).toBeTruthy();
  });

  it('redirects /pricing to /upgrade and /home to /', async () => {
    const pricing = renderApp({ path: '/pricing' });
    await waitFor(() => expect(pricing.currentPath()).toBe('/upgrade'));
    expect((await screen.findByTestId('page-title')).textContent).toBe('升级会员');
    cleanup();
    const home = renderApp({ path: '/home' });
    await waitFor(() => expect(home.currentPath()).toBe('/'));
  });

  it('shows the real user info on /user', async () => {
    const app = renderApp({ path: '/user' });
    const info = await screen.findByTestId('user-info');
    await waitFor(() => expect(info.textContent).toContain('13912345678'));
    expect(info.textContent).toContain('42');
    expect(info.textContent).toContain('tester');
    expect(info.textContent).toContain('免费用户');
    expect(app.server.requests.some((r) => r.method === 'GET' && r.path === '/user/user_info')).toBe(true);
  });

  it('keeps a kept-alive screen mounted (hidden) after navigating away, and unmounts others', async () => {
    const app = renderApp({ path: '/' });
    await screen.findByTestId('home-screen');
    const home = document.querySelector('[data-screen="/"]') as HTMLElement;
    expect(home.hidden).toBe(false);
    act(() => app.goTo('/format'));
    await waitFor(() => expect(document.querySelector('[data-screen="/format"]')).not.toBeNull());
    expect(document.querySelector('[data-screen="/"]')).toBe(home);
    expect(home.hidden).toBe(true);
    act(() => app.goTo('/user'));
    await waitFor(() => expect(document.querySelector('[data-screen="/user"]')).not.toBeNull());
    expect(document.querySelector('[data-screen="/format"]')).toBeNull();
    act(() => app.goTo('/'));
    await waitFor(() => expect(home.hidden).toBe(false));
  });

  it('reports page views with the route click type', async () => {
    const app = renderApp({ path: '/dictionary' });
    await waitFor(() =>
      expect(app.server.requests.some((r) => r.path === '/misscut/v1/click' && r.search.includes('click_type=3'))).toBe(
        true,
      ),
    );
    act(() => app.goTo('/user'));
    await waitFor(() =>
      expect(app.server.requests.some((r) => r.path === '/misscut/v1/click' && r.search.includes('click_type=7'))).toBe(
        true,
      ),
    );
  });

  it('sends a logged-out visitor to /login', async () => {
    const app = renderApp({ path: '/user', loggedIn: false });
    await waitFor(() => expect(app.currentPath()).toBe('/login'));
    expect(await screen.findByRole('form', { name: '登录' })).toBeTruthy();
  });

  it('shows a not-found page for an unknown path inside the layout', async () => {
    renderApp({ path: '/no-such-page' });
    expect(await screen.findByText('页面不存在')).toBeTruthy();
  });
});

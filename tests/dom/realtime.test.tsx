import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { SocketClose, type ServerMessage } from '../../openapi/socket-protocol';
import { renderApp } from './helpers';
import { toaster } from '../../src/ui/toaster';

afterEach(() => {
  toaster.remove();
  cleanup();
});

const ok = (result: unknown) =>
  new Response(JSON.stringify({ code: 200, msg: 'ok', result }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });

async function receive(app: ReturnType<typeof renderApp>, message: ServerMessage) {
  act(() => app.triggers.socket({ type: 'socket message received', message }));
}

async function connected() {
  const app = renderApp({ path: '/' });
  await screen.findByTestId('side-bar');
  act(() => app.triggers.socket({ type: 'socket opened' }));
  return app;
}

describe('realtime messages the shell shows (spec §7)', () => {
  it('an announcement with display_mode 1 pops up until acknowledged, titled by its type, as text', async () => {
    const read: unknown[] = [];
    const app = renderApp({
      path: '/',
      handlers: {
        'GET /notice/v1/list': () => ok({ list: [], unread: 0 }),
        'POST /notice/v1/read': async (_r, request) => {
          read.push(await request.json());
          return ok({ count: 1 });
        },
      },
    });
    await screen.findByTestId('side-bar');
    act(() => app.triggers.socket({ type: 'socket opened' }));
    await receive(app, {
      type: 4,
      cmd: 1,
      status: 200,
      data: {
        id: 7,
        display_mode: 1,
        announcement_type: 2,
        html_text: '<p>今晚 22:00 <b>停机维护</b><img src="x" onerror="window.hacked=1"></p>',
      },
    });
    const popup = await screen.findByTestId('notice-popup');
    expect(within(popup).getByText('系统维护通知')).toBeTruthy();
    expect(within(popup).getByTestId('notice-popup-text').textContent).toBe('今晚 22:00 停机维护');
    expect(popup.querySelector('img')).toBeNull();
    expect((window as unknown as { hacked?: number }).hacked).toBeUndefined();
    // Esc does not close it: only 知道了
    fireEvent.keyDown(popup, { key: 'Escape' });
    expect(screen.getByTestId('notice-popup')).toBeTruthy();
    fireEvent.click(within(popup).getByTestId('notice-popup-ok'));
    await waitFor(() => expect(screen.queryByTestId('notice-popup')).toBeNull());
    await waitFor(() => expect(read).toEqual([{ ids: [7] }]));
  });

  it('stored notices go to the bell with a badge; the list at login brings a popup not yet acknowledged', async () => {
    const read: unknown[] = [];
    const at = '2026-11-27T02:00:00.000Z';
    const app = renderApp({
      path: '/',
      handlers: {
        'GET /notice/v1/list': () =>
          ok({
            list: [
              { id: 3, display_mode: 1, announcement_type: 5, text: '活动开始', created_at: at, read: false },
              { id: 2, display_mode: 0, announcement_type: 0, text: '旧通知', created_at: at, read: true },
            ],
            unread: 1,
          }),
        'POST /notice/v1/read': async (_r, request) => {
          read.push(await request.json());
          return ok({ count: 1 });
        },
      },
    });
    const popup = await screen.findByTestId('notice-popup');
    expect(within(popup).getByText('活动公告')).toBeTruthy();
    fireEvent.click(within(popup).getByTestId('notice-popup-ok'));
    await waitFor(() => expect(screen.queryByTestId('notice-popup')).toBeNull());
    act(() => app.triggers.socket({ type: 'socket opened' }));
    await receive(app, {
      type: 4,
      cmd: 1,
      status: 200,
      data: { id: 4, display_mode: 0, announcement_type: 4, text: '稍后查看' },
    });
    const bell = await screen.findByTestId('notice-bell');
    await waitFor(() => expect(bell.getAttribute('data-unread')).toBe('1'));
    expect(screen.getByTestId('notice-badge').textContent).toBe('1');
    expect(screen.queryByTestId('notice-popup')).toBeNull();
    fireEvent.click(bell);
    const list = await screen.findByTestId('notice-list');
    await waitFor(() =>
      expect(
        within(list)
          .getAllByTestId('notice-item')
          .map((i) => i.textContent),
      ).toEqual([
        expect.stringContaining('稍后查看'),
        expect.stringContaining('活动开始'),
        expect.stringContaining('旧通知'),
      ]),
    );
    fireEvent.click(within(list).getByTestId('notice-read-all'));
    await waitFor(() => expect(screen.queryByTestId('notice-badge')).toBeNull());
    await waitFor(() => expect(read).toEqual([{ ids: [3] }, { ids: [4] }]));
  });

  it('a document job that ended lights the document list until it is seen', async () => {
    const app = await connected();
    await receive(app, {
      type: 2,
      cmd: 1,
      status: 200,
      data: { id: 5, status: 'running', progress: 40, issue_count: 0 },
    });
    expect(screen.queryByTestId('documents-flag')).toBeNull();
    await receive(app, {
      type: 2,
      cmd: 1,
      status: 200,
      data: { id: 5, status: 'done', progress: 100, issue_count: 3 },
    });
    await screen.findByTestId('documents-flag');
    act(() => app.goTo('/document'));
    await waitFor(() => expect(screen.queryByTestId('documents-flag')).toBeNull());
  });

  it('team invitations and applications show as info toasts', async () => {
    const app = await connected();
    await receive(app, {
      type: 5,
      cmd: 3,
      status: 200,
      data: { id: 1, enterprise_id: 7, enterprise_name: '编辑部', inviter_name: '王主编' },
    });
    expect(await screen.findByText('王主编 邀请您加入团队「编辑部」')).toBeTruthy();
    await receive(app, {
      type: 5,
      cmd: 4,
      status: 200,
      data: { id: 2, enterprise_id: 7, applicant_name: '李编辑', phone: '13700000000' },
    });
    await waitFor(() => expect(screen.getByText('李编辑 申请加入您的团队')).toBeTruthy());
  });
});

describe('a window whose connection went to other windows', () => {
  it('says so when the server closes it as a session too many, and takes the connection back on request', async () => {
    const app = await connected();
    expect(screen.queryByTestId('socket-elsewhere')).toBeNull();
    const first = app.triggers.socket;
    act(() => first({ type: 'socket closed', code: SocketClose.Evicted.code, reason: SocketClose.Evicted.reason }));
    const banner = await screen.findByTestId('socket-elsewhere');
    expect(within(banner).getByText('已在其他窗口登录')).toBeTruthy();
    // nothing reconnects by itself: the other windows would be closed in turn
    expect(app.triggers.socket).toBe(first);
    fireEvent.click(within(banner).getByRole('button', { name: '在此窗口继续' }));
    await waitFor(() => expect(screen.queryByTestId('socket-elsewhere')).toBeNull());
    // a new connection was opened
    expect(app.triggers.socket).not.toBe(first);
  });
});

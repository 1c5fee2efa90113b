import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import type { ServerMessage } from '../../openapi/socket-protocol';
import { renderApp } from './helpers';
import { toaster } from '../../src/ui/toaster';

afterEach(() => {
  toaster.remove();
  cleanup();
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
  it('an announcement with display_mode 1 stays until closed, titled by its type, as text', async () => {
    const app = await connected();
    await receive(app, {
      type: 4,
      cmd: 1,
      status: 200,
      data: {
        display_mode: 1,
        announcement_type: 2,
        html_text: '<p>今晚 22:00 <b>停机维护</b><img src="x" onerror="window.hacked=1"></p>',
      },
    });
    const toast = await screen.findByText('系统维护通知');
    const root = toast.closest('[data-testid="toast"]') as HTMLElement;
    expect(root.textContent).toContain('今晚 22:00 停机维护');
    expect(root.querySelector('img')).toBeNull();
    expect((window as unknown as { hacked?: number }).hacked).toBeUndefined();
  });

  it('a display_mode 0 announcement does not pop up', async () => {
    const app = await connected();
    await receive(app, {
      type: 4,
      cmd: 1,
      status: 200,
      data: { display_mode: 0, announcement_type: 4, text: '稍后查看' },
    });
    await receive(app, {
      type: 4,
      cmd: 1,
      status: 200,
      data: { display_mode: 1, announcement_type: 5, text: '活动开始' },
    });
    await screen.findByText('活动公告');
    expect(screen.queryByText('稍后查看')).toBeNull();
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

import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp, TEST_USER } from './helpers';
import { accountLabel } from '../../src/ui/layout/AccountSwitchDialog';
import { getTrackingParam } from '../../src/api/storage';

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});

async function toastTitles(): Promise<string[]> {
  await screen.findAllByTestId('toast');
  return screen.getAllByTestId('toast').map((t) => t.textContent ?? '');
}

describe('route query handling (spec §2), executed by the shell', () => {
  it('a token in the query logs the visitor in', async () => {
    const app = renderApp({ path: '/?token=abc123', loggedIn: false });
    await waitFor(() => expect(app.currentPath()).toBe('/'));
    expect(await screen.findByTestId('side-bar')).toBeTruthy();
  });

  it('status=1 goes to /user with 操作成功', async () => {
    const app = renderApp({ path: '/?status=1' });
    await waitFor(() => expect(app.currentPath()).toBe('/user'));
    await waitFor(async () => expect(await toastTitles()).toContain('操作成功'));
  });

  it('msg is shown as an error, the locked-account text when empty', async () => {
    renderApp({ path: '/login?msg=', loggedIn: false });
    await waitFor(async () => expect(await toastTitles()).toContain('该账号因违反规定被锁定或关闭，请联系管理员'));
  });

  it('translates the known catalogue messages at display time', async () => {
    renderApp({ path: '/login?status=5', loggedIn: false, locale: 'en' });
    await waitFor(async () => expect(await toastTitles()).toContain('This WeChat account is bound to another account'));
  });

  it('remembers tracking parameters', async () => {
    renderApp({ path: '/?bd_vid=v-1&up_id=u-2' });
    await screen.findByTestId('side-bar');
    expect(getTrackingParam('bd_vid')).toBe('v-1');
    expect(getTrackingParam('up_id')).toBe('u-2');
  });

  it('type=chrome-login when logged out goes to /login', async () => {
    const app = renderApp({ path: '/?type=chrome-login', loggedIn: false });
    await waitFor(() => expect(app.currentPath()).toBe('/login'));
  });

  it("a link with another account's token while signed in asks first, naming both accounts", async () => {
    const colleague = { ...TEST_USER, uid: 7, name: '同事', phone: '13900000002' };
    const app = renderApp({ path: '/?token=t-colleague', locale: 'en', linkUsers: { 't-colleague': colleague } });
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Switch account?')).toBeTruthy();
    expect(within(dialog).getByTestId('account-switch').textContent).toBe(
      'Signed in: 测试用户. Account in the link: 同事',
    );
    // the token left the address while the user decides
    expect(app.currentPath()).toBe('/');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByTestId('side-bar')).toBeTruthy();
  });
});

describe('the switch dialog names accounts', () => {
  it('by name, with the phone when the names do not tell them apart', () => {
    const a = { ...TEST_USER, name: '张三', phone: '13900000001' };
    const b = { ...TEST_USER, uid: 7, name: '李四', phone: '13900000002' };
    expect([accountLabel(a, b), accountLabel(b, a)]).toEqual(['张三', '李四']);
    const namesake = { ...b, name: '张三' };
    expect([accountLabel(a, namesake), accountLabel(namesake, a)]).toEqual([
      '张三 (13900000001)',
      '张三 (13900000002)',
    ]);
    expect(accountLabel({ ...a, name: '' }, b)).toBe('13900000001');
  });
});

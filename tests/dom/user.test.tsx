import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp } from './helpers';

afterEach(cleanup);
// the screen is a lazy chunk: compiled here, not within the first test's wait for it
beforeAll(() => import('../../src/ui/screens/User'), 30_000);

function fill(form: HTMLElement, name: string, value: string) {
  const field = form.querySelector(`[name="${name}"]`) as HTMLInputElement;
  fireEvent.change(field, { target: { value } });
}

async function openForm(name: string) {
  const app = renderApp({ path: '/user' });
  await screen.findByTestId('user-info');
  return { app, form: screen.getByRole('form', { name }) };
}

describe('/user account forms (real calls through src/api)', () => {
  it('sets the login id', async () => {
    const { app, form } = await openForm('设置登录账号');
    fill(form, 'login_id', '9bad');
    fireEvent.click(within(form).getByRole('button', { name: '保存' }));
    expect(await within(form).findByText('字母开头，4–32 位字母、数字或下划线')).toBeTruthy();
    expect(app.server.bodyOf('PUT /user/login_id')).toEqual([]);

    fill(form, 'login_id', 'writer_01');
    fireEvent.click(within(form).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(app.server.bodyOf('PUT /user/login_id')).toEqual([{ login_id: 'writer_01' }]));
  });

  it('shows the server message when the login id is taken', async () => {
    const { app, form } = await openForm('设置登录账号');
    app.server.failNext('PUT /user/login_id', 409, '该登录账号已被使用');
    fill(form, 'login_id', 'taken_id');
    fireEvent.click(within(form).getByRole('button', { name: '保存' }));
    expect(await within(form).findByText('该登录账号已被使用')).toBeTruthy();
  });

  it('changes the password only when the confirmation matches', async () => {
    const { app, form } = await openForm('修改密码');
    fill(form, 'old_password', 'old-secret');
    fill(form, 'new_password', 'new-secret');
    fill(form, 'confirm', 'new-secreX');
    fireEvent.click(within(form).getByRole('button', { name: '修改密码' }));
    expect(await within(form).findByText('两次输入的密码不一致')).toBeTruthy();
    expect(app.server.bodyOf('PUT /user/pwd')).toEqual([]);

    fill(form, 'confirm', 'new-secret');
    fireEvent.click(within(form).getByRole('button', { name: '修改密码' }));
    await waitFor(() =>
      expect(app.server.bodyOf('PUT /user/pwd')).toEqual([{ old_password: 'old-secret', new_password: 'new-secret' }]),
    );
  });

  it('changes the phone with a code sent for purpose "phone" and the current password', async () => {
    const { app, form } = await openForm('更换手机号');
    fill(form, 'phone', '13600000002');
    fireEvent.click(within(form).getByRole('button', { name: '发送验证码' }));
    await waitFor(() =>
      expect(app.server.bodyOf('POST /user/sms_code')).toEqual([{ phone: '13600000002', purpose: 'phone' }]),
    );
    fill(form, 'code', '654321');
    fireEvent.click(within(form).getByRole('button', { name: '更换手机号' }));
    // without the current password nothing is sent: a token alone must not move the account
    expect(await within(form).findByText('请输入当前密码')).toBeTruthy();
    expect(app.server.bodyOf('PUT /user/phone')).toEqual([]);
    fill(form, 'password', 'my-secret');
    fireEvent.click(within(form).getByRole('button', { name: '更换手机号' }));
    await waitFor(() =>
      expect(app.server.bodyOf('PUT /user/phone')).toEqual([
        { phone: '13600000002', code: '654321', password: 'my-secret' },
      ]),
    );
  });

  it('sends feedback', async () => {
    const { app, form } = await openForm('意见反馈');
    fill(form, 'content', '希望支持更多文档格式');
    fireEvent.click(within(form).getByRole('button', { name: '提交' }));
    await waitFor(() =>
      expect(app.server.bodyOf('POST /user/leave_message')).toEqual([{ content: '希望支持更多文档格式' }]),
    );
  });

  it('closes the account after confirming, then logs out', async () => {
    const { app, form } = await openForm('注销账号');
    fill(form, 'password', 'my-secret');
    fireEvent.click(within(form).getByRole('button', { name: '注销账号' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(app.server.bodyOf('POST /user/cancellation')).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(app.server.bodyOf('POST /user/cancellation')).toEqual([{ password: 'my-secret' }]));
    await waitFor(() => expect(app.currentPath()).toBe('/login'));
    expect(app.calls.logout).toBe(1);
  });

  it('logs out from the profile card after confirming', async () => {
    const app = renderApp({ path: '/user' });
    fireEvent.click(await screen.findByTestId('user-logout'));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(app.currentPath()).toBe('/login'));
    expect(app.calls.logout).toBe(1);
  });
});

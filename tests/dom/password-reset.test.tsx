// The login page's 忘记密码 in the simulated DOM against the in-process fake API: the form's errors per field, the
// server's 429 under the code, a reset that brings the login form back with the phone and a message.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp } from './helpers';

afterEach(cleanup);

function fill(form: HTMLElement, name: string, value: string) {
  const input = form.querySelector(`input[name="${name}"]`) as HTMLInputElement;
  fireEvent.change(input, { target: { value } });
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('forgotten password (/login)', () => {
  it('says per field what is wrong, shows the code’s 429, resets, and comes back to logging in', async () => {
    let smsCalls = 0;
    const app = renderApp({
      path: '/login',
      loggedIn: false,
      handlers: {
        'POST /user/sms_code': () =>
          ++smsCalls === 1
            ? json(429, {
                code: 429,
                msg: '验证码发送过于频繁，请 60 分钟后再试',
                msg_code: 'rate.sms_address',
                msg_params: { minutes: 60 },
                result: null,
              })
            : json(200, { code: 200, msg: 'ok', result: { expires_in: 300 } }),
        'POST /user/reset_pwd': () => json(200, { code: 200, msg: '密码已重置，请重新登录', result: null }),
      },
    });
    fireEvent.click(await screen.findByTestId('forgot-password'));
    const form = await screen.findByRole('form', { name: '重置密码' });
    // the phone field has the focus: the form is usable from the keyboard at once
    expect(document.activeElement).toBe(form.querySelector('input[name="phone"]'));

    fireEvent.submit(form);
    for (const [field, text] of [
      ['phone', '请输入 11 位手机号'],
      ['code', '请输入 6 位短信验证码'],
      ['password', '密码长度应为 6-32 位，且不能全是空格'],
    ])
      expect(await within(screen.getByTestId(`reset-field-${field}`)).findByText(text)).toBeTruthy();
    expect(app.server.bodyOf('POST /user/reset_pwd')).toEqual([]);

    fill(form, 'phone', '13912345678');
    fireEvent.click(within(form).getByTestId('reset-send-code'));
    expect(
      await within(screen.getByTestId('reset-field-code')).findByText('验证码发送过于频繁，请 60 分钟后再试'),
    ).toBeTruthy();
    fireEvent.click(within(form).getByTestId('reset-send-code'));
    await waitFor(() => expect(within(form).getByTestId('reset-send-code').textContent).toMatch(/秒后重发/));
    expect(app.server.bodyOf('POST /user/sms_code')).toEqual([
      { phone: '13912345678', purpose: 'reset' },
      { phone: '13912345678', purpose: 'reset' },
    ]);

    fill(form, 'code', '123456');
    fill(form, 'new-password', 'new-secret');
    fill(form, 'confirm', 'other');
    fireEvent.submit(form);
    expect(await within(screen.getByTestId('reset-field-confirm')).findByText('两次输入的密码不一致')).toBeTruthy();
    fill(form, 'confirm', 'new-secret');
    await act(async () => {
      fireEvent.submit(form);
    });
    await waitFor(() =>
      expect(app.server.bodyOf('POST /user/reset_pwd')).toEqual([
        { phone: '13912345678', code: '123456', new_password: 'new-secret' },
      ]),
    );
    const login = await screen.findByRole('form', { name: '登录' });
    expect(within(login).getByTestId('password-reset-done').textContent).toContain('密码已重置，请用新密码登录');
    expect((login.querySelector('input[name="phone"]') as HTMLInputElement).value).toBe('13912345678');
    expect(app.calls.login).toEqual([]);
  });

  it('goes back to logging in without resetting', async () => {
    renderApp({ path: '/login', loggedIn: false });
    fireEvent.click(await screen.findByTestId('forgot-password'));
    fireEvent.click(await screen.findByTestId('reset-back'));
    expect(await screen.findByRole('form', { name: '登录' })).toBeTruthy();
    expect(screen.queryByTestId('password-reset-done')).toBeNull();
  });
});

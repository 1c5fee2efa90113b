// Typed helpers for the foundation's user calls (contract additions to spec §7).
import type { components, paths } from '../../openapi/schema';
import { api, unwrap, type UnwrapOptions } from './client';
import { getAppUuid } from './storage';

export type UserInfo = components['schemas']['UserInfo'];
export type SmsPurpose = 'register' | 'phone' | 'reset' | 'verify_old';

/** Logs in; the external app a `login_resp_code=1` link named (kept in storage) goes with it. */
export async function login(phone: string, password: string): Promise<string> {
  const appUuid = getAppUuid();
  const body = { phone, password, ...(appUuid && /^[A-Za-z0-9_-]{1,64}$/.test(appUuid) ? { app_uuid: appUuid } : {}) };
  const result = await unwrap(api.POST('/user/login', { body }));
  return result.token;
}

export async function register(input: {
  phone: string;
  code: string;
  password: string;
  name?: string;
}): Promise<string> {
  const result = await unwrap(api.POST('/user/register', { body: input }));
  return result.token;
}

export async function sendSmsCode(
  phone: string,
  purpose: SmsPurpose,
  options: UnwrapOptions = {},
): Promise<{ expires_in: number }> {
  return unwrap(api.POST('/user/sms_code', { body: { phone, purpose } }), options);
}

/** Sets a forgotten password with a `reset` code; the server revokes every login of the account. */
export async function resetPassword(
  input: { phone: string; code: string; new_password: string },
  options: UnwrapOptions = {},
): Promise<void> {
  await unwrap(api.POST('/user/reset_pwd', { body: input }), options);
}

/** Revokes the calling token on the server. */
export async function logout(options: UnwrapOptions = {}): Promise<void> {
  await unwrap(api.POST('/user/logout'), options);
}

export async function userInfo(options: UnwrapOptions = {}): Promise<UserInfo> {
  return unwrap(api.GET('/user/user_info'), options);
}

/**
 * The account behind a token from a link, which is not stored: the session asks before switching to it. Silent, and
 * its 401 logs no one out (the call brings its own bearer token).
 */
export async function userInfoOf(token: string): Promise<UserInfo> {
  return unwrap(api.GET('/user/user_info', { headers: { Authorization: `Bearer ${token}` } }), { silent: true });
}

export async function updateLoginId(login_id: string): Promise<void> {
  await unwrap(api.PUT('/user/login_id', { body: { login_id } }));
}

/** The new phone's code, and the current password so that a token alone cannot move the account. */
export async function updatePhone(phone: string, code: string, password: string): Promise<void> {
  await unwrap(api.PUT('/user/phone', { body: { phone, code, password } }));
}

export async function updatePassword(old_password: string, new_password: string): Promise<void> {
  await unwrap(api.PUT('/user/pwd', { body: { old_password, new_password } }));
}

/** The avatar image (a generated default until one is uploaded). */
export async function portrait(options: UnwrapOptions = {}): Promise<Blob> {
  return unwrap(api.GET('/user/portrait', { parseAs: 'blob' }), options);
}

export async function leaveMessage(content: string, contact?: string): Promise<void> {
  await unwrap(api.POST('/user/leave_message', { body: contact ? { content, contact } : { content } }));
}

/** Really closes the account (the server revokes every token). */
export async function cancelAccount(password: string): Promise<void> {
  await unwrap(api.POST('/user/cancellation', { body: { password } }));
}

export type ApiKeyState = NonNullable<
  paths['/user/api_key']['get']['responses']['200']['content']['application/json']['result']
>;

/** Whether the user has a key for the LanguageTool-compatible API (the key itself is shown once, at creation). */
export async function apiKeyState(options: UnwrapOptions = {}): Promise<ApiKeyState> {
  return unwrap(api.GET('/user/api_key'), options);
}

export async function createApiKey(): Promise<{ api_key: string; username: string }> {
  return unwrap(api.POST('/user/api_key'));
}

/** The session token for the one-time code a WeChat login lands with (`?wechat_code=`); used, expired: 400. */
export async function exchangeWechatCode(code: string): Promise<string> {
  return (await unwrap(api.POST('/user/wechat/exchange', { body: { code } }))).token;
}

/** A single-use ticket for this server's WeChat binding pages (a navigation carries no token). */
export async function wechatTicket(purpose: 'bind' | 'unbind'): Promise<string> {
  return (await unwrap(api.POST('/user/wechat/ticket', { body: { purpose } }), { silent: true })).ticket;
}

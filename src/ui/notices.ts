import { msg } from '@lingui/core/macro';
import type { I18n } from '@lingui/core';
import { codedServerMessage } from '../api/serverMessages';

/**
 * The Chinese texts that `src/api` and `src/machines` emit through `notify()` (spec §2, §4, §8).
 * Their catalog id IS the Chinese text, so a notice is translated at display time by looking its
 * title up; a text that is not here (a server `msg`) shows as it came.
 */
export const NOTICE_MESSAGES = [
  // §8 error catalogue
  msg({ id: '网络连接失败', message: '网络连接失败' }),
  msg({ id: '请求失败', message: '请求失败' }),
  msg({ id: '请求方式不被允许', message: '请求方式不被允许' }),
  msg({ id: '文档上传失败', message: '文档上传失败' }),
  msg({ id: '系统异常', message: '系统异常' }),
  msg({ id: '登录已失效，请重新登录', message: '登录已失效，请重新登录' }),
  // §2 route query and session
  msg({ id: '登录成功', message: '登录成功' }),
  msg({ id: '登录成功，接下来可以畅通无阻的使用插件啦', message: '登录成功，接下来可以畅通无阻的使用插件啦' }),
  msg({ id: '该账号因违反规定被锁定或关闭，请联系管理员', message: '该账号因违反规定被锁定或关闭，请联系管理员' }),
  msg({ id: '操作失败', message: '操作失败' }),
  msg({ id: '操作成功', message: '操作成功' }),
  msg({ id: '还未绑定微信', message: '还未绑定微信' }),
  msg({ id: '当前微信与绑定微信不相同', message: '当前微信与绑定微信不相同' }),
  msg({ id: '您已绑定微信，无需再次绑定', message: '您已绑定微信，无需再次绑定' }),
  msg({ id: '该微信已绑定别的账号', message: '该微信已绑定别的账号' }),
  msg({ id: '请先绑定手机号，再尝试解绑微信', message: '请先绑定手机号，再尝试解绑微信' }),
  // §4 check mode 4
  msg({
    id: '该模型资源消耗较大，暂时只开放给付费用户体验。',
    message: '该模型资源消耗较大，暂时只开放给付费用户体验。',
  }),
  // §3 team roles
  msg({ id: '管理员', message: '管理员' }),
  msg({ id: '词库管理员', message: '词库管理员' }),
  msg({ id: '成员管理员', message: '成员管理员' }),
  msg({ id: '普通成员', message: '普通成员' }),
  msg({ id: '超级管理员', message: '超级管理员' }),
  // §2 a link's token refused while another account is signed in
  msg({ id: '链接中的登录已失效，仍使用当前账号', message: '链接中的登录已失效，仍使用当前账号' }),
] as const;

/** The confirm dialog's buttons (spec §2). */
export const CANCEL_LABEL = msg({ id: '取消', message: '取消' });
export const CONFIRM_LABEL = msg({ id: '确认', message: '确认' });

const KNOWN = new Set<string>([...NOTICE_MESSAGES, CANCEL_LABEL, CONFIRM_LABEL].map((m) => m.id));

/** Screens add the texts they emit through notify() (their ids are the Chinese texts). */
export function registerNoticeMessages(list: ReadonlyArray<{ id: string }>): void {
  for (const m of list) KNOWN.add(m.id);
}

/**
 * A server message in the reader's language: looked up by its code (`server.<code>`, the `server` catalogue of
 * en and hk) with its values; the text as the server wrote it when the catalogue has no entry (the source language).
 */
function translateServerMessage(i18n: I18n, text: string): string {
  const message = codedServerMessage(text);
  if (!message) return text;
  const id = `server.${message.code}`;
  return i18n.messages[id] ? i18n._(id, message.params) : text;
}

/**
 * Translate a notice text when it is one of the known catalogue texts or a server message whose code came with
 * it; otherwise return it as is.
 */
export function translateNotice(i18n: I18n, text: string): string {
  return KNOWN.has(text) ? i18n._(text) : translateServerMessage(i18n, text);
}

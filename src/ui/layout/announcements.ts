import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/** Spec §7: announcements are titled by announcement_type. */
export const ANNOUNCEMENT_TITLES: Record<number, MessageDescriptor> = {
  0: msg({ id: '通知', message: '通知' }),
  1: msg({ id: '系统升级公告', message: '系统升级公告' }),
  2: msg({ id: '系统维护通知', message: '系统维护通知' }),
  3: msg({ id: '安全警告', message: '安全警告' }),
  4: msg({ id: '新功能介绍', message: '新功能介绍' }),
  5: msg({ id: '活动公告', message: '活动公告' }),
};

/** An announcement's text: its `text`, or the text of its HTML (never injected as markup). */
export function announcementText(data: { text?: string; html_text?: string }): string {
  if (data.text) return data.text;
  if (!data.html_text) return '';
  const doc = new DOMParser().parseFromString(data.html_text, 'text/html');
  return (doc.body.textContent ?? '').trim();
}

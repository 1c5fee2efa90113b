import { useEffect } from 'react';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { ServerMessage } from '../../../openapi/socket-protocol';
import { useSystemActor } from '../app-actor';
import { NOTICE_DURATION_MS, toaster } from '../toaster';

/** Spec §7: announcement popups are titled by announcement_type. */
const ANNOUNCEMENT_TITLES: Record<number, MessageDescriptor> = {
  0: msg({ id: '通知', message: '通知' }),
  1: msg({ id: '系统升级公告', message: '系统升级公告' }),
  2: msg({ id: '系统维护通知', message: '系统维护通知' }),
  3: msg({ id: '安全警告', message: '安全警告' }),
  4: msg({ id: '新功能介绍', message: '新功能介绍' }),
  5: msg({ id: '活动公告', message: '活动公告' }),
};

/** Announcements may carry HTML; they are shown as text, never injected as markup. */
export function announcementText(data: { text?: string; html_text?: string }): string {
  if (data.text) return data.text;
  if (!data.html_text) return '';
  const doc = new DOMParser().parseFromString(data.html_text, 'text/html');
  return (doc.body.textContent ?? '').trim();
}

/**
 * Realtime messages that the shell itself shows (spec §7): announcements with display_mode 1 as a
 * popup that stays until closed, and team invitations / applications as 5 s info toasts.
 * Announcements with display_mode 0 belong to the notice list of a later issue.
 */
export function RealtimeNotices() {
  const { t, i18n } = useLingui();
  const socket = useSystemActor('socket');
  useEffect(() => {
    const subscription = socket.on('server message', (event: { message: ServerMessage }) => {
      const message = event.message;
      // A status other than 200 carries failure texts, which belong to the flow that caused them.
      if (!('data' in message) || !message.data || Array.isArray(message.data)) return;
      if (message.type === 4 && message.cmd === 1 && message.data.display_mode === 1) {
        const title = ANNOUNCEMENT_TITLES[message.data.announcement_type] ?? ANNOUNCEMENT_TITLES[0];
        toaster.create({
          type: 'info',
          title: i18n._(title),
          description: announcementText(message.data),
          duration: Number.POSITIVE_INFINITY,
          closable: true,
        });
      } else if (message.type === 5 && message.cmd === 3) {
        const { inviter_name: inviter, enterprise_name: team } = message.data;
        toaster.create({
          type: 'info',
          title: t`${inviter} 邀请您加入团队「${team}」`,
          duration: NOTICE_DURATION_MS,
          closable: true,
        });
      } else if (message.type === 5 && message.cmd === 4) {
        const { applicant_name: applicant } = message.data;
        toaster.create({
          type: 'info',
          title: t`${applicant} 申请加入您的团队`,
          duration: NOTICE_DURATION_MS,
          closable: true,
        });
      }
    });
    return () => subscription.unsubscribe();
  }, [socket, i18n, t]);
  return null;
}

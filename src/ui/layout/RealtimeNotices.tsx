import { useEffect } from 'react';
import { useLingui } from '@lingui/react/macro';
import { isPair, Socket, type ServerMessage } from '../../../openapi/socket-protocol';
import { useSystemActor } from '../app-actor';
import { NOTICE_DURATION_MS, toaster } from '../toaster';

/**
 * Realtime messages that the shell shows as toasts (spec §7): team invitations and applications, 5 s each.
 * Announcements are the notices machine's (the bell's list and the popup).
 */
export function RealtimeNotices() {
  const { t, i18n } = useLingui();
  const socket = useSystemActor('socket');
  useEffect(() => {
    const subscription = socket.on('server message', (event: { message: ServerMessage }) => {
      const message = event.message;
      // A status other than 200 carries failure texts, which belong to the flow that caused them.
      if (!('data' in message) || !message.data || Array.isArray(message.data)) return;
      if (isPair(message, Socket.TeamInvite)) {
        const { inviter_name: inviter, enterprise_name: team } = message.data;
        toaster.create({
          type: 'info',
          title: t`${inviter} 邀请您加入团队「${team}」`,
          duration: NOTICE_DURATION_MS,
          closable: true,
        });
      } else if (isPair(message, Socket.TeamApplication)) {
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

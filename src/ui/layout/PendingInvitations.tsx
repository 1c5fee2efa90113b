import { useEffect, useRef } from 'react';
import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { invitationsQuery } from '../../api/queries';
import { NOTICE_DURATION_MS, toaster } from '../toaster';

/**
 * Team invitations waiting at login (spec §4 loads them with the login state): said once per page load, in a toast
 * pointing to 我的团队. Invitations arriving later come over the socket (RealtimeNotices).
 */
export function PendingInvitations() {
  const { t } = useLingui();
  const invitations = useQuery(invitationsQuery({ silent: true }));
  const told = useRef(false);
  const count = invitations.data?.length ?? 0;
  useEffect(() => {
    if (told.current || count === 0) return;
    told.current = true;
    toaster.create({
      type: 'info',
      title: t`您有 ${count} 份团队邀请，可在“我的团队”中查看`,
      duration: NOTICE_DURATION_MS,
      closable: true,
    });
  }, [count, t]);
  return null;
}

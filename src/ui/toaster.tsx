import { Suspense, useEffect } from 'react';
import { useLingui } from '@lingui/react/macro';
import { createToaster } from '@chakra-ui/react';
import { lazyWithReload, pageReloadFlag } from './lazy';
import { subscribeNotices } from '../api/notify';
import { translateNotice } from './notices';

/** Notification toasts last 5 s (spec §9). */
export const NOTICE_DURATION_MS = 5000;

export const toaster = createToaster({ placement: 'top', pauseOnPageIdle: true, max: 5 });

/** Shows every notice from src/api/notify.ts, translated when it is a known catalogue text. */
export function NoticeToaster() {
  const { i18n } = useLingui();
  useEffect(
    () =>
      subscribeNotices((notice) => {
        toaster.create({
          type: notice.status,
          title: translateNotice(i18n, notice.title),
          duration: notice.duration ?? NOTICE_DURATION_MS,
          closable: true,
        });
      }),
    [i18n],
  );
  // toasts made before the view has loaded wait in the store and show once it has
  return (
    <Suspense fallback={null}>
      <ToastViewport />
    </Suspense>
  );
}

// The toasts' view (its state machine, focus and dismissal code) follows the first paint.
const ToastViewport = lazyWithReload(() => import('./toast-viewport'), pageReloadFlag);

import { useEffect } from 'react';
import { useLingui } from '@lingui/react/macro';
import { CloseButton, createToaster, Portal, Spinner, Stack, Toast, Toaster } from '@chakra-ui/react';
import { subscribeNotices } from '../api/notify';
import { translateNotice } from './notices';

/** Notification toasts last 5 s (spec §9). */
export const NOTICE_DURATION_MS = 5000;

export const toaster = createToaster({ placement: 'top', pauseOnPageIdle: true, max: 5 });

/** Shows every notice from src/api/notify.ts, translated when it is a known catalogue text. */
export function NoticeToaster() {
  const { i18n, t } = useLingui();
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
  return (
    <Portal>
      <Toaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          <Toast.Root width={{ md: 'sm' }} data-testid="toast" data-type={toast.type}>
            {toast.type === 'loading' ? <Spinner size="sm" color="blue.solid" /> : <Toast.Indicator />}
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title ? <Toast.Title>{toast.title}</Toast.Title> : null}
              {toast.description ? <Toast.Description>{toast.description}</Toast.Description> : null}
            </Stack>
            {toast.closable ? (
              <Toast.CloseTrigger asChild>
                <CloseButton size="sm" aria-label={t`关闭`} />
              </Toast.CloseTrigger>
            ) : null}
          </Toast.Root>
        )}
      </Toaster>
    </Portal>
  );
}

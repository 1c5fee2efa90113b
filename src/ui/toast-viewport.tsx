import { useLingui } from '@lingui/react/macro';
import { CloseButton, Portal, Spinner, Stack, Toast, Toaster } from '@chakra-ui/react';
import { toaster } from './toaster';

/** The notices' toasts (src/ui/toaster.tsx keeps the store and fills it). */
export default function ToastViewport() {
  const { t } = useLingui();
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

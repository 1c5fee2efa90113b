import type { ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Button, CloseButton, Dialog, Portal } from '@chakra-ui/react';
import { CANCEL_LABEL, CONFIRM_LABEL } from '../notices';

export interface ConfirmDialogProps {
  open: boolean;
  title: ReactNode;
  description?: ReactNode;
  /** Called when the user confirms; the dialog stays open until `open` turns false. */
  onConfirm: () => void;
  /** Cancel button, close button, Esc or a click outside. */
  onCancel: () => void;
  /** A red confirm button for actions that lose something (logout, delete, close account). */
  destructive?: boolean;
  loading?: boolean;
}

/** The generic confirm dialog (spec §2): cancel '取消', confirm '确认'. */
export function ConfirmDialog({
  open,
  title,
  description,
  onConfirm,
  onCancel,
  destructive,
  loading,
}: ConfirmDialogProps) {
  const { i18n, t } = useLingui();
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(d) => (d.open ? undefined : onCancel())}
      role="alertdialog"
      placement="center"
      size="sm"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            {description ? <Dialog.Body>{description}</Dialog.Body> : null}
            <Dialog.Footer>
              <Button variant="outline" onClick={onCancel}>
                {i18n._(CANCEL_LABEL)}
              </Button>
              <Button colorPalette={destructive ? 'red' : 'blue'} onClick={onConfirm} loading={loading}>
                {i18n._(CONFIRM_LABEL)}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t`关闭`} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

// An announcement shown as a popup (display mode 1, spec §7): it stays, titled by its type, until the user
// acknowledges it; then the next one, if any. Shown as text, never as markup.
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Dialog, Portal, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { popupsOf } from '../../machines/notices';
import { useSystemActor } from '../app-actor';
import { ANNOUNCEMENT_TITLES, announcementText } from './announcements';

export function NoticePopup() {
  const { i18n } = useLingui();
  const notices = useSystemActor('notices');
  const popup = useSelector(notices, (s) => popupsOf(s.context.list)[0]);
  return (
    <Dialog.Root
      open={Boolean(popup)}
      closeOnEscape={false}
      closeOnInteractOutside={false}
      placement="center"
      size="md"
      role="alertdialog"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="notice-popup" data-id={popup?.id}>
            <Dialog.Header>
              <Dialog.Title>
                {popup ? i18n._(ANNOUNCEMENT_TITLES[popup.announcement_type] ?? ANNOUNCEMENT_TITLES[0]) : null}
              </Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text whiteSpace="pre-wrap" data-testid="notice-popup-text">
                {popup ? announcementText(popup) : null}
              </Text>
            </Dialog.Body>
            <Dialog.Footer>
              <Button
                colorPalette="blue"
                onClick={() => popup && notices.send({ type: 'read', ids: [popup.id] })}
                data-testid="notice-popup-ok"
              >
                <Trans>知道了</Trans>
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

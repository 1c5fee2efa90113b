import { Trans, useLingui } from '@lingui/react/macro';
import { Button, CloseButton, Dialog, Flex, Portal, Text } from '@chakra-ui/react';
import { Zap } from 'lucide-react';
import { useQuotaDialog } from '../app-actor';

/**
 * The quota-exhausted dialog (spec §2, §4): 'participate in free speed-up' goes to /share, 'upgrade
 * now' to /upgrade; the quotaDialog machine closes kind 2 by itself after 6 s.
 */
export function QuotaDialog() {
  const { t } = useLingui();
  const { open, kind, send } = useQuotaDialog();
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(d) => (d.open ? undefined : send({ type: 'dismissed' }))}
      placement="center"
      size="sm"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="quota-dialog" data-kind={kind}>
            <Dialog.Header>
              <Flex align="center" gap="2">
                <Flex
                  boxSize="8"
                  borderRadius="full"
                  bg="orange.subtle"
                  color="orange.fg"
                  align="center"
                  justify="center"
                >
                  <Zap size={18} aria-hidden />
                </Flex>
                <Dialog.Title>
                  <Trans>高速校对额度已用完</Trans>
                </Dialog.Title>
              </Flex>
            </Dialog.Header>
            <Dialog.Body>
              <Text color="fg.muted">
                <Trans>
                  今日的高速校对字数已经用完。参与免费提速活动可获得额外额度，升级会员可享更多字数与高级功能。
                </Trans>
              </Text>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={() => send({ type: 'free speed-up chosen' })}>
                <Trans>参与免费提速</Trans>
              </Button>
              <Button colorPalette="orange" onClick={() => send({ type: 'upgrade chosen' })}>
                <Trans>立即升级</Trans>
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

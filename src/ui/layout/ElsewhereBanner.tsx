import { Trans } from '@lingui/react/macro';
import { Alert, Button } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useSystemActor } from '../app-actor';

/**
 * The workbench is open in other windows and the server closed this window's connection (it keeps a limited number
 * per account): progress and notices no longer arrive here, so the page says so and offers to take it back.
 */
export function ElsewhereBanner() {
  const socket = useSystemActor('socket');
  const elsewhere = useSelector(socket, (s) => s.matches('elsewhere'));
  if (!elsewhere) return null;
  return (
    <Alert.Root status="warning" borderRadius="0" data-testid="socket-elsewhere">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>
          <Trans>已在其他窗口登录</Trans>
        </Alert.Title>
        <Alert.Description>
          <Trans>此窗口不再接收校对进度和通知。</Trans>
        </Alert.Description>
      </Alert.Content>
      <Button size="sm" variant="outline" onClick={() => socket.send({ type: 'connect' })}>
        <Trans>在此窗口继续</Trans>
      </Button>
    </Alert.Root>
  );
}

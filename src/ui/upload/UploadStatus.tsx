// Where an upload is: bytes sent (a bar with the percentage), the server working (an indeterminate
// bar with what it does), or why it failed (the server's message) with a retry.
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Flex, Progress, Stack, Text } from '@chakra-ui/react';
import { RotateCcw, X } from 'lucide-react';

export type UploadView =
  | { phase: 'idle' | 'done' }
  | { phase: 'uploading'; percent: number }
  | { phase: 'processing' }
  | { phase: 'failed'; message: string }
  | { phase: 'cancelled' };

export interface UploadStatusProps {
  view: UploadView;
  /** what the server does once the file is sent, e.g. 正在检查格式… */
  processingLabel: string;
  onCancel: () => void;
  onRetry: () => void;
  testId: string;
}

export function UploadStatus({ view, processingLabel, onCancel, onRetry, testId }: UploadStatusProps) {
  const { t } = useLingui();
  if (view.phase === 'idle' || view.phase === 'done') return null;
  if (view.phase === 'failed' || view.phase === 'cancelled') {
    return (
      <Alert.Root
        status={view.phase === 'failed' ? 'error' : 'info'}
        borderRadius="lg"
        data-testid={`${testId}-${view.phase}`}
      >
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>{view.phase === 'failed' ? <Trans>处理失败</Trans> : <Trans>已取消</Trans>}</Alert.Title>
          {view.phase === 'failed' ? (
            <Alert.Description data-testid={`${testId}-error`}>{view.message}</Alert.Description>
          ) : null}
        </Alert.Content>
        <Button size="sm" variant="outline" onClick={onRetry} data-testid={`${testId}-retry`} alignSelf="center">
          <RotateCcw size={14} />
          <Trans>重试</Trans>
        </Button>
      </Alert.Root>
    );
  }
  const uploading = view.phase === 'uploading';
  return (
    <Stack
      gap="2"
      bg="panel"
      borderWidth="1px"
      borderRadius="lg"
      p="4"
      data-testid={`${testId}-progress`}
      data-phase={view.phase}
      aria-live="polite"
    >
      <Flex align="center" gap="3">
        <Text fontSize="sm" flex="1">
          {uploading ? <Trans>正在上传… {view.percent}%</Trans> : processingLabel}
        </Text>
        <Button size="xs" variant="ghost" colorPalette="red" onClick={onCancel} data-testid={`${testId}-cancel`}>
          <X size={14} />
          <Trans>取消</Trans>
        </Button>
      </Flex>
      <Progress.Root
        value={uploading ? view.percent : null}
        size="xs"
        colorPalette="blue"
        aria-label={uploading ? t`上传进度` : processingLabel}
      >
        <Progress.Track>
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
    </Stack>
  );
}

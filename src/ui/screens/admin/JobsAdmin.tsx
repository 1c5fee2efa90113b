// The operators' job queue (shown on /user to accounts with role root; docs/jobs.md): counts by kind and state, how
// long the oldest job has waited, the running jobs with their owner and progress, the latest failures with their
// reason in the reader's language; a failed job is retried and a running one cancelled after a confirmation. The
// admin CLI does the same (`admin jobs …`).
import { useEffect, useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Alert, Badge, Box, Button, Flex, Heading, Progress, Table, Text, Wrap } from '@chakra-ui/react';
import { ListChecks, RefreshCw } from 'lucide-react';
import { useActorRef, useSelector } from '@xstate/react';
import type { Job } from '../../../api/jobs';
import { liveJobQueue } from '../../../machines/live-jobs';
import { inspectOptions } from '../../../machines/inspect';
import { ConfirmDialog } from '../../layout/ConfirmDialog';
import { STACK_ON_PHONE } from '../../layout/stacked-table';
import { translateNotice } from '../../notices';
import { serverMessageText } from '../../server-messages';

const KIND_LABELS = {
  document: msg`文档`,
  pdf: msg`PDF`,
  image: msg`图片`,
  speech: msg`音视频`,
  website: msg`网站`,
} as const;

const STATE_LABELS = {
  queued: msg`排队中`,
  running: msg`进行中`,
  done: msg`已完成`,
  failed: msg`失败`,
  cancelled: msg`已取消`,
} as const;

/** A failure's reason: the catalogue's message in the reader's language, else its code as it is. */
function reasonOf(i18n: I18n, code: string | null): string {
  if (!code) return '';
  return serverMessageText(i18n, code);
}

/**
 * The cn catalogue carries no server messages (the server writes them in cn, and the SPA reads its texts); a job
 * keeps only its code, so this screen loads them once (the screen is an operator's, not on the first load).
 */
function useSourceServerMessages(i18n: I18n): void {
  const [, setLoaded] = useState(false);
  useEffect(() => {
    if (i18n.locale !== 'cn' || i18n.messages['server.job.unknown']) return;
    void import('../../../../locales/cn/server.po').then(({ messages }) => {
      i18n.load('cn', messages);
      setLoaded(true);
    });
  }, [i18n]);
}

export function JobsAdmin() {
  const { t, i18n } = useLingui();
  useSourceServerMessages(i18n);
  const logic = useMemo(() => liveJobQueue(), []);
  const actor = useActorRef(logic, inspectOptions());
  const queue = useSelector(actor, (s) => s.context.queue);
  const pending = useSelector(actor, (s) => s.context.pending);
  const error = useSelector(actor, (s) => s.context.error);
  const loading = useSelector(actor, (s) => s.matches('loading'));
  const acting = useSelector(actor, (s) => s.matches('acting'));
  const confirming = useSelector(actor, (s) => s.matches('confirming') || s.matches('acting'));
  const kindOf = (job: Pick<Job, 'kind'>) => i18n._(KIND_LABELS[job.kind]);
  const oldest = queue?.oldest_queued_seconds ?? null;
  const empty = queue !== null && queue.counts.length === 0;
  return (
    <Box bg="panel" borderWidth="1px" borderRadius="xl" p={{ base: '5', md: '6' }} data-testid="jobs-admin">
      <Flex align="center" gap="2" mb="3" wrap="wrap">
        <ListChecks size={18} aria-hidden />
        <Heading as="h3" size="md">
          <Trans>任务队列</Trans>
        </Heading>
        <Button
          size="xs"
          variant="ghost"
          ms="auto"
          loading={loading}
          onClick={() => actor.send({ type: 'refresh requested' })}
          data-testid="jobs-refresh"
        >
          <RefreshCw size={14} aria-hidden />
          <Trans>刷新</Trans>
        </Button>
      </Flex>
      {error ? (
        <Alert.Root status="error" size="sm" mb="3">
          <Alert.Indicator />
          <Alert.Title>{translateNotice(i18n, error)}</Alert.Title>
        </Alert.Root>
      ) : null}
      {empty ? (
        <Text fontSize="sm" color="fg.muted" data-testid="jobs-empty">
          <Trans>还没有任务。上传文档、PDF、图片、音视频或校对网站后，任务会出现在这里。</Trans>
        </Text>
      ) : null}
      {queue && !empty ? (
        <>
          <Wrap gap="2" mb="2" data-testid="jobs-counts">
            {queue.counts.map((c) => (
              <Badge key={`${c.kind}-${c.state}`} size="sm" colorPalette={c.state === 'failed' ? 'red' : 'gray'}>
                {kindOf(c)} · {i18n._(STATE_LABELS[c.state])} {c.count}
              </Badge>
            ))}
          </Wrap>
          <Text fontSize="sm" color="fg.muted" mb="4" data-testid="jobs-oldest">
            {oldest === null ? t`没有排队的任务` : t`最早的排队任务已等待 ${oldest} 秒`}
          </Text>
          <Heading as="h4" size="sm" mb="2">
            <Trans>进行中</Trans>
          </Heading>
          {queue.running.length === 0 ? (
            <Text fontSize="sm" color="fg.muted" mb="4">
              <Trans>没有进行中的任务</Trans>
            </Text>
          ) : (
            <Table.Root css={STACK_ON_PHONE} size="sm" mb="4" aria-label={t`进行中的任务`}>
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>{t`任务`}</Table.ColumnHeader>
                  <Table.ColumnHeader>{t`用户`}</Table.ColumnHeader>
                  <Table.ColumnHeader>{t`进度`}</Table.ColumnHeader>
                  <Table.ColumnHeader>{t`服务进程`}</Table.ColumnHeader>
                  <Table.ColumnHeader />
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {queue.running.map((job) => (
                  <Table.Row key={job.id} data-testid={`job-running-${job.id}`}>
                    <Table.Cell data-label={t`任务`}>
                      {kindOf(job)} #{job.ref}
                    </Table.Cell>
                    <Table.Cell data-label={t`用户`}>{job.uid}</Table.Cell>
                    <Table.Cell data-label={t`进度`}>
                      <Progress.Root value={job.progress} size="sm" minW="24" aria-label={t`进度`}>
                        <Progress.Track>
                          <Progress.Range />
                        </Progress.Track>
                      </Progress.Root>
                    </Table.Cell>
                    <Table.Cell data-label={t`服务进程`}>
                      <Text as="span" fontFamily="mono" fontSize="xs">
                        {job.owner ?? ''}
                      </Text>
                    </Table.Cell>
                    <Table.Cell textAlign="end">
                      <Button
                        size="xs"
                        variant="outline"
                        colorPalette="red"
                        onClick={() => actor.send({ type: 'cancel requested', job })}
                      >
                        <Trans>取消</Trans>
                      </Button>
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          )}
          <Heading as="h4" size="sm" mb="2">
            <Trans>最近失败</Trans>
          </Heading>
          {queue.failures.length === 0 ? (
            <Text fontSize="sm" color="fg.muted">
              <Trans>没有失败的任务</Trans>
            </Text>
          ) : (
            <Table.Root css={STACK_ON_PHONE} size="sm" aria-label={t`失败的任务`}>
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>{t`任务`}</Table.ColumnHeader>
                  <Table.ColumnHeader>{t`用户`}</Table.ColumnHeader>
                  <Table.ColumnHeader>{t`原因`}</Table.ColumnHeader>
                  <Table.ColumnHeader>{t`尝试次数`}</Table.ColumnHeader>
                  <Table.ColumnHeader />
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {queue.failures.map((job) => (
                  <Table.Row key={job.id} data-testid={`job-failed-${job.id}`}>
                    <Table.Cell data-label={t`任务`}>
                      {kindOf(job)} #{job.ref}
                    </Table.Cell>
                    <Table.Cell data-label={t`用户`}>{job.uid}</Table.Cell>
                    <Table.Cell data-label={t`原因`} title={job.error_code ?? undefined}>
                      {reasonOf(i18n, job.error_code)}
                    </Table.Cell>
                    <Table.Cell data-label={t`尝试次数`}>{job.attempts}</Table.Cell>
                    <Table.Cell textAlign="end">
                      <Button
                        size="xs"
                        variant="outline"
                        onClick={() => actor.send({ type: 'retry requested', job })}
                        data-testid={`job-retry-${job.id}`}
                      >
                        <Trans>重试</Trans>
                      </Button>
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          )}
        </>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title={pending?.action === 'cancel' ? t`取消这个任务？` : t`重试这个任务？`}
        description={
          pending
            ? pending.action === 'cancel'
              ? t`${kindOf(pending.job)} #${pending.job.ref} 会停止，已扣的次数或字数退回给用户。`
              : t`${kindOf(pending.job)} #${pending.job.ref} 会重新排队，不再向用户扣费。`
            : undefined
        }
        destructive={pending?.action === 'cancel'}
        loading={acting}
        onConfirm={() => actor.send({ type: 'confirmed' })}
        onCancel={() => actor.send({ type: 'dismissed' })}
      />
    </Box>
  );
}

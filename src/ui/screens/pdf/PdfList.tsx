// PDF proofreading (route /pdf): upload a PDF (one check of right 4), follow each check page by page, open its
// pages with the findings drawn on them, cancel a running check (given back) or delete one.
import { useEffect, useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Badge,
  Box,
  Button,
  EmptyState,
  HStack,
  IconButton,
  Progress,
  Skeleton,
  Stack,
  Table,
  Text,
  VStack,
} from '@chakra-ui/react';
import { Eye, FileType, Square, Trash2 } from 'lucide-react';
import { useActorRef, useSelector } from '@xstate/react';
import { useLocation } from 'wouter';
import { AppActorContext } from '../../app-actor';
import { systemActor } from '../../../machines/system';
import { livePdfChecks, pdfUploadBinding } from '../../../machines/live-pdf';
import { inspectOptions } from '../../../machines/inspect';
import { PDF_PAGE_SIZE, type PdfChecksEvent } from '../../../machines/pdfChecks';
import type { PdfSummary } from '../../../machines/pdfCalls';
import { ListPagination } from '../../layout/ListPagination';
import { ConfirmDialog } from '../../layout/ConfirmDialog';
import { translateNotice } from '../../notices';
import { FileDrop, formatBytes } from '../../upload/FileDrop';
import { UploadStatus } from '../../upload/UploadStatus';
import { usePipeline } from '../../upload/usePipeline';
import { Verbatim } from '../../layout/Verbatim';
import { STACK_ON_PHONE } from '../../layout/stacked-table';

export default function PdfList() {
  const { t } = useLingui();
  const app = AppActorContext.useActorRef();
  const logic = useMemo(() => livePdfChecks({ socket: () => systemActor(app.system, 'socket') }), [app]);
  const actor = useActorRef(logic, inspectOptions());
  const send = (event: PdfChecksEvent) => actor.send(event);
  const loading = useSelector(actor, (s) => s.matches('loading'));
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const list = useSelector(actor, (s) => s.context.list);
  const total = useSelector(actor, (s) => s.context.total);
  const num = useSelector(actor, (s) => s.context.num);
  const error = useSelector(actor, (s) => s.context.error);
  const binding = useMemo(() => pdfUploadBinding(), []);
  const pipeline = usePipeline<PdfSummary>(binding);
  // a finished upload joins the list (the machine keeps each check once)
  const uploaded = pipeline.result;
  useEffect(() => {
    if (uploaded) actor.send({ type: 'uploaded', pdf: uploaded });
  }, [uploaded, actor]);

  return (
    <Stack gap="4" data-testid="pdf-screen">
      <FileDrop
        accept=".pdf"
        title={t`选择要校对的 PDF`}
        hint={t`含文字的 PDF 逐页读取；扫描页用文字识别。每个文件扣除 1 次 PDF 校对次数，失败或取消时退回。`}
        file={pipeline.file}
        disabled={pipeline.running}
        onFile={(f) => pipeline.start(f)}
        testId="pdf-drop"
      />
      <UploadStatus
        view={pipeline.view}
        processingLabel={t`正在读取 PDF…`}
        onCancel={pipeline.cancel}
        onRetry={pipeline.retry}
        testId="pdf-upload"
      />
      {failed ? (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>{error ?? t`无法加载 PDF 列表`}</Alert.Title>
          <Button size="xs" variant="outline" ms="auto" onClick={() => send({ type: 'retry' })}>
            <Trans>重试</Trans>
          </Button>
        </Alert.Root>
      ) : loading ? (
        <Stack gap="2" aria-busy>
          <Skeleton h="10" />
          <Skeleton h="10" />
        </Stack>
      ) : list.length === 0 ? (
        <Box bg="panel" borderWidth="1px" borderRadius="xl" py="12" data-testid="pdf-empty">
          <EmptyState.Root>
            <EmptyState.Content>
              <EmptyState.Indicator>
                <FileType />
              </EmptyState.Indicator>
              <VStack textAlign="center">
                <EmptyState.Title as="h2">
                  <Trans>还没有校对过 PDF</Trans>
                </EmptyState.Title>
                <EmptyState.Description>
                  <Trans>上传 PDF 后，每一页的问题会标在页面上，逐条列在旁边。</Trans>
                </EmptyState.Description>
              </VStack>
            </EmptyState.Content>
          </EmptyState.Root>
        </Box>
      ) : (
        <>
          <PdfTable list={list} send={send} />
          <ListPagination
            total={total}
            size={PDF_PAGE_SIZE}
            page={num}
            onPage={(page) => send({ type: 'page', num: page })}
          />
        </>
      )}
    </Stack>
  );
}

function Status({ pdf }: { pdf: PdfSummary }) {
  const { t, i18n } = useLingui();
  if (pdf.status === 'queued' || pdf.status === 'running')
    return (
      <Stack gap="1" minW="140px" data-testid="pdf-status" data-status={pdf.status}>
        <Text fontSize="sm">
          {pdf.status === 'queued' ? t`排队中` : t`第 ${pdf.pages_done}/${pdf.page_count} 页 · ${pdf.progress}%`}
        </Text>
        <Progress.Root value={pdf.progress} size="xs" colorPalette="blue" aria-label={t`校对进度`}>
          <Progress.Track>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
      </Stack>
    );
  if (pdf.status === 'done')
    return (
      <Badge colorPalette="green" data-testid="pdf-status" data-status="done">
        <Trans>已完成</Trans>
      </Badge>
    );
  return (
    <Stack gap="0" data-testid="pdf-status" data-status={pdf.status}>
      <Badge colorPalette={pdf.status === 'failed' ? 'red' : 'gray'} w="fit-content">
        {pdf.status === 'failed' ? t`失败` : t`已取消`}
      </Badge>
      {pdf.error ? (
        <Text fontSize="xs" color="fg.muted">
          {translateNotice(i18n, pdf.error)}
        </Text>
      ) : null}
    </Stack>
  );
}

function PdfTable({ list, send }: { list: PdfSummary[]; send(event: PdfChecksEvent): void }) {
  const { t, i18n } = useLingui();
  const [, navigate] = useLocation();
  const [deleting, setDeleting] = useState<PdfSummary | null>(null);
  return (
    <Box bg="panel" borderWidth="1px" borderRadius="xl" overflowX="auto">
      <Table.Root css={STACK_ON_PHONE} size="sm" aria-label={t`PDF 校对`}>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>
              <Trans>文件名</Trans>
            </Table.ColumnHeader>
            <Table.ColumnHeader>
              <Trans>状态</Trans>
            </Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">
              <Trans>页数</Trans>
            </Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">
              <Trans>问题</Trans>
            </Table.ColumnHeader>
            <Table.ColumnHeader>
              <Trans>上传时间</Trans>
            </Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">
              <Trans>操作</Trans>
            </Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {list.map((pdf) => {
            const running = pdf.status === 'queued' || pdf.status === 'running';
            return (
              <Table.Row key={pdf.id} data-testid="pdf-row" data-id={pdf.id}>
                <Table.Cell data-label={t`文件名`} maxW="320px">
                  <Text fontWeight="medium" truncate>
                    <Verbatim>{pdf.name}</Verbatim>
                  </Text>
                  <Text fontSize="xs" color="fg.muted">
                    {formatBytes(pdf.size)}
                  </Text>
                </Table.Cell>
                <Table.Cell data-label={t`状态`}>
                  <Status pdf={pdf} />
                </Table.Cell>
                <Table.Cell data-label={t`页数`} textAlign="end">
                  {pdf.page_count}
                </Table.Cell>
                <Table.Cell data-label={t`问题`} textAlign="end" data-testid="pdf-issue-count">
                  {pdf.issue_count}
                </Table.Cell>
                <Table.Cell data-label={t`上传时间`} whiteSpace="nowrap">
                  {i18n.date(new Date(pdf.created_at), { dateStyle: 'medium', timeStyle: 'short' })}
                </Table.Cell>
                <Table.Cell data-label={t`操作`} textAlign="end">
                  <HStack gap="1" justify="flex-end">
                    <Button
                      size="xs"
                      variant="outline"
                      disabled={pdf.pages_done === 0}
                      onClick={() => navigate(`/pdfdetail?id=${pdf.id}`)}
                      data-testid="pdf-open"
                    >
                      <Eye size={14} />
                      <Trans>查看</Trans>
                    </Button>
                    {running ? (
                      <IconButton
                        size="xs"
                        variant="ghost"
                        onClick={() => send({ type: 'cancel', id: pdf.id })}
                        aria-label={t`取消校对 ${pdf.name}`}
                        data-testid="pdf-cancel"
                      >
                        <Square size={14} />
                      </IconButton>
                    ) : null}
                    <IconButton
                      size="xs"
                      variant="ghost"
                      colorPalette="red"
                      onClick={() => setDeleting(pdf)}
                      aria-label={t`删除 ${pdf.name}`}
                    >
                      <Trash2 size={14} />
                    </IconButton>
                  </HStack>
                </Table.Cell>
              </Table.Row>
            );
          })}
        </Table.Body>
      </Table.Root>
      <ConfirmDialog
        open={deleting !== null}
        destructive
        title={t`删除「${deleting?.name ?? ''}」？`}
        description={t`PDF 和它的校对结果都会删除；正在进行的校对会停止并退回次数。`}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) send({ type: 'delete', id: deleting.id });
          setDeleting(null);
        }}
      />
    </Box>
  );
}

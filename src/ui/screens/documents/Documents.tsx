// Document list (route /document, kept alive): upload (button or drag and drop) with one
// progress bar per upload (bytes, then the server's check), the user's documents in a paged table,
// delete with confirmation, open in the editor.
import { useEffect, useRef, useState, type DragEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { translateNotice } from '../../notices';
import './notices';
import {
  Badge,
  Box,
  Button,
  EmptyState,
  Flex,
  HStack,
  IconButton,
  Progress,
  Spinner,
  Stack,
  Table,
  Text,
  VStack,
} from '@chakra-ui/react';
import { ChevronLeft, ChevronRight, FileText, RotateCcw, Trash2, Upload, X } from 'lucide-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useLocation } from 'wouter';
import { notify } from '../../../api/notify';
import type { DocumentUploadsRef, UploadItem } from '../../../machines/documentUploads';
import { DOCUMENT_EXTENSIONS } from '../../../machines/documentUploads';
import { documentsKey, deleteDocuments, documentPage, type DocumentSummary } from '../../../machines/documentCalls';
import { overallProgress, phaseOf, type UploadPhase } from '../../../machines/uploadPipeline';
import { useLanguage, useSystemActor } from '../../app-actor';
import { ConfirmDialog } from '../../layout/ConfirmDialog';
import { formatBytes, formatDate, StatusBadge } from './status';
import { Verbatim } from '../../layout/Verbatim';
import { STACK_ON_PHONE } from '../../layout/stacked-table';

const PAGE_SIZE = 10;

const useUploads = (): DocumentUploadsRef => useSystemActor('documentUploads');

function PhaseText({ phase, progress }: { phase: UploadPhase; progress: number }) {
  const percent = Math.round(progress * 100);
  switch (phase) {
    case 'uploading':
      return <Trans>上传中 {percent}%</Trans>;
    case 'queued':
      return <Trans>排队中</Trans>;
    case 'processing':
      return <Trans>校对中 {percent}%</Trans>;
    case 'done':
      return <Trans>已完成</Trans>;
    case 'failed':
      return <Trans>失败</Trans>;
    case 'cancelled':
      return <Trans>已取消</Trans>;
    default:
      return null;
  }
}

function UploadRow({
  item,
  onDismiss,
  onOpen,
}: {
  item: UploadItem;
  onDismiss: () => void;
  onOpen: (id: number) => void;
}) {
  const { t, i18n } = useLingui();
  const phase = useSelector(item.ref, phaseOf);
  const progress = useSelector(item.ref, (s) => overallProgress(s.context, phaseOf(s)));
  const error = useSelector(item.ref, (s) => s.context.error?.message ?? null);
  const job = useSelector(item.ref, (s) => s.context.job);
  const active = phase === 'uploading' || phase === 'queued' || phase === 'processing';
  // the server answered (the document exists) or the job ended: the table shows it as it is now
  const queryClient = useQueryClient();
  useEffect(() => {
    if (phase !== 'idle' && phase !== 'uploading') void queryClient.invalidateQueries({ queryKey: documentsKey });
  }, [phase, queryClient]);
  const palette = phase === 'failed' ? 'red' : phase === 'done' ? 'green' : phase === 'cancelled' ? 'gray' : 'blue';
  return (
    <Box borderWidth="1px" borderRadius="md" p="3" data-testid="upload-row" data-phase={phase} data-name={item.name}>
      <Flex gap="2" align="center">
        <FileText size={16} />
        <Text flex="1" minW="0" truncate fontWeight="medium">
          <Verbatim>{item.name}</Verbatim>
        </Text>
        <Text fontSize="sm" color={phase === 'failed' ? 'fg.error' : 'fg.muted'} data-testid="upload-phase">
          <PhaseText phase={phase} progress={progress} />
        </Text>
        {phase === 'done' && job ? (
          <Button size="xs" variant="outline" onClick={() => onOpen(job.id)} data-testid="upload-open">
            <Trans>打开</Trans>
          </Button>
        ) : null}
        {active ? (
          <Button
            size="xs"
            variant="ghost"
            colorPalette="red"
            onClick={() => item.ref.send({ type: 'cancel requested' })}
            data-testid="upload-cancel"
          >
            <Trans>取消</Trans>
          </Button>
        ) : null}
        {phase === 'failed' || phase === 'cancelled' ? (
          <Button
            size="xs"
            variant="outline"
            onClick={() => item.ref.send({ type: 'retry' })}
            data-testid="upload-retry"
          >
            <RotateCcw size={14} />
            <Trans>重试</Trans>
          </Button>
        ) : null}
        {!active ? (
          <IconButton size="xs" variant="ghost" aria-label={t`移除`} onClick={onDismiss} data-testid="upload-dismiss">
            <X />
          </IconButton>
        ) : null}
      </Flex>
      <Progress.Root
        mt="2"
        size="xs"
        value={Math.round(progress * 100)}
        colorPalette={palette}
        aria-label={t`上传与校对进度`}
        data-testid="upload-progress"
        data-value={Math.round(progress * 100)}
      >
        <Progress.Track>
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
      {error ? (
        <Text mt="1" fontSize="sm" color="fg.error" data-testid="upload-error">
          {translateNotice(i18n, error)}
        </Text>
      ) : null}
    </Box>
  );
}

export default function Documents() {
  const { t } = useLingui();
  const { locale } = useLanguage();
  const uploads = useUploads();
  const items = useSelector(uploads, (s) => s.context.items);
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [num, setNum] = useState(1);
  const [dragging, setDragging] = useState(false);
  const [deleting, setDeleting] = useState<DocumentSummary | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const page = useQuery({ queryKey: [...documentsKey, num, PAGE_SIZE], queryFn: () => documentPage(num, PAGE_SIZE) });

  const choose = (files: FileList | File[] | null) => {
    if (!files || files.length === 0) return;
    // checked in the interface's variant of Chinese (hk: Traditional)
    uploads.send({ type: 'files chosen', files: [...files], fields: { lang: locale === 'hk' ? 'hk' : 'cn' } });
    setNum(1);
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    choose(e.dataTransfer?.files ?? null);
  };

  const open = (id: number) => navigate(`/editor?id=${id}`);

  const confirmDelete = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await deleteDocuments([deleting.id]);
      notify({ status: 'success', title: '已删除' });
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: documentsKey });
    } catch {
      // the catalogue told the user
    } finally {
      setBusy(false);
    }
  };

  const data = page.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  useEffect(() => {
    if (data && num > pages) setNum(pages);
  }, [data, num, pages]);

  return (
    <Stack gap="5" data-testid="documents-screen">
      <Box
        borderWidth="2px"
        borderStyle="dashed"
        borderColor={dragging ? 'blue.solid' : 'border'}
        bg={dragging ? 'blue.subtle' : 'panel'}
        borderRadius="xl"
        p="6"
        textAlign="center"
        data-testid="drop-zone"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <VStack gap="2">
          <Upload />
          <Text fontWeight="medium">
            <Trans>把文档拖到这里，或</Trans>
          </Text>
          <Button colorPalette="blue" onClick={() => input.current?.click()} data-testid="upload-button">
            <Upload size={16} />
            <Trans>上传文档</Trans>
          </Button>
          <Text fontSize="sm" color="fg.muted">
            <Trans>支持 .docx、.pptx（按幻灯片）、.txt、.md；.doc 与 .wps 需要服务器安装 LibreOffice</Trans>
          </Text>
          <input
            ref={input}
            type="file"
            multiple
            hidden
            accept={DOCUMENT_EXTENSIONS.join(',')}
            data-testid="upload-input"
            aria-label={t`选择文档`}
            onChange={(e) => {
              choose(e.currentTarget.files);
              e.currentTarget.value = '';
            }}
          />
        </VStack>
      </Box>

      {items.length ? (
        <Stack gap="2" data-testid="upload-list">
          {items.map((item) => (
            <UploadRow
              key={item.key}
              item={item}
              onOpen={open}
              onDismiss={() => uploads.send({ type: 'dismiss', key: item.key })}
            />
          ))}
        </Stack>
      ) : null}

      <Box bg="panel" borderWidth="1px" borderRadius="xl" p="4">
        {page.isPending ? (
          <Flex justify="center" py="10">
            <Spinner />
          </Flex>
        ) : page.isError ? (
          <VStack py="10" gap="3">
            <Text color="fg.error">
              <Trans>文档列表加载失败</Trans>
            </Text>
            <Button size="sm" variant="outline" onClick={() => void page.refetch()}>
              <Trans>重试</Trans>
            </Button>
          </VStack>
        ) : data && data.total === 0 ? (
          <EmptyState.Root size="md" data-testid="documents-empty">
            <EmptyState.Content>
              <EmptyState.Indicator>
                <FileText />
              </EmptyState.Indicator>
              <VStack textAlign="center">
                <EmptyState.Title as="h2">
                  <Trans>还没有文档</Trans>
                </EmptyState.Title>
                <EmptyState.Description>
                  <Trans>上传 Word、文本或 Markdown 文档，校对结果会显示在这里。</Trans>
                </EmptyState.Description>
              </VStack>
            </EmptyState.Content>
          </EmptyState.Root>
        ) : (
          <Stack gap="3">
            <Table.ScrollArea>
              <Table.Root css={STACK_ON_PHONE} size="sm" data-testid="documents-table">
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeader>
                      <Trans>文档名称</Trans>
                    </Table.ColumnHeader>
                    <Table.ColumnHeader textAlign="end">
                      <Trans>大小</Trans>
                    </Table.ColumnHeader>
                    <Table.ColumnHeader>
                      <Trans>状态</Trans>
                    </Table.ColumnHeader>
                    <Table.ColumnHeader textAlign="end">
                      <Trans>错误数</Trans>
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
                  {data?.list.map((d) => (
                    <Table.Row key={d.id} data-testid="document-row" data-id={d.id} data-status={d.status}>
                      <Table.Cell data-label={t`文档名称`} maxW="xs">
                        <Button
                          variant="plain"
                          size="sm"
                          p="0"
                          h="auto"
                          color="fg"
                          _hover={{ color: 'blue.fg', textDecoration: 'underline' }}
                          onClick={() => open(d.id)}
                          data-testid="document-name"
                        >
                          <Text truncate>
                            <Verbatim>{d.name}</Verbatim>
                          </Text>
                        </Button>
                      </Table.Cell>
                      <Table.Cell data-label={t`大小`} textAlign="end" whiteSpace="nowrap">
                        {formatBytes(d.size)}
                      </Table.Cell>
                      <Table.Cell data-label={t`状态`}>
                        <StatusBadge status={d.status} progress={d.progress} error={d.error} />
                      </Table.Cell>
                      <Table.Cell data-label={t`错误数`} textAlign="end" data-testid="document-issues">
                        {d.status === 'done' ? (
                          <Badge colorPalette={d.issue_count ? 'red' : 'green'} variant="subtle">
                            {d.issue_count}
                          </Badge>
                        ) : (
                          '—'
                        )}
                      </Table.Cell>
                      <Table.Cell data-label={t`上传时间`} whiteSpace="nowrap">
                        {formatDate(d.created_at, locale)}
                      </Table.Cell>
                      <Table.Cell data-label={t`操作`} textAlign="end">
                        <HStack gap="1" justify="end">
                          <Button size="xs" variant="outline" onClick={() => open(d.id)} data-testid="document-open">
                            <Trans>打开</Trans>
                          </Button>
                          <IconButton
                            size="xs"
                            variant="ghost"
                            colorPalette="red"
                            aria-label={t`删除`}
                            onClick={() => setDeleting(d)}
                            data-testid="document-delete"
                          >
                            <Trash2 />
                          </IconButton>
                        </HStack>
                      </Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table.Root>
            </Table.ScrollArea>
            <Flex align="center" justify="end" gap="2" fontSize="sm">
              <Text color="fg.muted" data-testid="documents-total">
                <Trans>共 {data?.total ?? 0} 个文档</Trans>
              </Text>
              <IconButton
                size="xs"
                variant="outline"
                aria-label={t`上一页`}
                disabled={num <= 1}
                onClick={() => setNum(num - 1)}
                data-testid="page-prev"
              >
                <ChevronLeft />
              </IconButton>
              <Text data-testid="page-number">
                {num} / {pages}
              </Text>
              <IconButton
                size="xs"
                variant="outline"
                aria-label={t`下一页`}
                disabled={num >= pages}
                onClick={() => setNum(num + 1)}
                data-testid="page-next"
              >
                <ChevronRight />
              </IconButton>
            </Flex>
          </Stack>
        )}
      </Box>

      <ConfirmDialog
        open={deleting !== null}
        title={<Trans>删除文档</Trans>}
        description={deleting ? <Trans>确定要删除「{deleting.name}」吗？删除后无法恢复。</Trans> : null}
        destructive
        loading={busy}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
      />
    </Stack>
  );
}

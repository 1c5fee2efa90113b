import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Box,
  Button,
  EmptyState,
  HStack,
  IconButton,
  Skeleton,
  Stack,
  Table,
  Text,
  VStack,
} from '@chakra-ui/react';
import { Download, Inbox, Trash2 } from 'lucide-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deleteDownload, downloadFile, downloadPage, type DownloadFile } from '../../api/downloads';
import { notify } from '../../api/notify';
import { queryKeys } from '../../api/queries';
import { ListPagination } from '../layout/ListPagination';
import { ConfirmDialog } from '../layout/ConfirmDialog';
import { saveFile } from '../save-file';
import { Verbatim } from '../layout/Verbatim';
import { STACK_ON_PHONE } from '../layout/stacked-table';

const PAGE_SIZE = 20;

/** Bytes as B / KB / MB with the locale's digits. */
export function formatSize(bytes: number, format: (n: number, o?: Intl.NumberFormatOptions) => string): string {
  if (bytes < 1024) return `${format(bytes)} B`;
  if (bytes < 1024 * 1024) return `${format(bytes / 1024, { maximumFractionDigits: 1 })} KB`;
  return `${format(bytes / 1024 / 1024, { maximumFractionDigits: 1 })} MB`;
}

/** Download center (route `download`): files produced by exports, with expiry and re-download. */
export default function Downloads() {
  const { t } = useLingui();
  const [num, setNum] = useState(1);
  const page = useQuery({
    queryKey: queryKeys.downloads(num),
    queryFn: () => downloadPage(num, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });

  return (
    <Stack gap="4" maxW="5xl" data-testid="downloads">
      <Text color="fg.muted">
        <Trans>导出的文档、词库等文件会在这里保留 7 天，过期后自动删除。</Trans>
      </Text>
      {page.isError ? (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>
            <Trans>无法加载下载列表</Trans>
          </Alert.Title>
          <Button size="xs" variant="outline" ms="auto" onClick={() => page.refetch()}>
            <Trans>重试</Trans>
          </Button>
        </Alert.Root>
      ) : page.isPending ? (
        <Stack gap="2" aria-busy>
          <Skeleton h="10" />
          <Skeleton h="10" />
          <Skeleton h="10" />
        </Stack>
      ) : page.data.total === 0 ? (
        <Box bg="panel" borderWidth="1px" borderRadius="xl" py="16" data-testid="downloads-empty">
          <EmptyState.Root>
            <EmptyState.Content>
              <EmptyState.Indicator>
                <Inbox />
              </EmptyState.Indicator>
              <VStack textAlign="center">
                <EmptyState.Title as="h2">
                  <Trans>暂无可下载的文件</Trans>
                </EmptyState.Title>
                <EmptyState.Description>
                  <Trans>在文档或词库中导出后，文件会出现在这里。</Trans>
                </EmptyState.Description>
              </VStack>
            </EmptyState.Content>
          </EmptyState.Root>
        </Box>
      ) : (
        <>
          <Box bg="panel" borderWidth="1px" borderRadius="xl" overflowX="auto">
            <Table.Root css={STACK_ON_PHONE} size="sm" aria-label={t`下载中心`}>
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>
                    <Trans>文件名</Trans>
                  </Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">
                    <Trans>大小</Trans>
                  </Table.ColumnHeader>
                  <Table.ColumnHeader>
                    <Trans>生成时间</Trans>
                  </Table.ColumnHeader>
                  <Table.ColumnHeader>
                    <Trans>过期时间</Trans>
                  </Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">
                    <Trans>操作</Trans>
                  </Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {page.data.list.map((file) => (
                  <FileRow key={file.id} file={file} />
                ))}
              </Table.Body>
            </Table.Root>
          </Box>
          <ListPagination total={page.data.total} size={PAGE_SIZE} page={num} onPage={(page) => setNum(page)} />
        </>
      )}
    </Stack>
  );
}

function FileRow({ file }: { file: DownloadFile }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const fetchFile = useMutation({
    mutationFn: () => downloadFile(file.id),
    onSuccess: (blob) => saveFile({ blob, name: file.name }),
  });
  const remove = useMutation({
    mutationFn: () => deleteDownload(file.id),
    onSuccess: () => {
      setConfirming(false);
      notify({ status: 'success', title: t`已删除` });
      return queryClient.invalidateQueries({ queryKey: ['user', 'downloads'] });
    },
  });
  const when = (iso: string) => i18n.date(new Date(iso), { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Table.Row data-testid="download-row">
      <Table.Cell wordBreak="break-all">
        <Verbatim>{file.name}</Verbatim>
      </Table.Cell>
      <Table.Cell textAlign="end" whiteSpace="nowrap">
        {formatSize(file.size, (n, o) => i18n.number(n, o))}
      </Table.Cell>
      <Table.Cell whiteSpace="nowrap">{when(file.created_at)}</Table.Cell>
      <Table.Cell whiteSpace="nowrap">{when(file.expires_at)}</Table.Cell>
      <Table.Cell textAlign="end">
        <HStack gap="2" justify="flex-end">
          <Button
            size="xs"
            variant="outline"
            loading={fetchFile.isPending}
            onClick={() => fetchFile.mutate()}
            aria-label={t`下载 ${file.name}`}
          >
            <Download size={14} aria-hidden />
            <Trans>下载</Trans>
          </Button>
          <IconButton
            size="xs"
            variant="ghost"
            colorPalette="red"
            onClick={() => setConfirming(true)}
            aria-label={t`删除 ${file.name}`}
          >
            <Trash2 size={14} />
          </IconButton>
        </HStack>
        <ConfirmDialog
          open={confirming}
          destructive
          loading={remove.isPending}
          title={t`删除「${file.name}」？`}
          description={t`删除后无法恢复，需要时请重新导出。`}
          onCancel={() => setConfirming(false)}
          onConfirm={() => remove.mutate()}
        />
      </Table.Cell>
    </Table.Row>
  );
}

// /diff: compare two documents (.docx, .txt, .md, .pdf with text). Both files go up in one request
// through the upload pipeline; limits come from the rights (4096 compares left, 262144 pages, 524288
// MB per file) and a refused compare shows the server's message.
import { useEffect, useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, EmptyState, Flex, IconButton, Stack, Text, VStack } from '@chakra-ui/react';
import { ArrowLeftRight, GitCompareArrows } from 'lucide-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../../api/queries';
import { COMPARE_ACCEPT, compareRights, type CompareResult } from '../../../machines/compareCalls';
import { compareBinding } from '../../../machines/live';
import { userRight } from '../../../machines/proofreadCalls';
import type { components } from '../../../../openapi/schema';
import { FileDrop } from '../../upload/FileDrop';
import { UploadStatus } from '../../upload/UploadStatus';
import { usePipeline } from '../../upload/usePipeline';
import { DiffView } from './DiffView';
import { formatRight } from '../../format/balance';

function useRight(type: UserRightType) {
  return useQuery({ queryKey: queryKeys.userRight(type), queryFn: () => userRight(type) });
}

type UserRightType = components['schemas']['UserRightType'];

export default function Diff() {
  const { t, i18n } = useLingui();
  const [original, setOriginal] = useState<File | null>(null);
  const [revised, setRevised] = useState<File | null>(null);
  const revisedRef = useRef<File | null>(null);
  revisedRef.current = revised;
  const pipeline = usePipeline<CompareResult>(compareBinding(() => revisedRef.current));
  const compares = useRight(compareRights.docCompare);
  const pages = useRight(compareRights.compareMaxPages);
  const size = useRight(compareRights.compareMaxSize);
  const queryClient = useQueryClient();

  const done = pipeline.view.phase === 'done';
  useEffect(() => {
    // every finished compare (or a refused one) changes the count left
    if (done || pipeline.view.phase === 'failed')
      void queryClient.invalidateQueries({ queryKey: queryKeys.userRight(compareRights.docCompare) });
  }, [done, pipeline.view.phase, queryClient]);

  const ready = !!original && !!revised && !pipeline.running;
  const compare = () => {
    if (original && revised) pipeline.start(original);
  };
  const dash = '…';
  const amount = (right: { data?: { user_right_type: number; disposable_num: number } | null }) =>
    right.data ? formatRight(i18n, right.data.user_right_type, right.data.disposable_num) : dash;
  const [comparesLeft, pagesMax, sizeMax] = [amount(compares), amount(pages), amount(size)];

  return (
    <Stack gap="5" data-testid="diff-screen">
      <Flex gap="3" direction={{ base: 'column', md: 'row' }} align="stretch">
        <FileDrop
          accept={COMPARE_ACCEPT}
          title={t`原文档`}
          hint={t`.docx、.txt、.md 或含文字的 .pdf`}
          file={original}
          disabled={pipeline.running}
          onFile={setOriginal}
          testId="diff-original-drop"
        />
        <IconButton
          alignSelf="center"
          variant="ghost"
          aria-label={t`交换两份文档`}
          disabled={pipeline.running || (!original && !revised)}
          onClick={() => {
            setOriginal(revised);
            setRevised(original);
          }}
          data-testid="diff-swap"
        >
          <ArrowLeftRight />
        </IconButton>
        <FileDrop
          accept={COMPARE_ACCEPT}
          title={t`修改后文档`}
          hint={t`.docx、.txt、.md 或含文字的 .pdf`}
          file={revised}
          disabled={pipeline.running}
          onFile={setRevised}
          testId="diff-revised-drop"
        />
      </Flex>
      <Flex gap="4" align="center" wrap="wrap">
        <Text fontSize="sm" color="fg.muted" data-testid="diff-limits">
          <Trans>
            剩余比对次数：{comparesLeft} · 每份文件不超过 {pagesMax}、{sizeMax}
          </Trans>
        </Text>
        <Flex flex="1" />
        <Button
          colorPalette="blue"
          onClick={compare}
          disabled={!ready}
          loading={pipeline.running}
          data-testid="diff-compare"
        >
          <GitCompareArrows size={16} />
          <Trans>开始比对</Trans>
        </Button>
      </Flex>

      <UploadStatus
        view={pipeline.view}
        processingLabel={t`正在比对…`}
        onCancel={pipeline.cancel}
        onRetry={pipeline.retry}
        testId="diff-upload"
      />

      {pipeline.result ? (
        <DiffView result={pipeline.result} />
      ) : pipeline.view.phase === 'idle' ? (
        <EmptyState.Root bg="panel" borderWidth="1px" borderRadius="xl" data-testid="diff-empty">
          <EmptyState.Content>
            <EmptyState.Indicator>
              <GitCompareArrows />
            </EmptyState.Indicator>
            <VStack textAlign="center" maxW="xl">
              <EmptyState.Title as="h2">
                <Trans>选择两份文档开始比对</Trans>
              </EmptyState.Title>
              <EmptyState.Description>
                <Trans>左右对照显示增加、删除和修改的段落与文字，可用按钮或 Alt+↓/Alt+↑ 逐处查看。</Trans>
              </EmptyState.Description>
            </VStack>
          </EmptyState.Content>
        </EmptyState.Root>
      ) : null}
    </Stack>
  );
}

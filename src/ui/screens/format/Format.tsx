// /format: check a .docx against a format template (GB/T 9704-2012 first). Choosing or dropping a file
// starts the upload pipeline; the answer is the report. Changing the template re-checks the same file.
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Box, EmptyState, Field, Flex, NativeSelect, Skeleton, Stack, Text, VStack } from '@chakra-ui/react';
import { Ruler } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { FORMAT_ACCEPT, templateTypes, type FormatReport } from '../../../machines/formatCalls';
import { formatCheckBinding } from '../../../machines/live';
import { FileDrop } from '../../upload/FileDrop';
import { UploadStatus } from '../../upload/UploadStatus';
import { usePipeline } from '../../upload/usePipeline';
import { FormatReportView } from './FormatReportView';

export default function Format() {
  const { t } = useLingui();
  const templates = useQuery({
    queryKey: ['misscut', 'doc', 'template-types'],
    queryFn: templateTypes,
    staleTime: 5 * 60_000,
  });
  const [chosen, setChosen] = useState<number | null>(null);
  const templateId = chosen ?? templates.data?.[0]?.id ?? null;
  const template = templates.data?.find((x) => x.id === templateId);
  const pipeline = usePipeline<FormatReport>(formatCheckBinding);

  const check = (file: File, id = templateId) => {
    if (id === null) return;
    pipeline.start(file, { template_id: String(id) });
  };

  return (
    <Stack gap="5" data-testid="format-screen">
      <Flex gap="4" direction={{ base: 'column', md: 'row' }} align={{ md: 'flex-end' }}>
        <Field.Root maxW={{ md: 'sm' }}>
          <Field.Label>
            <Trans>格式模板</Trans>
          </Field.Label>
          {templates.isPending ? (
            <Skeleton h="10" w="full" />
          ) : (
            <NativeSelect.Root disabled={pipeline.running || !templates.data?.length}>
              <NativeSelect.Field
                value={templateId ?? ''}
                data-testid="format-template"
                onChange={(e) => {
                  const id = Number(e.target.value);
                  setChosen(id);
                  // the same document against the other template
                  if (pipeline.file && !pipeline.running) check(pipeline.file, id);
                }}
              >
                {(templates.data ?? []).map((x) => (
                  <option key={x.id} value={x.id}>
                    {x.name}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          )}
          {templates.isError ? (
            <Field.HelperText color="red.fg">
              <Trans>模板列表加载失败，请刷新重试</Trans>
            </Field.HelperText>
          ) : template?.description ? (
            <Field.HelperText>{template.description}</Field.HelperText>
          ) : null}
        </Field.Root>
        <Box flex="1">
          <FileDrop
            accept={FORMAT_ACCEPT}
            title={t`选择要检查的 Word 文档`}
            hint={t`支持 .docx（.doc/.wps 请先另存为 .docx）`}
            file={pipeline.file}
            disabled={pipeline.running || templateId === null}
            onFile={(f) => check(f)}
            testId="format-drop"
          />
        </Box>
      </Flex>

      <UploadStatus
        view={pipeline.view}
        processingLabel={t`正在检查格式…`}
        onCancel={pipeline.cancel}
        onRetry={pipeline.retry}
        testId="format-upload"
      />

      {pipeline.result && pipeline.file ? (
        <FormatReportView report={pipeline.result} fileName={pipeline.file.name} />
      ) : pipeline.view.phase === 'idle' ? (
        <EmptyState.Root bg="panel" borderWidth="1px" borderRadius="xl" data-testid="format-empty">
          <EmptyState.Content>
            <EmptyState.Indicator>
              <Ruler />
            </EmptyState.Indicator>
            <VStack textAlign="center" maxW="xl">
              <EmptyState.Title as="h2">
                <Trans>还没有检查结果</Trans>
              </EmptyState.Title>
              <EmptyState.Description>
                <Trans>
                  上传 .docx
                  文档，按所选模板检查纸张与页边距、各要素的字体字号、标题层次、行距、发文字号、成文日期、附件说明、抄送和页码，逐条列出位置、要求与实际情况。
                </Trans>
              </EmptyState.Description>
            </VStack>
          </EmptyState.Content>
        </EmptyState.Root>
      ) : null}
      {templates.data && templates.data.length === 0 ? (
        <Text color="fg.muted">
          <Trans>服务器上没有可用的格式模板</Trans>
        </Text>
      ) : null}
    </Stack>
  );
}

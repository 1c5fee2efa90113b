// Import from .txt/.csv/.xlsx through the upload pipeline (progress, cancel, retry), the file format with
// a downloadable template, and the summary of the last import with the failed rows to download.
import { useEffect, useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Box, Button, Code, Field, Flex, Heading, List, Stack, Text } from '@chakra-ui/react';
import { Download, FileDown } from 'lucide-react';
import {
  failedRows,
  IMPORT_ACCEPT,
  importTemplate,
  type ImportSummary,
  type WordType,
} from '../../../machines/dictCalls';
import { saveFile } from '../../save-file';
import { dictImportBinding } from '../../../machines/live';
import { FileDrop } from '../../upload/FileDrop';
import { UploadStatus } from '../../upload/UploadStatus';
import { usePipeline } from '../../upload/usePipeline';
import { TypeSelect } from './WordForm';

export function ImportPanel({ onImported }: { onImported: () => void }) {
  const { t } = useLingui();
  const pipeline = usePipeline<ImportSummary>(dictImportBinding);
  const [defaultType, setDefaultType] = useState<WordType>(5);
  const [downloading, setDownloading] = useState<string | null>(null);
  const summary = pipeline.result;
  const seen = useRef<ImportSummary | null>(null);
  useEffect(() => {
    if (summary && seen.current !== summary) {
      seen.current = summary;
      onImported();
    }
  }, [summary, onImported]);

  const fetchAndSave = async (key: string, get: () => Promise<{ blob: Blob; name: string }>) => {
    setDownloading(key);
    try {
      saveFile(await get());
    } catch {
      // the error was shown by the API layer
    } finally {
      setDownloading(null);
    }
  };

  return (
    <Stack gap="4" bg="panel" borderWidth="1px" borderRadius="xl" p={{ base: '4', md: '6' }} data-testid="dict-import">
      <Heading as="h2" size="md">
        <Trans>批量导入</Trans>
      </Heading>
      <Box fontSize="sm" color="fg.muted" data-testid="dict-import-format">
        <Text>
          <Trans>
            支持 .txt、.csv、.xlsx（不超过 2 MB、10000 行）。每行一个词条，依次为三列：<Code>word</Code> 词语、
            <Code>type</Code> 类型、<Code>correct</Code> 正确写法。
          </Trans>
        </Text>
        <List.Root ps="5" mt="1" gap="0.5">
          <List.Item>
            <Trans>
              类型填 5 或“错词”（须填正确写法）、4 或“敏感词”、9 或“重点词”、1 或“允许词”；留空则用下面选择的类型。
            </Trans>
          </List.Item>
          <List.Item>
            <Trans>.txt 用制表符分隔（没有制表符的行用逗号）；第一行为 word 或 词语 时视为表头。</Trans>
          </List.Item>
          <List.Item>
            <Trans>有问题的行不会导入，可下载失败清单（含原因）修改后再导入。</Trans>
          </List.Item>
        </List.Root>
      </Box>
      <Flex gap="2" wrap="wrap">
        <Button
          size="xs"
          variant="outline"
          onClick={() => fetchAndSave('xlsx', () => importTemplate('xlsx'))}
          loading={downloading === 'xlsx'}
          data-testid="dict-template-xlsx"
        >
          <FileDown size={14} />
          <Trans>下载模板 (.xlsx)</Trans>
        </Button>
        <Button
          size="xs"
          variant="outline"
          onClick={() => fetchAndSave('csv', () => importTemplate('csv'))}
          loading={downloading === 'csv'}
          data-testid="dict-template-csv"
        >
          <FileDown size={14} />
          <Trans>下载模板 (.csv)</Trans>
        </Button>
      </Flex>
      <Field.Root width="auto">
        <Field.Label>
          <Trans>未填类型的行按</Trans>
        </Field.Label>
        <TypeSelect
          value={defaultType}
          label={t`未填类型的行按`}
          testId="dict-import-type"
          onChange={(v) => setDefaultType((v || 5) as WordType)}
        />
      </Field.Root>
      <FileDrop
        accept={IMPORT_ACCEPT}
        title={t`选择要导入的词库文件`}
        hint={t`支持 .txt、.csv、.xlsx`}
        file={pipeline.file}
        disabled={pipeline.running}
        onFile={(f) => pipeline.start(f, { type: String(defaultType) })}
        testId="dict-import-drop"
      />
      <UploadStatus
        view={pipeline.view}
        processingLabel={t`正在导入…`}
        onCancel={pipeline.cancel}
        onRetry={pipeline.retry}
        testId="dict-import-upload"
      />
      {summary ? (
        <Alert.Root
          status={summary.failed ? 'warning' : 'success'}
          borderRadius="lg"
          data-testid="dict-import-summary"
          aria-live="polite"
        >
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>
              <Trans>
                共 {summary.total} 行，导入 {summary.added} 条，失败 {summary.failed} 条
              </Trans>
            </Alert.Title>
            {summary.failed ? (
              <Alert.Description>
                <List.Root ps="4" fontSize="sm" data-testid="dict-import-failures">
                  {summary.failures.map((f) => (
                    <List.Item key={`${f.line}-${f.word}`}>
                      {f.word ? (
                        <Trans>
                          第 {f.line} 行「{f.word}」：{f.reason}
                        </Trans>
                      ) : (
                        <Trans>
                          第 {f.line} 行：{f.reason}
                        </Trans>
                      )}
                    </List.Item>
                  ))}
                </List.Root>
                {summary.failed > summary.failures.length ? (
                  <Text fontSize="sm">
                    <Trans>只列出前 {summary.failures.length} 条，完整清单请下载。</Trans>
                  </Text>
                ) : null}
                <Button
                  mt="2"
                  size="xs"
                  variant="outline"
                  onClick={() => fetchAndSave('failed', failedRows)}
                  loading={downloading === 'failed'}
                  data-testid="dict-import-download-failed"
                >
                  <Download size={14} />
                  <Trans>下载失败的行</Trans>
                </Button>
              </Alert.Description>
            ) : null}
          </Alert.Content>
        </Alert.Root>
      ) : null}
    </Stack>
  );
}

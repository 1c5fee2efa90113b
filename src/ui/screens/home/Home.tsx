// Home (route '', kept alive): text proofreading. The job lives in the app actor (systemId
// `proofreadJob`), so text and findings survive navigating away and back.
import { useCallback, useDeferredValue, useEffect, useMemo, useRef } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Box,
  HStack,
  Button,
  Checkbox,
  EmptyState,
  Flex,
  Group,
  Popover,
  Portal,
  Progress,
  Stack,
  Text,
  VStack,
} from '@chakra-ui/react';
import { Copy, Globe, Settings2, SpellCheck } from 'lucide-react';
import { useLocation } from 'wouter';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { notify } from '../../../api/notify';
import { queryKeys, userRightTypes } from '../../../api/queries';
import type { Finding, ProofreadEvent, ProofreadJobRef } from '../../../machines/proofreadJob';
import { progressOf } from '../../../machines/proofreadJob';
import * as calls from '../../../machines/proofreadCalls';
import { useLanguage, useSystemActor } from '../../app-actor';
import { Editor, type EditorHandle } from './Editor';
import { CancelCheckButton } from '../../findings/CancelCheck';
import { TooLongChoice } from '../../findings/TooLongChoice';
import { formatRight } from '../../format/balance';
import { FindingGroups, FindingsPanel, ReviewKeys } from '../../findings/FindingsPanel';
import { useCategoryLabels, useFindingReview } from '../../findings/useFindingReview';
import './notices';

const useJob = (): ProofreadJobRef => useSystemActor('proofreadJob');

type JobState = 'idle' | 'submitting' | 'tooLong' | 'streaming' | 'done' | 'cancelled' | 'failed';

/** Cards shown per category: the first ones and the selected one (thousands of cards would slow typing). */
const CARDS_PER_GROUP = 50;

/** Characters that count as words (spec: word count shown under the editor). */
export function countWords(text: string): number {
  let n = 0;
  for (const ch of text) if (!/\s/u.test(ch)) n++;
  return n;
}

export default function Home() {
  const { t, i18n } = useLingui();
  const job = useJob();
  const send = useCallback((event: ProofreadEvent) => job.send(event), [job]);
  const text = useSelector(job, (s) => s.context.text);
  const findings = useSelector(job, (s) => s.context.findings);
  const jobState = useSelector(job, (s) => (s.value as { job: JobState }).job);
  const fine = useSelector(job, (s) => s.matches({ mode: 'fine' }));
  const verifying = useSelector(job, (s) => s.matches({ mode: 'verifying' }));
  const options = useSelector(job, (s) => s.context.options);
  const progress = useSelector(job, (s) =>
    progressOf(s.context, s.matches({ job: 'streaming' }) || s.matches({ job: 'submitting' })),
  );
  const checkId = useSelector(job, (s) => s.context.checkId);
  const { locale } = useLanguage();
  const hk = locale === 'hk';
  const queryClient = useQueryClient();

  useEffect(() => send({ type: 'language changed', lang: hk ? 'hk' : 'cn' }), [hk, send]);

  const functions = useQuery({
    queryKey: ['misscut', 'check-functions'],
    queryFn: () => calls.checkFunctions(),
    staleTime: 60_000,
  });
  const quota = useQuery({
    queryKey: queryKeys.userRight(userRightTypes.highSpeedText),
    queryFn: () => calls.userRight(userRightTypes.highSpeedText),
  });
  const labelOf = useCategoryLabels();

  // the remaining quota changes after every check
  const running = jobState === 'submitting' || jobState === 'streaming';
  useEffect(() => {
    if (jobState === 'done' || jobState === 'failed')
      void queryClient.invalidateQueries({ queryKey: queryKeys.userRight(userRightTypes.highSpeedText) });
  }, [jobState, queryClient]);

  const editor = useRef<EditorHandle>(null);
  const root = useRef<HTMLDivElement>(null);
  const reveal = useCallback((f: Finding) => editor.current?.select(f), []);
  const current = useCallback(() => job.getSnapshot().context.findings, [job]);
  const review = useFindingReview<Finding>({
    findings,
    current,
    send,
    editable: true,
    reveal,
    text,
    checkId,
    root,
  });

  const { selectedId, setSelectedId, step } = review;
  // the side list follows at low priority, so typing in a long text never waits for it
  const listFindings = useDeferredValue(findings);
  const listText = useDeferredValue(text);
  const cards = { selectedId, text: listText, labelOf, onAction: review.onAction };
  const words = useMemo(() => countWords(text), [text]);
  const quotaText = quota.data
    ? formatRight(i18n, 1, quota.data.disposable_num)
    : quota.isError
      ? formatRight(i18n, 1, 0)
      : '…';
  const available = (functions.data?.functions ?? []).filter((f) => f.bit > 0);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      notify({ status: 'success', title: '已复制' });
    } catch {
      notify({ status: 'error', title: '复制失败' });
    }
  };

  const checked = jobState !== 'idle' && jobState !== 'tooLong';
  // a lone web address pasted as the text: offer to check the page it names instead
  const pastedUrl = /^https?:\/\/\S+$/.test(text.trim()) ? text.trim() : null;
  const [, navigate] = useLocation();

  return (
    <Flex
      ref={root}
      gap="5"
      direction={{ base: 'column', lg: 'row' }}
      align="stretch"
      data-testid="home-screen"
      data-job={jobState}
    >
      <Stack flex="1" minW="0" gap="3">
        <Flex gap="3" wrap="wrap" align="center">
          <Group attached>
            <Button
              size="sm"
              variant={fine ? 'outline' : 'solid'}
              onClick={() => send({ type: 'mode chosen', mode: 3 })}
              data-testid="mode-3"
              aria-pressed={!fine}
            >
              <Trans>标准模型</Trans>
            </Button>
            <Button
              size="sm"
              variant={fine ? 'solid' : 'outline'}
              loading={verifying}
              onClick={() => send({ type: 'mode chosen', mode: 4 })}
              data-testid="mode-4"
              aria-pressed={fine}
            >
              <Trans>精细校对</Trans>
            </Button>
          </Group>
          <Popover.Root positioning={{ placement: 'bottom-start' }}>
            <Popover.Trigger asChild>
              <Button size="sm" variant="ghost" data-testid="check-options">
                <Settings2 size={16} />
                <Trans>校对范围</Trans>
              </Button>
            </Popover.Trigger>
            <Portal>
              <Popover.Positioner>
                <Popover.Content w="xs">
                  <Popover.Body>
                    <Stack gap="2">
                      {available.length === 0 ? (
                        <Text fontSize="sm" color="fg.muted">
                          <Trans>暂无可选的校对范围</Trans>
                        </Text>
                      ) : null}
                      {available.map((fn) => (
                        <Checkbox.Root
                          key={fn.bit}
                          size="sm"
                          disabled={!fn.available}
                          checked={(options & fn.bit) !== 0}
                          onCheckedChange={(e) =>
                            send({ type: 'options changed', options: e.checked ? options | fn.bit : options & ~fn.bit })
                          }
                        >
                          <Checkbox.HiddenInput />
                          <Checkbox.Control />
                          <Checkbox.Label>{fn.name}</Checkbox.Label>
                        </Checkbox.Root>
                      ))}
                    </Stack>
                  </Popover.Body>
                </Popover.Content>
              </Popover.Positioner>
            </Portal>
          </Popover.Root>
          {/* at the end without a spacer, whose extra gap wrapped the button onto a line of its own in English */}
          <HStack gap="3" ms="auto">
            <CancelCheckButton job={job} />
            <Button
              size="sm"
              colorPalette="blue"
              loading={running}
              disabled={!text.trim()}
              onClick={() => send({ type: 'check requested' })}
              data-testid="check-button"
            >
              <SpellCheck size={16} />
              <Trans>开始校对</Trans>
            </Button>
          </HStack>
        </Flex>
        {running ? (
          <Progress.Root
            value={Math.round(progress * 100)}
            size="xs"
            colorPalette="blue"
            data-testid="check-progress"
            aria-label={t`校对进度`}
          >
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
        ) : null}
        {pastedUrl ? (
          <Flex
            gap="3"
            align="center"
            bg="blue.subtle/50"
            borderRadius="md"
            px="3"
            py="2"
            fontSize="sm"
            data-testid="home-url-hint"
          >
            <Globe size={16} aria-hidden />
            <Text flex="1">
              <Trans>这是一个网址：可以读取网页正文并校对。</Trans>
            </Text>
            <Button
              size="xs"
              colorPalette="blue"
              onClick={() => navigate(`/link?url=${encodeURIComponent(pastedUrl)}`)}
              data-testid="home-check-url"
            >
              <Trans>校对这个网页</Trans>
            </Button>
          </Flex>
        ) : null}
        <Editor
          ref={editor}
          text={text}
          findings={findings}
          selectedId={selectedId}
          label={t`待校对文本`}
          placeholder={t`在此输入或粘贴需要校对的文本`}
          onChange={(next) => send({ type: 'text edited', text: next })}
          onCaret={(offset) => {
            const hit = findings.find((f) => offset >= f.start && offset <= f.end);
            if (hit) setSelectedId(hit.id);
          }}
        />
        <TooLongChoice job={job} />
        <Flex gap="4" align="center" fontSize="sm" color="fg.muted" wrap="wrap">
          <Text data-testid="word-count">
            <Trans>字数：{words}</Trans>
          </Text>
          <Text data-testid="quota-remaining">
            <Trans>剩余高速校对字数：{quotaText}</Trans>
          </Text>
          <Box flex="1" />
          <ReviewKeys editable />
          <Button size="xs" variant="outline" onClick={copy} disabled={!text} data-testid="copy-text">
            <Copy size={14} />
            <Trans>复制文本</Trans>
          </Button>
        </Flex>
      </Stack>

      <FindingsPanel count={findings.length} onStep={step}>
        {!checked && findings.length === 0 ? (
          <EmptyState.Root size="sm" data-testid="home-empty">
            <EmptyState.Content>
              <EmptyState.Indicator>
                <SpellCheck />
              </EmptyState.Indicator>
              <VStack textAlign="center">
                <EmptyState.Title as="h2">
                  <Trans>还没有校对结果</Trans>
                </EmptyState.Title>
                <EmptyState.Description>
                  <Trans>输入或粘贴文本，然后点击「开始校对」。</Trans>
                </EmptyState.Description>
              </VStack>
            </EmptyState.Content>
          </EmptyState.Root>
        ) : findings.length === 0 ? (
          <Text textAlign="center" py="8" color="fg.muted" data-testid="no-findings">
            {running ? (
              <Trans>正在校对…</Trans>
            ) : jobState === 'failed' ? (
              <Trans>校对未完成</Trans>
            ) : jobState === 'cancelled' ? (
              <Trans>校对已取消</Trans>
            ) : (
              <Trans>未发现问题</Trans>
            )}
          </Text>
        ) : (
          <FindingGroups list={listFindings} limit={CARDS_PER_GROUP} {...cards} />
        )}
      </FindingsPanel>
    </Flex>
  );
}

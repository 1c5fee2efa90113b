// Home (route '', kept alive): text proofreading. The job lives in the app actor (systemId
// `proofreadJob`), so text and findings survive navigating away and back.
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Badge,
  Box,
  Button,
  Checkbox,
  EmptyState,
  Flex,
  Group,
  HStack,
  IconButton,
  Kbd,
  Popover,
  Portal,
  Progress,
  Stack,
  Text,
  VStack,
} from '@chakra-ui/react';
import { ChevronDown, ChevronUp, Copy, Settings2, SpellCheck } from 'lucide-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { notify } from '../../../api/notify';
import { queryKeys } from '../../../api/queries';
import type { Finding, ProofreadEvent, ProofreadJobRef } from '../../../machines/proofreadJob';
import { progressOf } from '../../../machines/proofreadJob';
import * as calls from '../../../machines/proofreadCalls';
import { AppActorContext, useLanguage } from '../../app-actor';
import { Editor, type EditorHandle } from './Editor';
import { FindingCard, type FindingAction } from './FindingCard';
import { neighbourFinding, runFindingAction, successorId } from './findingActions';
import { categoryLabels, paletteOf } from './categories';
import './notices';

function useJob(): ProofreadJobRef {
  const app = AppActorContext.useActorRef();
  const ref = app.system.get('proofreadJob') as ProofreadJobRef | undefined;
  if (!ref) throw new Error('the app actor has no proofreadJob');
  return ref;
}

type JobState = 'idle' | 'submitting' | 'streaming' | 'done' | 'cancelled' | 'failed';

/** Cards shown per category: the first ones and the selected one (thousands of cards would slow typing). */
const CARDS_PER_GROUP = 50;
function visibleOf(list: Finding[], selectedId: string | null): Finding[] {
  if (list.length <= CARDS_PER_GROUP) return list;
  const head = list.slice(0, CARDS_PER_GROUP);
  const selected = selectedId ? list.find((f) => f.id === selectedId) : undefined;
  return selected && !head.includes(selected) ? [...head, selected] : head;
}

/** Characters that count as words (spec: word count shown under the editor). */
export function countWords(text: string): number {
  let n = 0;
  for (const ch of text) if (!/\s/u.test(ch)) n++;
  return n;
}

export default function Home() {
  const { t } = useLingui();
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

  const types = useQuery({
    queryKey: ['misscut', 'mistakes-types', hk ? 1 : 0],
    queryFn: () => calls.mistakeTypes(hk),
    staleTime: Infinity,
  });
  const functions = useQuery({
    queryKey: ['misscut', 'check-functions'],
    queryFn: () => calls.checkFunctions(),
    staleTime: 60_000,
  });
  const quota = useQuery({ queryKey: queryKeys.userRight(1), queryFn: () => calls.userRight(1) });
  const labels = useMemo(() => categoryLabels(types.data), [types.data]);
  const labelOf = useCallback(
    (category: string) => labels.get(category) ?? labels.get(category.split('-')[0]) ?? category,
    [labels],
  );

  // the remaining quota changes after every check
  const running = jobState === 'submitting' || jobState === 'streaming';
  useEffect(() => {
    if (jobState === 'done' || jobState === 'failed')
      void queryClient.invalidateQueries({ queryKey: queryKeys.userRight(1) });
  }, [jobState, queryClient]);

  const [selectedId, setSelectedId] = useState<string | null>(null);
  const selected = findings.find((f) => f.id === selectedId) ?? null;
  const editor = useRef<EditorHandle>(null);

  const select = useCallback((f: Finding | undefined, focusEditor = true) => {
    if (!f) return;
    setSelectedId(f.id);
    if (focusEditor) editor.current?.select(f);
  }, []);

  const step = useCallback(
    (direction: 1 | -1) => {
      const next = neighbourFinding(findings, selected, direction);
      if (next) select(next);
    },
    [findings, selected, select],
  );

  // after an accept or ignore, move on to the finding that took the selected one's place
  const afterAction = useCallback(
    (f: Finding) => setSelectedId(successorId(findings, f, job.getSnapshot().context.findings)),
    [findings, job],
  );

  const accept = useCallback(
    (f: Finding, suggestion?: string) => {
      send({ type: 'accept', id: f.id, suggestion });
      void calls.reportFeedback({
        action: 'accept',
        original: f.original,
        category: f.category,
        suggestion: suggestion ?? f.suggestions[0],
        ...(checkId ? { check_id: checkId } : {}),
      });
      afterAction(f);
    },
    [send, checkId, afterAction],
  );
  const ignore = useCallback(
    (f: Finding) => {
      send({ type: 'ignore', id: f.id });
      void calls.reportFeedback({
        action: 'ignore',
        original: f.original,
        category: f.category,
        ...(checkId ? { check_id: checkId } : {}),
      });
      afterAction(f);
    },
    [send, checkId, afterAction],
  );

  // keyboard (spec: next/previous finding, accept, ignore): Alt+↓/↑, Alt+Enter, Alt+Backspace anywhere on
  // this screen; j/k/Enter/x when the focus is not in a text field
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!root.current || root.current.closest('[hidden]')) return;
      const target = e.target as HTMLElement | null;
      const typing =
        !!target && (target.tagName === 'TEXTAREA' || target.tagName === 'INPUT' || target.isContentEditable);
      const key = e.key;
      let handled = true;
      if (e.altKey && key === 'ArrowDown') step(1);
      else if (e.altKey && key === 'ArrowUp') step(-1);
      else if (e.altKey && key === 'Enter' && selected) accept(selected);
      else if (e.altKey && key === 'Backspace' && selected) ignore(selected);
      else if (!typing && !e.altKey && !e.ctrlKey && !e.metaKey && key === 'j') step(1);
      else if (!typing && !e.altKey && !e.ctrlKey && !e.metaKey && key === 'k') step(-1);
      else if (!typing && !e.altKey && !e.ctrlKey && !e.metaKey && key === 'x' && selected) ignore(selected);
      else handled = false;
      if (handled) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [step, accept, ignore, selected]);

  // the side list follows at low priority, so typing in a long text never waits for it
  const listFindings = useDeferredValue(findings);
  const listText = useDeferredValue(text);
  const handle = (action: FindingAction, f: Finding, suggestion?: string) =>
    runFindingAction<Finding>(action, f, suggestion, {
      select,
      accept,
      ignore,
      send,
      clearSelection: () => setSelectedId(null),
      queryClient,
      text,
      checkId,
    });
  const handler = useRef(handle);
  handler.current = handle;
  const onAction = useCallback(
    (action: FindingAction, f: Finding, suggestion?: string) => void handler.current(action, f, suggestion),
    [],
  );

  const groups = useMemo(() => {
    const map = new Map<string, Finding[]>();
    for (const f of listFindings) {
      const list = map.get(f.category) ?? [];
      list.push(f);
      map.set(f.category, list);
    }
    return [...map.entries()].sort((a, b) => a[0].localeCompare(b[0], 'en', { numeric: true }));
  }, [listFindings]);

  const words = useMemo(() => countWords(text), [text]);
  const quotaText = quota.data ? quota.data.num_desc || `${quota.data.disposable_num}字` : quota.isError ? '0字' : '…';
  const available = (functions.data?.functions ?? []).filter((f) => f.bit > 0);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      notify({ status: 'success', title: '已复制' });
    } catch {
      notify({ status: 'error', title: '复制失败' });
    }
  };

  const checked = jobState !== 'idle';

  return (
    <Flex ref={root} gap="5" direction={{ base: 'column', lg: 'row' }} align="stretch" data-testid="home-screen">
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
          <Box flex="1" />
          {running ? (
            <Button
              size="sm"
              variant="outline"
              colorPalette="red"
              onClick={() => send({ type: 'cancel requested' })}
              data-testid="cancel-check"
            >
              <Trans>取消校对</Trans>
            </Button>
          ) : null}
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
        <Flex gap="4" align="center" fontSize="sm" color="fg.muted" wrap="wrap">
          <Text data-testid="word-count">
            <Trans>字数：{words}</Trans>
          </Text>
          <Text data-testid="quota-remaining">
            <Trans>剩余高速校对字数：{quotaText}</Trans>
          </Text>
          <Box flex="1" />
          <Text display={{ base: 'none', md: 'block' }}>
            <Kbd size="sm">Alt</Kbd>+<Kbd size="sm">↓</Kbd>/<Kbd size="sm">↑</Kbd> <Trans>切换问题</Trans> ·{' '}
            <Kbd size="sm">Alt</Kbd>+<Kbd size="sm">Enter</Kbd> <Trans>采纳</Trans> · <Kbd size="sm">Alt</Kbd>+
            <Kbd size="sm">⌫</Kbd> <Trans>忽略</Trans>
          </Text>
          <Button size="xs" variant="outline" onClick={copy} disabled={!text} data-testid="copy-text">
            <Copy size={14} />
            <Trans>复制文本</Trans>
          </Button>
        </Flex>
      </Stack>

      <Stack w={{ base: 'full', lg: '380px' }} flexShrink={0} gap="3" data-testid="findings-panel">
        <Flex align="center" gap="2">
          <Text fontWeight="semibold">
            <Trans>校对结果</Trans>
          </Text>
          <Badge colorPalette={findings.length ? 'red' : 'gray'} data-testid="finding-count">
            {findings.length}
          </Badge>
          <Box flex="1" />
          <IconButton
            size="xs"
            variant="ghost"
            aria-label={t`上一个问题`}
            onClick={() => step(-1)}
            disabled={!findings.length}
          >
            <ChevronUp />
          </IconButton>
          <IconButton
            size="xs"
            variant="ghost"
            aria-label={t`下一个问题`}
            onClick={() => step(1)}
            disabled={!findings.length}
          >
            <ChevronDown />
          </IconButton>
        </Flex>
        <Box bg="panel" borderWidth="1px" borderRadius="xl" p="3" maxH={{ lg: 'calc(100vh - 230px)' }} overflowY="auto">
          {!checked && findings.length === 0 ? (
            <EmptyState.Root size="sm" data-testid="home-empty">
              <EmptyState.Content>
                <EmptyState.Indicator>
                  <SpellCheck />
                </EmptyState.Indicator>
                <VStack textAlign="center">
                  <EmptyState.Title>
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
            <Stack gap="4">
              {groups.map(([category, list]) => (
                <Stack key={category} gap="2" data-testid="finding-group" data-category={category}>
                  <HStack>
                    <Box w="2.5" h="2.5" borderRadius="full" bg={`${paletteOf(category)}.solid`} />
                    <Text fontSize="sm" fontWeight="medium">
                      {labelOf(category)}
                    </Text>
                    <Badge size="sm" variant="subtle">
                      {list.length}
                    </Badge>
                  </HStack>
                  {visibleOf(list, selectedId).map((f) => (
                    <FindingCard
                      key={f.id}
                      finding={f}
                      label={labelOf(f.category)}
                      selected={f.id === selectedId}
                      context={listText.slice(Math.max(0, f.start - 12), Math.min(listText.length, f.end + 12))}
                      onAction={onAction}
                    />
                  ))}
                  {list.length > visibleOf(list, selectedId).length ? (
                    <Text fontSize="xs" color="fg.muted" textAlign="center" data-testid="finding-more-count">
                      <Trans>还有 {list.length - visibleOf(list, selectedId).length} 处，用 Alt+↓ 逐个查看</Trans>
                    </Text>
                  ) : null}
                </Stack>
              ))}
            </Stack>
          )}
        </Box>
      </Stack>
    </Flex>
  );
}

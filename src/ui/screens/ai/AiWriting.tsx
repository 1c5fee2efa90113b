// The AI writing screen (/ai): the draft on the left, the assistant on the right. A function runs on the text given
// (or the draft's selection, taken with one click), its result streams in, can be proofread in place (findings
// with accept and ignore, as on every result screen) and is inserted into the draft at the caret. The flow is the
// aiWriter machine's; the view renders its snapshot and sends events.
import { useEffect, useMemo, useRef } from 'react';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Badge,
  Box,
  Button,
  Code,
  EmptyState,
  Field,
  Flex,
  HStack,
  Input,
  Spinner,
  Stack,
  Text,
  Textarea,
  VStack,
  Wrap,
} from '@chakra-ui/react';
import { ArrowLeftToLine, Sparkles, SpellCheck, Square, TextSelect } from 'lucide-react';
import { useActorRef, useSelector } from '@xstate/react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AppActorContext, useLanguage } from '../../app-actor';
import { systemActor } from '../../../machines/system';
import { liveAiWriter } from '../../../machines/live-ai';
import { inspectOptions } from '../../../machines/inspect';
import { readyToRun, type AiWriterEvent, type AiWriterRef } from '../../../machines/aiWriter';
import type { FieldKey } from '../../../machines/aiCalls';
import type { ProofreadJobRef } from '../../../machines/proofreadJob';
import { CancelCheckButton } from '../../findings/CancelCheck';
import { TooLongChoice } from '../../findings/TooLongChoice';
import { formatRight } from '../../format/balance';
import { queryKeys, userRightQuery, userRightTypes } from '../../../api/queries';
import { translateNotice } from '../../notices';
import { FindingCards } from '../../findings/FindingsPanel';
import { useCategoryLabels, useFindingReview } from '../../findings/useFindingReview';
import { FIELD_LABELS, FUNCTION_DESCRIPTIONS, FUNCTION_LABELS, FUNCTION_PLACEHOLDERS } from './labels';

export default function AiWriting() {
  const { t, i18n } = useLingui();
  const app = AppActorContext.useActorRef();
  const logic = useMemo(
    () =>
      liveAiWriter({
        socket: () => systemActor(app.system, 'socket'),
        sessionId: () => systemActor(app.system, 'socket')?.getSnapshot().context.sessionId ?? null,
      }),
    [app],
  );
  const actor = useActorRef(logic, inspectOptions());
  const send = (event: AiWriterEvent) => actor.send(event);
  const state = useSelector(actor, (s) =>
    s.matches('ready') ? `ready.${String((s.value as { ready: string }).ready)}` : String(s.value),
  );
  const context = useSelector(actor, (s) => s.context);
  const proofreader = useSelector(actor, (s) => s.children.proofreader);
  const { locale } = useLanguage();
  const quota = useQuery({ ...userRightQuery(userRightTypes.aiChars), enabled: state !== 'loading' });
  const draft = useRef<HTMLTextAreaElement>(null);
  // a run that ended changed the balance
  const queryClient = useQueryClient();
  const ended = state === 'ready.done' || state === 'ready.failed' || state === 'ready.cancelled';
  useEffect(() => {
    if (ended) void queryClient.invalidateQueries({ queryKey: queryKeys.userRight(userRightTypes.aiChars) });
  }, [ended, queryClient]);
  // results come in the interface's script (hk: traditional characters)
  useEffect(() => actor.send({ type: 'language changed', lang: locale === 'hk' ? 'hk' : 'cn' }), [actor, locale]);

  if (state === 'loading') {
    return (
      <Flex justify="center" py="16">
        <Spinner />
      </Flex>
    );
  }
  if (state === 'failed') {
    return (
      <Alert.Root status="error" data-testid="ai-load-failed">
        <Alert.Indicator />
        <Alert.Title>{translateNotice(i18n, context.error ?? '系统异常')}</Alert.Title>
        <Button size="sm" ms="auto" onClick={() => send({ type: 'retry' })}>
          <Trans>重试</Trans>
        </Button>
      </Alert.Root>
    );
  }
  if (state === 'unavailable') return <Unavailable />;

  const running = state === 'ready.running';
  const fn = context.functions.find((f) => f.id === context.functionId);
  // the server names its functions in Chinese; a function this page does not know keeps the server's words
  const inLocale = (table: Record<string, MessageDescriptor>, id: string, fallback = '') =>
    table[id] ? i18n._(table[id]) : fallback;
  const label = (id: string, fallback: string) => inLocale(FUNCTION_LABELS, id, fallback);
  const writing = context.functions.filter((f) => !f.fields);
  const documents = context.functions.filter((f) => f.fields);
  const takeSelection = () => {
    const area = draft.current;
    if (!area) return;
    const selected = area.value.slice(area.selectionStart, area.selectionEnd);
    send({ type: 'input changed', text: selected.trim() ? selected : area.value });
  };
  const insert = () => {
    const area = draft.current;
    const at = area ? { from: area.selectionStart, to: area.selectionEnd } : { from: context.draft.length, to: 0 };
    send({ type: 'insert', from: at.from, to: Math.max(at.from, at.to) });
    area?.focus();
  };
  const chooseButton = (f: (typeof context.functions)[number]) => (
    <Button
      key={f.id}
      size="xs"
      variant={f.id === context.functionId ? 'solid' : 'outline'}
      colorPalette={f.id === context.functionId ? 'blue' : 'gray'}
      disabled={running}
      onClick={() => send({ type: 'choose', id: f.id })}
      title={inLocale(FUNCTION_DESCRIPTIONS, f.id, f.description)}
      data-testid="ai-function"
      data-id={f.id}
      aria-pressed={f.id === context.functionId}
    >
      {label(f.id, f.name)}
    </Button>
  );

  return (
    <Flex gap="5" direction={{ base: 'column', lg: 'row' }} align="stretch" data-testid="ai-screen" data-state={state}>
      <Stack flex="1" minW="0" gap="2">
        <HStack>
          <Text fontWeight="semibold">
            <Trans>草稿</Trans>
          </Text>
          <Text fontSize="xs" color="fg.muted">
            <Trans>{context.draft.length} 字</Trans>
          </Text>
        </HStack>
        <Textarea
          ref={draft}
          value={context.draft}
          onChange={(e) => send({ type: 'draft changed', text: e.target.value })}
          minH={{ base: '240px', lg: 'calc(100vh - 220px)' }}
          bg="panel"
          placeholder={t`在这里写作；选中一段文字后可交给右侧的 AI 助手处理，结果可插入到光标处。`}
          aria-label={t`草稿`}
          data-testid="ai-draft"
        />
      </Stack>
      <Stack w={{ base: 'full', lg: '440px' }} flexShrink={0} gap="3" data-testid="ai-assistant">
        <HStack>
          <Sparkles size={16} aria-hidden />
          <Text fontWeight="semibold">
            <Trans>AI 助手</Trans>
          </Text>
          <Box flex="1" />
          <Text fontSize="xs" color="fg.muted" data-testid="ai-quota">
            <Trans>剩余 {quota.data ? formatRight(i18n, 512, quota.data.disposable_num) : '…'}</Trans>
          </Text>
        </HStack>
        <Stack gap="2" bg="panel" borderWidth="1px" borderRadius="xl" p="3">
          <Text fontSize="xs" color="fg.muted">
            <Trans>写作</Trans>
          </Text>
          <Wrap gap="1.5">{writing.map(chooseButton)}</Wrap>
          <Text fontSize="xs" color="fg.muted">
            <Trans>公文起草</Trans>
          </Text>
          <Wrap gap="1.5">{documents.map(chooseButton)}</Wrap>
        </Stack>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            send({ type: 'generate' });
          }}
        >
          <Stack gap="2">
            {(fn?.fields ?? []).map((field) => (
              <Field.Root key={field.key} required={field.required}>
                <Field.Label fontSize="sm">
                  {FIELD_LABELS[field.key] ? i18n._(FIELD_LABELS[field.key]) : field.label}
                  <Field.RequiredIndicator />
                </Field.Label>
                <Input
                  size="sm"
                  value={context.fields[field.key as FieldKey] ?? ''}
                  disabled={running}
                  onChange={(e) => send({ type: 'field changed', key: field.key as FieldKey, value: e.target.value })}
                  data-testid={`ai-field-${field.key}`}
                />
              </Field.Root>
            ))}
            <Textarea
              value={context.input}
              onChange={(e) => send({ type: 'input changed', text: e.target.value })}
              rows={5}
              disabled={running}
              placeholder={fn ? inLocale(FUNCTION_PLACEHOLDERS, fn.id, fn.placeholder) : ''}
              aria-label={t`交给 AI 的文字`}
              data-testid="ai-input"
            />
            <HStack gap="2" wrap="wrap">
              <Button size="sm" variant="outline" onClick={takeSelection} disabled={running} data-testid="ai-take">
                <TextSelect size={14} aria-hidden />
                <Trans>取草稿选中文字</Trans>
              </Button>
              <Box flex="1" />
              {running ? (
                <Button
                  size="sm"
                  variant="outline"
                  colorPalette="red"
                  onClick={() => send({ type: 'cancel' })}
                  data-testid="ai-cancel"
                >
                  <Square size={14} aria-hidden />
                  <Trans>停止</Trans>
                </Button>
              ) : null}
              <Button
                size="sm"
                type="submit"
                colorPalette="blue"
                loading={running}
                disabled={!readyToRun(context)}
                data-testid="ai-generate"
              >
                <Sparkles size={14} aria-hidden />
                <Trans>生成</Trans>
              </Button>
            </HStack>
          </Stack>
        </form>
        <Result actor={actor} state={state} proofreader={proofreader} onInsert={insert} />
      </Stack>
    </Flex>
  );
}

function Result(props: {
  actor: AiWriterRef;
  state: string;
  proofreader: ProofreadJobRef | undefined;
  onInsert: () => void;
}) {
  const { i18n } = useLingui();
  const { actor, state, proofreader, onInsert } = props;
  const output = useSelector(actor, (s) => s.context.output);
  const used = useSelector(actor, (s) => s.context.used);
  const truncated = useSelector(actor, (s) => s.context.truncated);
  const error = useSelector(actor, (s) => s.context.error);
  if (state === 'ready.idle' && !output) return null;
  const done = state === 'ready.done';
  return (
    <Stack gap="2" bg="panel" borderWidth="1px" borderRadius="xl" p="3" data-testid="ai-result">
      {proofreader ? (
        <Checked job={proofreader} />
      ) : (
        <Text whiteSpace="pre-wrap" fontSize="sm" minH="6" data-testid="ai-output" aria-live="polite">
          {output}
          {state === 'ready.running' ? <Spinner size="xs" ms="1" /> : null}
        </Text>
      )}
      {state === 'ready.failed' && error ? (
        <Alert.Root status="error" size="sm" data-testid="ai-error">
          <Alert.Indicator />
          <Alert.Title>{translateNotice(i18n, error)}</Alert.Title>
        </Alert.Root>
      ) : null}
      {state === 'ready.cancelled' ? (
        <Text fontSize="xs" color="fg.muted">
          <Trans>已停止，只计已生成的字数。</Trans>
        </Text>
      ) : null}
      {done ? (
        <HStack gap="2" wrap="wrap">
          <Text fontSize="xs" color="fg.muted" data-testid="ai-used">
            {truncated ? <Trans>已达本次上限，用去 {used} 字</Trans> : <Trans>用去 {used} 字</Trans>}
          </Text>
          <Box flex="1" />
          <Button
            size="xs"
            variant="outline"
            onClick={() => actor.send({ type: 'proofread' })}
            data-testid="ai-proofread"
          >
            <SpellCheck size={14} aria-hidden />
            {proofreader ? <Trans>重新校对</Trans> : <Trans>校对</Trans>}
          </Button>
          <Button size="xs" colorPalette="blue" onClick={onInsert} data-testid="ai-insert">
            <ArrowLeftToLine size={14} aria-hidden />
            <Trans>插入草稿</Trans>
          </Button>
        </HStack>
      ) : null}
    </Stack>
  );
}

/** The result after proofreading: its text (changed by each accepted suggestion) and the findings. */
function Checked({ job }: { job: ProofreadJobRef }) {
  const text = useSelector(job, (s) => s.context.text);
  const findings = useSelector(job, (s) => s.context.findings);
  const checking = useSelector(job, (s) => s.matches({ job: 'submitting' }) || s.matches({ job: 'streaming' }));
  const tooLong = useSelector(job, (s) => s.matches({ job: 'tooLong' }));
  const checkId = useSelector(job, (s) => s.context.checkId);
  const labelOf = useCategoryLabels();
  const root = useRef<HTMLDivElement>(null);
  const current = () => job.getSnapshot().context.findings;
  const review = useFindingReview({
    findings,
    current,
    send: (event) => job.send(event),
    editable: true,
    reveal: () => undefined,
    text,
    checkId,
    root,
  });
  return (
    <Stack gap="2" ref={root} data-testid="ai-checked" data-checking={checking}>
      <Text whiteSpace="pre-wrap" fontSize="sm" data-testid="ai-output">
        {text}
      </Text>
      <HStack>
        <Text fontSize="xs" fontWeight="medium">
          <Trans>校对结果</Trans>
        </Text>
        {checking ? (
          <>
            <Spinner size="xs" />
            <CancelCheckButton job={job} />
          </>
        ) : (
          <Badge size="sm" colorPalette={findings.length ? 'red' : 'green'} data-testid="finding-count">
            {findings.length}
          </Badge>
        )}
      </HStack>
      <TooLongChoice job={job} />
      {tooLong ? null : !checking && findings.length === 0 ? (
        <Text fontSize="xs" color="fg.muted" data-testid="no-findings">
          <Trans>未发现问题</Trans>
        </Text>
      ) : (
        <FindingCards
          list={findings}
          limit={20}
          selectedId={review.selectedId}
          text={text}
          labelOf={labelOf}
          onAction={review.onAction}
        />
      )}
    </Stack>
  );
}

function Unavailable() {
  return (
    <Box bg="panel" borderWidth="1px" borderRadius="xl" py="16" px="6" data-testid="ai-unavailable">
      <EmptyState.Root size="lg">
        <EmptyState.Content>
          <EmptyState.Indicator>
            <Sparkles />
          </EmptyState.Indicator>
          <VStack textAlign="center" gap="3" maxW="xl">
            <EmptyState.Title as="h2">
              <Trans>本服务器未配置 AI 写作服务</Trans>
            </EmptyState.Title>
            <EmptyState.Description>
              <Trans>
                管理员在服务器上设置 <Code>AI_URL</Code>（兼容 OpenAI 对话接口的服务地址，例如 https://api.openai.com
                或本机的 vLLM、Ollama）、<Code>AI_API_KEY</Code> 和 <Code>AI_MODEL</Code>{' '}
                后重启服务，即可使用续写、润色、缩写、扩写和公文起草。
              </Trans>
            </EmptyState.Description>
          </VStack>
        </EmptyState.Content>
      </EmptyState.Root>
    </Box>
  );
}

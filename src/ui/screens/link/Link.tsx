// Link proofreading (route /link): add a web page or a site (depth and page limit), check it, follow the progress,
// read the findings page by page beside the page's text (headings kept, each finding linking to its place on the
// live page), and download the report. `?url=` (from the home screen) adds or finds that page and checks it.
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Badge,
  Box,
  Button,
  CloseButton,
  Dialog,
  EmptyState,
  Field,
  Flex,
  HStack,
  IconButton,
  Input,
  Link as ChakraLink,
  NativeSelect,
  Portal,
  Progress,
  Skeleton,
  Stack,
  Table,
  Text,
  VStack,
} from '@chakra-ui/react';
import { Download, Globe, Pencil, Play, Trash2 } from 'lucide-react';
import { useActorRef, useSelector } from '@xstate/react';
import { useLocation, useSearch } from 'wouter';
import { AppActorContext } from '../../app-actor';
import { systemActor } from '../../../machines/system';
import { liveWebsites } from '../../../machines/live-websites';
import { inspectOptions } from '../../../machines/inspect';
import { WEBSITE_PAGE_SIZE, type WebsitesEvent } from '../../../machines/websites';
import type { Website, WebsiteInput, WebsitePage } from '../../../machines/websiteCalls';
import type { Finding } from '../../../machines/proofreadJob';
import { FindingGroups, FindingsPanel, ReviewKeys } from '../../findings/FindingsPanel';
import { useCategoryLabels, useFindingReview } from '../../findings/useFindingReview';
import { paletteOf } from '../../findings/categories';
import { ListPagination } from '../../layout/ListPagination';
import { ConfirmDialog } from '../../layout/ConfirmDialog';
import { revealFinding } from '../../findings/reveal';
import { translateNotice } from '../../notices';
import { saveFile } from '../../save-file';
import { rememberServerMessage } from '../../../api/serverMessages';
import { Verbatim } from '../../layout/Verbatim';
import { STACK_ON_PHONE } from '../../layout/stacked-table';

const DEPTHS = [0, 1, 2] as const;
const CARD_LIMIT = 200;

/** A link that opens the page scrolled to the finding's text (a text fragment; ignored where not supported). */
export function sourceLink(url: string, text: string, start: number, end: number): string {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const lineEnd = text.indexOf('\n', end);
  const from = Math.max(lineStart, start - 8);
  const to = Math.min(lineEnd === -1 ? text.length : lineEnd, end + 8);
  const quote = text.slice(from, to).trim();
  const encode = (s: string) => encodeURIComponent(s).replace(/-/g, '%2D');
  return `${url.replace(/#.*$/, '')}#:~:text=${encode(quote)}`;
}

export default function LinkScreen() {
  const { t } = useLingui();
  const app = AppActorContext.useActorRef();
  const logic = useMemo(
    () =>
      liveWebsites({
        socket: () => systemActor(app.system, 'socket'),
        save: (blob, name) => saveFile({ blob, name }),
      }),
    [app],
  );
  const actor = useActorRef(logic, inspectOptions());
  const send = useCallback((event: WebsitesEvent) => actor.send(event), [actor]);
  const loading = useSelector(actor, (s) => s.matches('loading'));
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const busy = useSelector(actor, (s) => (s.matches('ready') && !s.matches({ ready: { action: 'idle' } }) ? 1 : 0));
  const pendingId = useSelector(actor, (s) => s.context.pendingId);
  const sites = useSelector(actor, (s) => s.context.sites);
  const total = useSelector(actor, (s) => s.context.total);
  const num = useSelector(actor, (s) => s.context.num);
  const error = useSelector(actor, (s) => s.context.error);
  const selectedId = useSelector(actor, (s) => s.context.selectedId);
  const selected = sites.find((s) => s.id === selectedId) ?? null;
  const listedId = useSelector(actor, (s) => s.context.listedId);
  const listed = sites.find((s) => s.id === listedId) ?? null;

  // a page given by another screen (?url=): added or found, and checked
  const search = useSearch();
  const [, navigate] = useLocation();
  const given = new URLSearchParams(search).get('url');
  const ready = !loading && !failed;
  useEffect(() => {
    if (!given || !ready) return;
    send({ type: 'open url', url: given });
    navigate('/link', { replace: true });
  }, [given, ready, send, navigate]);

  return (
    <Stack gap="4" data-testid="link-screen">
      <AddForm busy={busy > 0} onAdd={(input) => send({ type: 'add', input, check: true })} />
      {listed ? (
        <Alert.Root status="info" borderRadius="md" data-testid="link-listed">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>
              <Trans>这个链接已在列表中：{listed.url}</Trans>
            </Alert.Title>
          </Alert.Content>
          <HStack ms="auto" gap="2">
            <Button
              size="xs"
              colorPalette="blue"
              disabled={busy > 0}
              onClick={() => send({ type: 'check', id: listed.id })}
              data-testid="link-listed-recheck"
            >
              <Trans>重新校对</Trans>
            </Button>
            <Button size="xs" variant="ghost" onClick={() => send({ type: 'dismiss listed' })}>
              <Trans>关闭</Trans>
            </Button>
          </HStack>
        </Alert.Root>
      ) : null}
      {failed ? (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>{error ?? t`无法加载网站列表`}</Alert.Title>
          <Button size="xs" variant="outline" ms="auto" onClick={() => send({ type: 'retry' })}>
            <Trans>重试</Trans>
          </Button>
        </Alert.Root>
      ) : loading ? (
        <Stack gap="2" aria-busy>
          <Skeleton h="10" />
          <Skeleton h="10" />
        </Stack>
      ) : sites.length === 0 ? (
        <Box bg="panel" borderWidth="1px" borderRadius="xl" py="12" data-testid="link-empty">
          <EmptyState.Root>
            <EmptyState.Content>
              <EmptyState.Indicator>
                <Globe />
              </EmptyState.Indicator>
              <VStack textAlign="center">
                <EmptyState.Title as="h2">
                  <Trans>还没有要校对的网页</Trans>
                </EmptyState.Title>
                <EmptyState.Description>
                  <Trans>输入网址开始校对；选择链接层数可一并校对同一网站内的其他页面。</Trans>
                </EmptyState.Description>
              </VStack>
            </EmptyState.Content>
          </EmptyState.Root>
        </Box>
      ) : (
        <>
          <SiteTable sites={sites} selectedId={selectedId} pendingId={busy ? pendingId : null} send={send} />
          <ListPagination
            total={total}
            size={WEBSITE_PAGE_SIZE}
            page={num}
            onPage={(page) => send({ type: 'page', num: page })}
          />
        </>
      )}
      {selected?.last_result ? <SiteResult site={selected} actor={actor} send={send} /> : null}
    </Stack>
  );
}

function AddForm(props: { busy: boolean; onAdd(input: WebsiteInput): void }) {
  const { t } = useLingui();
  const [url, setUrl] = useState('');
  const [depth, setDepth] = useState(0);
  const [limit, setLimit] = useState(10);
  const valid = /^https?:\/\/\S+\.\S+|^https?:\/\/\S+:\d+/.test(url.trim());
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!valid || props.busy) return;
    props.onAdd({ url: url.trim(), depth, page_limit: depth === 0 ? 1 : limit });
    setUrl('');
  };
  return (
    <Box as="form" onSubmit={submit} bg="panel" borderWidth="1px" borderRadius="xl" p="4" data-testid="link-form">
      <Flex gap="3" wrap="wrap" align="flex-end">
        <Field.Root flex="1" minW="260px">
          <Field.Label>
            <Trans>网址</Trans>
          </Field.Label>
          <Input
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://"
            inputMode="url"
            aria-label={t`网址`}
            data-testid="link-url"
          />
        </Field.Root>
        <Field.Root w="auto">
          <Field.Label>
            <Trans>校对范围</Trans>
          </Field.Label>
          <NativeSelect.Root size="md" width="auto">
            <NativeSelect.Field
              value={depth}
              onChange={(e) => setDepth(Number(e.target.value))}
              aria-label={t`校对范围`}
              data-testid="link-depth"
            >
              {DEPTHS.map((d) => (
                <option key={d} value={d}>
                  {d === 0 ? t`仅此页` : d === 1 ? t`此页及其链接` : t`两层链接`}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        {depth > 0 ? (
          <Field.Root w="28">
            <Field.Label>
              <Trans>最多页数</Trans>
            </Field.Label>
            <Input
              type="number"
              min={1}
              max={50}
              value={limit}
              onChange={(e) => setLimit(Math.min(50, Math.max(1, Number(e.target.value) || 1)))}
              aria-label={t`最多页数`}
            />
          </Field.Root>
        ) : null}
        <Button type="submit" colorPalette="blue" disabled={!valid} loading={props.busy} data-testid="link-submit">
          <Play size={16} />
          <Trans>开始校对</Trans>
        </Button>
      </Flex>
      <Text fontSize="xs" color="fg.muted" mt="2">
        <Trans>
          只读取公开网页；跟随链接时遵守网站的 robots.txt
          并放慢访问速度。按校对的字数扣除高速校对字数，单次上限见我的权益。
        </Trans>
      </Text>
    </Box>
  );
}

function StatusCell({ site }: { site: Website }) {
  const { t, i18n } = useLingui();
  if (site.status === 'queued' || site.status === 'running')
    return (
      <Stack gap="1" minW="120px" data-testid="link-status" data-status={site.status}>
        <Text fontSize="sm">{site.status === 'queued' ? t`排队中` : t`校对中 ${site.progress}%`}</Text>
        <Progress.Root value={site.progress} size="xs" colorPalette="blue" aria-label={t`校对进度`}>
          <Progress.Track>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
      </Stack>
    );
  if (site.status === 'failed')
    return (
      <Stack gap="0" data-testid="link-status" data-status="failed">
        <Badge colorPalette="red" w="fit-content">
          <Trans>失败</Trans>
        </Badge>
        {site.error ? (
          <Text fontSize="xs" color="fg.error">
            {translateNotice(i18n, site.error)}
          </Text>
        ) : null}
      </Stack>
    );
  if (site.status === 'done')
    return (
      <Badge colorPalette="green" data-testid="link-status" data-status="done">
        <Trans>已完成</Trans>
      </Badge>
    );
  return (
    <Badge data-testid="link-status" data-status="idle">
      <Trans>未校对</Trans>
    </Badge>
  );
}

function SiteTable(props: {
  sites: Website[];
  selectedId: number | null;
  pendingId: number | null;
  send(event: WebsitesEvent): void;
}) {
  const { t, i18n } = useLingui();
  const [deleting, setDeleting] = useState<Website | null>(null);
  const [editing, setEditing] = useState<Website | null>(null);
  const { send } = props;
  const when = (iso: string | null | undefined) =>
    iso ? i18n.date(new Date(iso), { dateStyle: 'medium', timeStyle: 'short' }) : '—';
  return (
    <Box bg="panel" borderWidth="1px" borderRadius="xl" overflowX="auto">
      <Table.Root css={STACK_ON_PHONE} size="sm" aria-label={t`网页校对`} interactive>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>
              <Trans>网站</Trans>
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
              <Trans>上次校对</Trans>
            </Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">
              <Trans>操作</Trans>
            </Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {props.sites.map((site) => {
            const running = site.status === 'queued' || site.status === 'running';
            return (
              <Table.Row
                key={site.id}
                data-testid="link-row"
                data-id={site.id}
                data-selected={site.id === props.selectedId || undefined}
                bg={site.id === props.selectedId ? 'blue.subtle/40' : undefined}
                cursor={site.last_result ? 'pointer' : undefined}
                onClick={() => site.last_result && send({ type: 'select', id: site.id })}
              >
                <Table.Cell data-label={t`网站`} maxW="360px">
                  <Text fontWeight="medium" truncate>
                    <Verbatim>{site.name}</Verbatim>
                  </Text>
                  <Text fontSize="xs" color="fg.muted" truncate>
                    {site.url}
                    {site.depth > 0 ? ` · ${t`链接 ${site.depth} 层，最多 ${site.page_limit} 页`}` : ''}
                  </Text>
                </Table.Cell>
                <Table.Cell data-label={t`状态`}>
                  <StatusCell site={site} />
                </Table.Cell>
                <Table.Cell data-label={t`页数`} textAlign="end">
                  {site.last_result?.page_count ?? '—'}
                </Table.Cell>
                <Table.Cell data-label={t`问题`} textAlign="end" data-testid="link-issue-count">
                  {site.last_result?.issue_count ?? '—'}
                </Table.Cell>
                <Table.Cell data-label={t`上次校对`} whiteSpace="nowrap">
                  {when(site.last_checked_at)}
                </Table.Cell>
                <Table.Cell data-label={t`操作`} textAlign="end" onClick={(e) => e.stopPropagation()}>
                  <HStack gap="1" justify="flex-end">
                    <Button
                      size="xs"
                      variant="outline"
                      disabled={running}
                      loading={props.pendingId === site.id}
                      onClick={() => send({ type: 'check', id: site.id })}
                      aria-label={t`校对 ${site.name}`}
                      data-testid="link-check"
                    >
                      <Play size={14} />
                      {site.last_result ? <Trans>重新校对</Trans> : <Trans>校对</Trans>}
                    </Button>
                    <IconButton
                      size="xs"
                      variant="ghost"
                      disabled={!site.last_result}
                      onClick={() => send({ type: 'download', id: site.id })}
                      aria-label={t`下载 ${site.name} 的校对报告`}
                      data-testid="link-report"
                    >
                      <Download size={14} />
                    </IconButton>
                    <IconButton
                      size="xs"
                      variant="ghost"
                      disabled={running}
                      onClick={() => setEditing(site)}
                      aria-label={t`修改 ${site.name}`}
                    >
                      <Pencil size={14} />
                    </IconButton>
                    <IconButton
                      size="xs"
                      variant="ghost"
                      colorPalette="red"
                      onClick={() => setDeleting(site)}
                      aria-label={t`删除 ${site.name}`}
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
        description={t`网站和它的校对结果都会删除；正在进行的校对会停止，不扣字数。`}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) send({ type: 'delete', id: deleting.id });
          setDeleting(null);
        }}
      />
      {editing ? (
        <EditDialog
          site={editing}
          onClose={() => setEditing(null)}
          onSave={(changes) => {
            send({ type: 'update', id: editing.id, changes });
            setEditing(null);
          }}
        />
      ) : null}
    </Box>
  );
}

function EditDialog(props: { site: Website; onClose(): void; onSave(changes: Partial<WebsiteInput>): void }) {
  const { t } = useLingui();
  const [name, setName] = useState(props.site.name);
  const [url, setUrl] = useState(props.site.url);
  const [depth, setDepth] = useState(props.site.depth);
  const [limit, setLimit] = useState(props.site.page_limit);
  return (
    <Dialog.Root open onOpenChange={(d) => (d.open ? undefined : props.onClose())} placement="center" size="sm">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>
                <Trans>修改网站</Trans>
              </Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="3">
                <Field.Root>
                  <Field.Label>
                    <Trans>名称</Trans>
                  </Field.Label>
                  <Input value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
                </Field.Root>
                <Field.Root>
                  <Field.Label>
                    <Trans>网址</Trans>
                  </Field.Label>
                  <Input value={url} onChange={(e) => setUrl(e.target.value)} />
                </Field.Root>
                <HStack gap="3">
                  <Field.Root>
                    <Field.Label>
                      <Trans>校对范围</Trans>
                    </Field.Label>
                    <NativeSelect.Root>
                      <NativeSelect.Field value={depth} onChange={(e) => setDepth(Number(e.target.value))}>
                        {DEPTHS.map((d) => (
                          <option key={d} value={d}>
                            {d === 0 ? t`仅此页` : d === 1 ? t`此页及其链接` : t`两层链接`}
                          </option>
                        ))}
                      </NativeSelect.Field>
                      <NativeSelect.Indicator />
                    </NativeSelect.Root>
                  </Field.Root>
                  <Field.Root>
                    <Field.Label>
                      <Trans>最多页数</Trans>
                    </Field.Label>
                    <Input
                      type="number"
                      min={1}
                      max={50}
                      value={limit}
                      onChange={(e) => setLimit(Math.min(50, Math.max(1, Number(e.target.value) || 1)))}
                    />
                  </Field.Root>
                </HStack>
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={props.onClose}>
                <Trans>取消</Trans>
              </Button>
              <Button
                colorPalette="blue"
                disabled={!name.trim() || !/^https?:\/\/\S+$/.test(url.trim())}
                onClick={() => props.onSave({ name: name.trim(), url: url.trim(), depth, page_limit: limit })}
              >
                <Trans>保存</Trans>
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t`关闭`} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/** The findings of one page with ids the review can select. */
function pageFindings(page: WebsitePage, allowed: readonly string[]): Finding[] {
  return page.issues
    .filter((i) => !allowed.includes(i.original))
    .map((i) => ({ ...i, id: `${i.start}-${i.end}-${i.category}`, paragraph: '' }));
}

function SiteResult(props: {
  site: Website;
  actor: ReturnType<typeof useActorRef<ReturnType<typeof liveWebsites>>>;
  send(event: WebsitesEvent): void;
}) {
  const { t, i18n } = useLingui();
  const { site, actor, send } = props;
  const result = site.last_result!;
  const pageIndex = useSelector(actor, (s) => Math.min(s.context.pageIndex, Math.max(0, result.pages.length - 1)));
  const allowed = useSelector(actor, (s) => s.context.allowed);
  const page = result.pages[pageIndex];
  const findings = useMemo(() => (page ? pageFindings(page, allowed) : []), [page, allowed]);
  const labelOf = useCategoryLabels();
  const view = useRef<HTMLDivElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const reveal = useCallback((f: Finding) => revealFinding(view.current, f.id, 'smooth'), []);
  const latest = useRef(findings);
  latest.current = findings;
  const current = useCallback(() => latest.current, []);
  const review = useFindingReview<Finding>({
    findings,
    current,
    send: (event) => {
      if (event.type === 'word added') send(event);
    },
    editable: false,
    reveal,
    text: page?.text ?? '',
    root,
  });
  const sourceOf = useCallback(
    (f: Finding) => (page ? sourceLink(page.url, page.text, f.start, f.end) : undefined),
    [page],
  );
  const report = useMemo(() => ({ sourceOf, sourceLabel: t`在网页中查看` }), [sourceOf, t]);

  return (
    <Stack gap="3" ref={root} data-testid="link-result">
      <Flex gap="2" align="center" wrap="wrap">
        <Text fontWeight="semibold">{t`「${site.name}」的校对结果`}</Text>
        <Text fontSize="sm" color="fg.muted">
          {t`${result.page_count} 个页面，${i18n.number(result.char_count)} 字，${result.issue_count} 处问题`}
        </Text>
      </Flex>
      {result.truncated ? (
        <Alert.Root status="warning" size="sm" data-testid="link-truncated">
          <Alert.Indicator />
          <Alert.Title>
            <Trans>网页文字超过单次校对字数上限，超出部分未校对。可升级会员提高上限，或减少校对的页数。</Trans>
          </Alert.Title>
        </Alert.Root>
      ) : null}
      {result.skipped.length ? (
        <Box as="details" fontSize="sm" data-testid="link-skipped">
          <Box as="summary" cursor="pointer" color="fg.muted">
            {t`${result.skipped.length} 个链接未读取`}
          </Box>
          <Stack gap="1" mt="2" ps="4">
            {result.skipped.map((s) => (
              <Text key={s.url} fontSize="xs" wordBreak="break-all">
                {s.url} — {translateNotice(i18n, rememberServerMessage(s.error, s.error_code, s.error_params))}
              </Text>
            ))}
          </Stack>
        </Box>
      ) : null}
      {result.pages.length > 1 ? (
        <HStack gap="2" wrap="wrap" role="tablist" aria-label={t`页面`}>
          {result.pages.map((p, i) => (
            <Button
              key={p.url}
              size="xs"
              role="tab"
              aria-selected={i === pageIndex}
              variant={i === pageIndex ? 'solid' : 'outline'}
              onClick={() => send({ type: 'select page', index: i })}
              data-testid="link-page-tab"
            >
              {p.title || p.url}
              <Badge colorPalette={p.issues.length ? 'red' : 'gray'} size="xs">
                {p.issues.length}
              </Badge>
            </Button>
          ))}
        </HStack>
      ) : null}
      {page ? (
        <Flex gap="4" direction={{ base: 'column', lg: 'row' }} align="flex-start">
          <Stack flex="1" minW="0" gap="2">
            <ChakraLink href={page.url} target="_blank" rel="noopener noreferrer" fontSize="sm" wordBreak="break-all">
              {page.url}
            </ChakraLink>
            <Box
              ref={view}
              bg="panel"
              borderWidth="1px"
              borderRadius="xl"
              p="5"
              maxH={{ lg: 'calc(100vh - 260px)' }}
              overflowY="auto"
              lineHeight="1.9"
              data-testid="link-page-text"
            >
              <PageText page={page} findings={findings} selectedId={review.selectedId} onSelect={review.select} />
            </Box>
            <ReviewKeys editable={false} />
          </Stack>
          <FindingsPanel count={findings.length} onStep={review.step}>
            {findings.length ? (
              <FindingGroups
                list={findings}
                limit={CARD_LIMIT}
                selectedId={review.selectedId}
                text={page.text}
                labelOf={labelOf}
                onAction={review.onAction}
                report={report}
              />
            ) : (
              <Text color="fg.muted" textAlign="center" py="6" data-testid="link-no-findings">
                <Trans>这个页面没有发现问题</Trans>
              </Text>
            )}
          </FindingsPanel>
        </Flex>
      ) : null}
    </Stack>
  );
}

/** The page's text, a block per line (headings as headings), the findings marked. */
function PageText(props: {
  page: WebsitePage;
  findings: Finding[];
  selectedId: string | null;
  onSelect(f: Finding): void;
}) {
  const { page, findings, selectedId, onSelect } = props;
  const headingStarts = new Set(page.headings.map((h) => h.start));
  const lines: Array<{ start: number; text: string }> = [];
  let offset = 0;
  for (const line of page.text.split('\n')) {
    lines.push({ start: offset, text: line });
    offset += line.length + 1;
  }
  return (
    <>
      {lines.map((line) => {
        const end = line.start + line.text.length;
        const inLine = findings.filter((f) => f.start >= line.start && f.end <= end);
        const parts: ReactNode[] = [];
        let at = line.start;
        for (const f of inLine) {
          if (f.start < at) continue;
          if (f.start > at) parts.push(page.text.slice(at, f.start));
          const palette = paletteOf(f.category);
          parts.push(
            <Box
              as="mark"
              key={f.id}
              data-finding={f.id}
              bg={f.id === selectedId ? `${palette}.muted` : `${palette}.subtle`}
              color="inherit"
              borderBottomWidth="2px"
              borderColor={`${palette}.solid`}
              cursor="pointer"
              onClick={() => onSelect(f)}
            >
              {page.text.slice(f.start, f.end)}
            </Box>,
          );
          at = f.end;
        }
        if (at < end) parts.push(page.text.slice(at, end));
        const heading = headingStarts.has(line.start);
        return (
          <Text
            key={line.start}
            as={heading ? 'h3' : 'p'}
            fontWeight={heading ? 'semibold' : undefined}
            fontSize={heading ? 'lg' : undefined}
            mt={heading ? '3' : undefined}
            mb="2"
          >
            {parts}
          </Text>
        );
      })}
    </>
  );
}

// A PDF check's pages (route /pdfdetail?id=, no side bar): the page drawn as an image with a box on each finding,
// the findings beside it (the shared findings module: a card selects its box, a box selects its card), the page
// list with each page's count, zoom, and the keys of every result screen. Pages appear as they are checked.
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Badge,
  Box,
  Button,
  Center,
  Flex,
  HStack,
  IconButton,
  Progress,
  Spinner,
  Stack,
  Text,
} from '@chakra-ui/react';
import { ArrowLeft, Download, ZoomIn, ZoomOut, Maximize2 } from 'lucide-react';
import { useActorRef, useSelector } from '@xstate/react';
import { useQuery } from '@tanstack/react-query';
import { useLocation, useSearch } from 'wouter';
import { AppActorContext } from '../../app-actor';
import { systemActor } from '../../../machines/system';
import { livePdfDetail } from '../../../machines/live-pdf';
import { inspectOptions } from '../../../machines/inspect';
import { PDF_ZOOMS, type PdfDetailEvent } from '../../../machines/pdfDetail';
import { pdfPageImage, type PdfPage } from '../../../machines/pdfCalls';
import type { Finding } from '../../../machines/proofreadJob';
import { FindingGroups, FindingsPanel, ReviewKeys } from '../../findings/FindingsPanel';
import { useCategoryLabels, useFindingReview } from '../../findings/useFindingReview';
import { FindingBoxes } from '../../findings/FindingBoxes';
import { revealFinding } from '../../findings/reveal';
import { translateNotice } from '../../notices';
import { saveFile } from '../../save-file';
import { Verbatim } from '../../layout/Verbatim';

type PdfFinding = Finding & { rects: number[][] };

function pageFindings(page: PdfPage | undefined, allowed: readonly string[]): PdfFinding[] {
  if (!page) return [];
  return page.issues
    .filter((i) => !allowed.includes(i.original))
    .map((i) => ({ ...i, rects: i.rects ?? [], id: `${i.start}-${i.end}-${i.category}`, paragraph: '' }));
}

export default function PdfDetailScreen() {
  const id = Number(new URLSearchParams(useSearch()).get('id'));
  const [, navigate] = useLocation();
  if (!Number.isInteger(id) || id <= 0)
    return (
      <Center py="20">
        <Text>
          <Trans>PDF 校对记录不存在或已删除</Trans>
        </Text>
      </Center>
    );
  return <PdfDetail key={id} id={id} onBack={() => navigate('/pdf')} />;
}

function PdfDetail({ id, onBack }: { id: number; onBack(): void }) {
  const { t, i18n } = useLingui();
  const app = AppActorContext.useActorRef();
  const logic = useMemo(
    () =>
      livePdfDetail({
        socket: () => systemActor(app.system, 'socket'),
        save: (blob, name) => saveFile({ blob, name }),
      }),
    [app],
  );
  const actor = useActorRef(logic, { input: { id }, ...inspectOptions() });
  const send = useCallback((event: PdfDetailEvent) => actor.send(event), [actor]);
  const loading = useSelector(actor, (s) => s.matches('loading'));
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const error = useSelector(actor, (s) => s.context.error);
  const result = useSelector(actor, (s) => s.context.result);
  const pageIndex = useSelector(actor, (s) => s.context.pageIndex);
  const zoom = useSelector(actor, (s) => PDF_ZOOMS[s.context.zoom]);
  const allowed = useSelector(actor, (s) => s.context.allowed);
  const exporting = useSelector(actor, (s) => s.matches({ ready: { export: 'exporting' } }));
  const page = result?.pages[pageIndex];
  const findings = useMemo(() => pageFindings(page, allowed), [page, allowed]);

  const labelOf = useCategoryLabels();
  const image = useQuery({
    queryKey: ['misscut', 'pdf-page-image', id, page?.page ?? 0],
    queryFn: async () => URL.createObjectURL(await pdfPageImage(id, page!.page)),
    enabled: !!page,
    staleTime: Infinity,
    gcTime: 5 * 60_000,
  });
  useEffect(() => {
    const url = image.data;
    return () => {
      if (url) setTimeout(() => URL.revokeObjectURL(url), 60_000);
    };
  }, [image.data]);

  const root = useRef<HTMLDivElement>(null);
  const view = useRef<HTMLDivElement>(null);
  const reveal = useCallback((f: PdfFinding) => revealFinding(view.current, f.id), []);
  const latest = useRef(findings);
  latest.current = findings;
  const current = useCallback(() => latest.current, []);
  const pages = result?.pages.length ?? 0;
  const review = useFindingReview<PdfFinding>({
    findings,
    current,
    send: (event) => {
      if (event.type === 'word added') send(event);
    },
    editable: false,
    reveal,
    text: page?.text ?? '',
    root,
    // PageUp / PageDown move between pages
    extraKey: (e) => {
      if (e.key !== 'PageDown' && e.key !== 'PageUp') return false;
      send({ type: 'select page', index: pageIndex + (e.key === 'PageDown' ? 1 : -1) });
      return true;
    },
  });
  const report = useMemo(() => ({ sourceOf: () => undefined, sourceLabel: '' }), []);

  if (loading)
    return (
      <Center py="20">
        <Spinner />
      </Center>
    );
  if (failed || !result)
    return (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Title>{error ?? t`无法加载 PDF 校对结果`}</Alert.Title>
        <Button size="xs" variant="outline" ms="auto" onClick={() => send({ type: 'retry' })}>
          <Trans>重试</Trans>
        </Button>
      </Alert.Root>
    );
  const running = result.status === 'queued' || result.status === 'running';
  return (
    <Stack gap="3" ref={root} data-testid="pdf-detail">
      <Flex gap="3" align="center" wrap="wrap">
        <IconButton size="sm" variant="ghost" aria-label={t`返回 PDF 列表`} onClick={onBack}>
          <ArrowLeft />
        </IconButton>
        <Text fontWeight="semibold" truncate maxW="md">
          <Verbatim>{result.name}</Verbatim>
        </Text>
        <Text fontSize="sm" color="fg.muted">
          {t`${result.page_count} 页，${result.issue_count} 处问题`}
        </Text>
        {running ? (
          <HStack gap="2" minW="200px" data-testid="pdf-detail-progress">
            <Progress.Root value={result.progress} size="xs" flex="1" colorPalette="blue" aria-label={t`校对进度`}>
              <Progress.Track>
                <Progress.Range />
              </Progress.Track>
            </Progress.Root>
            <Text fontSize="xs">{t`已校对 ${pages}/${result.page_count} 页`}</Text>
          </HStack>
        ) : null}
        {result.status === 'failed' || result.status === 'cancelled' ? (
          <Badge colorPalette={result.status === 'failed' ? 'red' : 'gray'}>
            {result.error ? translateNotice(i18n, result.error) : result.status}
          </Badge>
        ) : null}
        <Box flex="1" />
        {result.status === 'done' ? (
          <HStack gap="2">
            <Button
              size="xs"
              variant="outline"
              loading={exporting}
              onClick={() => send({ type: 'export', format: 'pdf' })}
              data-testid="pdf-export-pdf"
            >
              <Download size={14} />
              <Trans>导出批注 PDF</Trans>
            </Button>
            <Button
              size="xs"
              variant="outline"
              loading={exporting}
              onClick={() => send({ type: 'export', format: 'xlsx' })}
              data-testid="pdf-export-xlsx"
            >
              <Download size={14} />
              <Trans>导出报告</Trans>
            </Button>
          </HStack>
        ) : null}
        <HStack gap="1">
          <IconButton size="sm" variant="ghost" aria-label={t`缩小`} onClick={() => send({ type: 'zoom', step: -1 })}>
            <ZoomOut />
          </IconButton>
          <Button size="xs" variant="ghost" onClick={() => send({ type: 'zoom', step: 0 })} data-testid="pdf-zoom">
            {Math.round(zoom * 100)}%
          </Button>
          <IconButton size="sm" variant="ghost" aria-label={t`放大`} onClick={() => send({ type: 'zoom', step: 1 })}>
            <ZoomIn />
          </IconButton>
          <IconButton
            size="sm"
            variant="ghost"
            aria-label={t`适合宽度`}
            onClick={() => send({ type: 'zoom', step: 0 })}
          >
            <Maximize2 />
          </IconButton>
        </HStack>
      </Flex>
      <Flex gap="4" direction={{ base: 'column', lg: 'row' }} align="flex-start">
        <Stack
          as="nav"
          aria-label={t`页面`}
          w={{ base: 'full', lg: '110px' }}
          direction={{ base: 'row', lg: 'column' }}
          gap="1"
          maxH={{ lg: 'calc(100vh - 180px)' }}
          overflow="auto"
          flexShrink={0}
        >
          {result.pages.map((p, i) => (
            <Button
              key={p.page}
              size="sm"
              variant={i === pageIndex ? 'solid' : 'outline'}
              justifyContent="space-between"
              onClick={() => send({ type: 'select page', index: i })}
              aria-current={i === pageIndex ? 'page' : undefined}
              data-testid="pdf-page-tab"
            >
              {t`第 ${p.page} 页`}
              <Badge size="xs" colorPalette={p.issues.length ? 'red' : 'gray'}>
                {p.issues.length}
              </Badge>
            </Button>
          ))}
        </Stack>
        <Stack flex="1" minW="0" gap="2">
          <Box
            ref={view}
            bg="panel"
            borderWidth="1px"
            borderRadius="xl"
            p="3"
            overflow="auto"
            maxH={{ lg: 'calc(100vh - 180px)' }}
            data-testid="pdf-page-view"
          >
            {page ? (
              <Box position="relative" w={`${zoom * 100}%`} mx="auto" data-testid="pdf-page" data-page={page.page}>
                {image.data ? (
                  <img
                    src={image.data}
                    alt={t`第 ${page.page} 页`}
                    style={{ width: '100%', display: 'block' }}
                    data-testid="pdf-page-image"
                  />
                ) : (
                  <Box style={{ aspectRatio: `${page.width} / ${page.height}` }} bg="bg.muted">
                    <Center h="full">{image.isError ? <Trans>页面图像加载失败</Trans> : <Spinner />}</Center>
                  </Box>
                )}
                <FindingBoxes<PdfFinding>
                  findings={findings}
                  boxesOf={(f) => f.rects}
                  width={page.width}
                  height={page.height}
                  selectedId={review.selectedId}
                  onSelect={review.select}
                  testId="pdf-box"
                />
              </Box>
            ) : (
              <Center py="16" color="fg.muted">
                <Trans>页面尚未校对完成</Trans>
              </Center>
            )}
          </Box>
          <HStack gap="3" fontSize="xs" color="fg.muted" wrap="wrap">
            <ReviewKeys editable={false} />
            <Text>
              <Trans>PageUp/PageDown 翻页</Trans>
            </Text>
          </HStack>
        </Stack>
        <FindingsPanel count={findings.length} onStep={review.step}>
          {findings.length ? (
            <FindingGroups
              list={findings}
              limit={200}
              selectedId={review.selectedId}
              text={page?.text ?? ''}
              labelOf={labelOf}
              onAction={review.onAction}
              report={report}
            />
          ) : (
            <Text color="fg.muted" textAlign="center" py="6" data-testid="pdf-no-findings">
              <Trans>这一页没有发现问题</Trans>
            </Text>
          )}
        </FindingsPanel>
      </Flex>
    </Stack>
  );
}

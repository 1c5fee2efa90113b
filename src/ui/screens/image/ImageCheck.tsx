// Image proofreading (route /image, kept alive): choose, drop or paste images (each uses one image check); each is
// read by OCR on the server and shown with a box on each finding beside the shared findings list; characters the
// OCR was unsure of are marked 识别存疑 and never reported on their own; the recognised text can be corrected and
// checked again; the text with its findings and the annotated picture can be saved.
import { useCallback, useEffect, useMemo, useRef, useState, type ClipboardEvent, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Badge,
  Box,
  Button,
  Center,
  CloseButton,
  EmptyState,
  Flex,
  HStack,
  Image as ChakraImage,
  Spinner,
  Stack,
  Text,
  Textarea,
  VStack,
} from '@chakra-ui/react';
import { Download, FileText, ImagePlus, Pencil, RotateCcw } from 'lucide-react';
import { useActorRef, useSelector } from '@xstate/react';
import { AppActorContext } from '../../app-actor';
import { systemActor } from '../../../machines/system';
import { liveImageChecks } from '../../../machines/live-images';
import { inspectOptions } from '../../../machines/inspect';
import { IMAGE_EXTENSIONS, type ImageChecksEvent, type ImageItem } from '../../../machines/imageChecks';
import type { Finding } from '../../../machines/proofreadJob';
import { FindingGroups, FindingsPanel, ReviewKeys } from '../../findings/FindingsPanel';
import { useCategoryLabels, useFindingReview } from '../../findings/useFindingReview';
import { paletteOf } from '../../findings/categories';
import { FindingBoxes } from '../../findings/FindingBoxes';
import { revealFinding } from '../../findings/reveal';
import { translateNotice } from '../../notices';
import { saveFile } from '../../save-file';
import { Verbatim } from '../../layout/Verbatim';

type ImageFinding = Finding & { boxes: number[][] };

const ACCEPT = IMAGE_EXTENSIONS.join(',');

function findingsOf(item: ImageItem | undefined, allowed: readonly string[]): ImageFinding[] {
  return (item?.result?.issues ?? [])
    .filter((i) => !allowed.includes(i.original))
    .map((i) => ({ ...i, id: `${i.start}-${i.end}-${i.category}`, paragraph: '' }));
}

/** The recognised text with its findings listed under it, for saving as .txt. */
export function textReport(name: string, text: string, findings: readonly ImageFinding[]): string {
  const lines = [`${name}`, '', text, '', `校对结果（${findings.length} 处）`];
  for (const f of findings) lines.push(`- ${f.original} → ${f.suggestions.join(' / ') || '（删除）'}：${f.message}`);
  return `${lines.join('\n')}\n`;
}

/** The picture with a red box on each finding, as PNG. */
async function annotatedPicture(url: string, findings: readonly ImageFinding[]): Promise<Blob | null> {
  const img = new Image();
  img.src = url;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = img.naturalWidth;
  canvas.height = img.naturalHeight;
  const context = canvas.getContext('2d');
  if (!context) return null;
  context.drawImage(img, 0, 0);
  context.strokeStyle = '#e53e3e';
  context.lineWidth = Math.max(2, Math.round(canvas.width / 600));
  for (const f of findings) for (const [x, y, w, h] of f.boxes) context.strokeRect(x - 2, y - 2, w + 4, h + 4);
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
}

export default function ImageCheck() {
  const { t } = useLingui();
  const app = AppActorContext.useActorRef();
  const logic = useMemo(
    () =>
      liveImageChecks({
        socket: () => systemActor(app.system, 'socket'),
        release: (url) => URL.revokeObjectURL(url),
      }),
    [app],
  );
  const actor = useActorRef(logic, inspectOptions());
  const send = useCallback((event: ImageChecksEvent) => actor.send(event), [actor]);
  const items = useSelector(actor, (s) => s.context.items);
  const selectedKey = useSelector(actor, (s) => s.context.selected);
  const selected = items.find((x) => x.key === selectedKey);
  const input = useRef<HTMLInputElement>(null);

  const choose = useCallback(
    (files: File[]) => {
      const images = files.filter((f) => f.type.startsWith('image/') || /\.(tiff?|heic)$/i.test(f.name));
      if (!images.length) return;
      send({
        type: 'files chosen',
        files: images.map((file) => ({ file, name: file.name || t`粘贴的图片.png`, url: URL.createObjectURL(file) })),
      });
    },
    [send, t],
  );
  const onPaste = (e: ClipboardEvent) => {
    const files = [...e.clipboardData.files];
    if (files.length) {
      e.preventDefault();
      choose(files);
    }
  };

  return (
    <Stack gap="4" data-testid="image-screen" onPaste={onPaste}>
      <Box
        borderWidth="2px"
        borderStyle="dashed"
        borderRadius="xl"
        p="5"
        bg="panel"
        tabIndex={0}
        role="button"
        cursor="pointer"
        onClick={() => input.current?.click()}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            input.current?.click();
          }
        }}
        onDragOver={(e) => e.preventDefault()}
        onDrop={(e) => {
          e.preventDefault();
          choose([...e.dataTransfer.files]);
        }}
        data-testid="image-drop"
      >
        <HStack gap="3">
          <ImagePlus />
          <Stack gap="0">
            <Text fontWeight="medium">
              <Trans>选择、拖入或粘贴（Ctrl+V）图片，可一次多张</Trans>
            </Text>
            <Text fontSize="sm" color="fg.muted">
              <Trans>支持 PNG、JPG、WebP、BMP、GIF、TIFF；每张扣除 1 次图片校对次数，识别失败时退回。</Trans>
            </Text>
          </Stack>
        </HStack>
        <input
          ref={input}
          type="file"
          accept={ACCEPT}
          multiple
          hidden
          data-testid="image-input"
          onChange={(e) => {
            choose([...(e.target.files ?? [])]);
            e.target.value = '';
          }}
        />
      </Box>
      {items.length === 0 ? (
        <Box bg="panel" borderWidth="1px" borderRadius="xl" py="12" data-testid="image-empty">
          <EmptyState.Root>
            <EmptyState.Content>
              <EmptyState.Indicator>
                <ImagePlus />
              </EmptyState.Indicator>
              <VStack textAlign="center">
                <EmptyState.Title as="h2">
                  <Trans>还没有图片</Trans>
                </EmptyState.Title>
                <EmptyState.Description>
                  <Trans>海报、截图、扫描件中的文字会被识别出来校对，问题标在图片上。</Trans>
                </EmptyState.Description>
              </VStack>
            </EmptyState.Content>
          </EmptyState.Root>
        </Box>
      ) : (
        <Flex gap="4" direction={{ base: 'column', lg: 'row' }} align="flex-start">
          <Stack w={{ base: 'full', lg: '180px' }} gap="2" flexShrink={0} data-testid="image-list">
            {items.map((item) => (
              <Thumb
                key={item.key}
                item={item}
                selected={item.key === selectedKey}
                onSelect={() => send({ type: 'select', key: item.key })}
                onDismiss={() => send({ type: 'dismiss', key: item.key })}
              />
            ))}
          </Stack>
          {selected ? <ImageResultView key={selected.key} item={selected} actor={actor} send={send} /> : null}
        </Flex>
      )}
    </Stack>
  );
}

function PhaseBadge({ item }: { item: ImageItem }) {
  const { t } = useLingui();
  const label: Record<ImageItem['phase'], string> = {
    uploading: t`上传中`,
    queued: t`排队中`,
    running: t`识别中`,
    done: t`已完成`,
    failed: t`失败`,
    rechecking: t`校对中`,
  };
  const palette = item.phase === 'done' ? 'green' : item.phase === 'failed' ? 'red' : 'blue';
  return (
    <Badge colorPalette={palette} size="sm" data-testid="image-phase" data-phase={item.phase}>
      {label[item.phase]}
      {item.phase === 'done' ? ` · ${item.result?.issues?.length ?? 0}` : ''}
    </Badge>
  );
}

function Thumb(props: { item: ImageItem; selected: boolean; onSelect(): void; onDismiss(): void }) {
  const { t } = useLingui();
  const { item } = props;
  return (
    <Box
      position="relative"
      borderWidth="2px"
      borderColor={props.selected ? 'blue.solid' : 'border'}
      borderRadius="md"
      overflow="hidden"
      cursor="pointer"
      onClick={props.onSelect}
      data-testid="image-thumb"
    >
      <ChakraImage src={item.url} alt={item.name} h="90px" w="full" objectFit="cover" />
      <HStack px="2" py="1" gap="1" justify="space-between" bg="panel">
        <Text fontSize="xs" truncate>
          <Verbatim>{item.name}</Verbatim>
        </Text>
        <PhaseBadge item={item} />
      </HStack>
      <CloseButton
        size="2xs"
        position="absolute"
        top="1"
        right="1"
        bg="panel"
        aria-label={t`移除 ${item.name}`}
        onClick={(e) => {
          e.stopPropagation();
          props.onDismiss();
        }}
      />
    </Box>
  );
}

function ImageResultView(props: {
  item: ImageItem;
  actor: ReturnType<typeof useActorRef<ReturnType<typeof liveImageChecks>>>;
  send(event: ImageChecksEvent): void;
}) {
  const { t, i18n } = useLingui();
  const { item, actor, send } = props;
  const allowed = useSelector(actor, (s) => s.context.allowed);
  const findings = useMemo(() => findingsOf(item, allowed), [item, allowed]);
  const [editing, setEditing] = useState(false);
  const labelOf = useCategoryLabels();
  const root = useRef<HTMLDivElement>(null);
  const view = useRef<HTMLDivElement>(null);
  const reveal = useCallback((f: ImageFinding) => revealFinding(view.current, f.id), []);
  const latest = useRef(findings);
  latest.current = findings;
  const current = useCallback(() => latest.current, []);
  const text = item.result?.text ?? '';
  const review = useFindingReview<ImageFinding>({
    findings,
    current,
    send: (event) => {
      if (event.type === 'word added') send(event);
    },
    editable: false,
    reveal,
    text,
    root,
  });
  const report = useMemo(() => ({ sourceOf: () => undefined, sourceLabel: '' }), []);
  useEffect(() => {
    if (item.phase === 'rechecking') setEditing(false);
  }, [item.phase]);
  const width = item.result?.width ?? 0;
  const height = item.result?.height ?? 0;

  return (
    <Stack flex="1" minW="0" gap="3" ref={root} data-testid="image-result">
      <Flex gap="2" align="center" wrap="wrap">
        <Text fontWeight="semibold" truncate maxW="md">
          <Verbatim>{item.name}</Verbatim>
        </Text>
        <PhaseBadge item={item} />
        <Box flex="1" />
        {item.phase === 'done' ? (
          <HStack gap="2">
            <Button
              size="xs"
              variant="outline"
              onClick={() =>
                saveFile({
                  blob: new Blob([textReport(item.name, text, findings)], { type: 'text/plain;charset=utf-8' }),
                  name: `${item.name.replace(/\.[^.]+$/, '')}-识别文字.txt`,
                })
              }
              data-testid="image-export-text"
            >
              <FileText size={14} />
              <Trans>导出文字</Trans>
            </Button>
            <Button
              size="xs"
              variant="outline"
              onClick={async () => {
                const blob = await annotatedPicture(item.url, findings);
                if (blob) saveFile({ blob, name: `${item.name.replace(/\.[^.]+$/, '')}-标注.png` });
              }}
              data-testid="image-export-picture"
            >
              <Download size={14} />
              <Trans>导出标注图片</Trans>
            </Button>
          </HStack>
        ) : null}
      </Flex>
      {item.phase === 'failed' ? (
        <Alert.Root status="error" data-testid="image-error">
          <Alert.Indicator />
          <Alert.Title>{translateNotice(i18n, item.error ?? '')}</Alert.Title>
        </Alert.Root>
      ) : null}
      <Flex gap="4" direction={{ base: 'column', xl: 'row' }} align="flex-start">
        <Stack flex="1" minW="0" gap="3">
          <Box
            ref={view}
            position="relative"
            bg="panel"
            borderWidth="1px"
            borderRadius="xl"
            overflow="hidden"
            data-testid="image-view"
          >
            {/\.tiff?$/i.test(item.name) ? (
              // browsers do not draw TIFF: the text and its findings are shown, the picture is not
              <Center py="10" px="4" color="fg.muted" textAlign="center" data-testid="image-no-preview">
                <Trans>浏览器无法预览 TIFF 图片，识别的文字和问题见下方</Trans>
              </Center>
            ) : (
              <img src={item.url} alt={item.name} style={{ width: '100%', display: 'block' }} />
            )}
            {item.phase === 'uploading' || item.phase === 'queued' || item.phase === 'running' ? (
              <Center position="absolute" inset="0" bg="blackAlpha.300">
                <Spinner />
              </Center>
            ) : null}
            {width && height && !/\.tiff?$/i.test(item.name) ? (
              <FindingBoxes<ImageFinding>
                findings={findings}
                boxesOf={(f) => f.boxes}
                width={width}
                height={height}
                selectedId={review.selectedId}
                onSelect={review.select}
                testId="image-box"
              />
            ) : null}
          </Box>
          {item.result?.text !== undefined ? (
            <Stack gap="2">
              <HStack>
                <Text fontWeight="semibold" fontSize="sm">
                  <Trans>识别的文字</Trans>
                </Text>
                {item.result.unsure?.length ? (
                  <Text fontSize="xs" color="fg.muted" data-testid="image-unsure-legend">
                    <Box as="span" borderBottomWidth="2px" borderBottomStyle="dotted" borderColor="orange.solid">
                      <Trans>识别存疑</Trans>
                    </Box>{' '}
                    <Trans>的字不单独报错，请对照图片核实</Trans>
                  </Text>
                ) : null}
                <Box flex="1" />
                {editing ? null : (
                  <Button
                    size="xs"
                    variant="ghost"
                    disabled={item.phase !== 'done'}
                    onClick={() => {
                      send({ type: 'text edited', key: item.key, text: item.draft ?? text });
                      setEditing(true);
                    }}
                    data-testid="image-edit"
                  >
                    <Pencil size={14} />
                    <Trans>修改文字</Trans>
                  </Button>
                )}
              </HStack>
              {editing ? (
                <Stack gap="2">
                  <Textarea
                    value={item.draft ?? text}
                    onChange={(e) => send({ type: 'text edited', key: item.key, text: e.target.value })}
                    rows={6}
                    aria-label={t`识别的文字`}
                    data-testid="image-text-editor"
                  />
                  <HStack>
                    <Button
                      size="sm"
                      colorPalette="blue"
                      loading={item.phase === 'rechecking'}
                      disabled={!item.draft?.trim()}
                      onClick={() => send({ type: 'recheck', key: item.key })}
                      data-testid="image-recheck"
                    >
                      <RotateCcw size={14} />
                      <Trans>重新校对</Trans>
                    </Button>
                    <Button size="sm" variant="ghost" onClick={() => setEditing(false)}>
                      <Trans>取消</Trans>
                    </Button>
                  </HStack>
                </Stack>
              ) : (
                <Box
                  bg="panel"
                  borderWidth="1px"
                  borderRadius="md"
                  p="3"
                  whiteSpace="pre-wrap"
                  lineHeight="1.9"
                  data-testid="image-text"
                >
                  <MarkedText
                    text={text}
                    findings={findings}
                    unsure={item.result.unsure ?? []}
                    selectedId={review.selectedId}
                    onSelect={review.select}
                  />
                </Box>
              )}
            </Stack>
          ) : null}
          <ReviewKeys editable={false} />
        </Stack>
        <FindingsPanel count={findings.length} onStep={review.step}>
          {findings.length ? (
            <FindingGroups
              list={findings}
              limit={200}
              selectedId={review.selectedId}
              text={text}
              labelOf={labelOf}
              onAction={review.onAction}
              report={report}
            />
          ) : (
            <Text color="fg.muted" textAlign="center" py="6" data-testid="image-no-findings">
              {item.phase === 'done' ? <Trans>没有发现问题</Trans> : <Trans>识别完成后在这里列出问题</Trans>}
            </Text>
          )}
        </FindingsPanel>
      </Flex>
    </Stack>
  );
}

/** The text with findings highlighted and 识别存疑 characters underlined with dots. */
function MarkedText(props: {
  text: string;
  findings: ImageFinding[];
  unsure: number[][];
  selectedId: string | null;
  onSelect(f: ImageFinding): void;
}) {
  const { t } = useLingui();
  const { text, findings, unsure, selectedId, onSelect } = props;
  const parts: ReactNode[] = [];
  // cut points: finding edges and unsure edges
  const cuts = new Set<number>([0, text.length]);
  for (const f of findings) cuts.add(f.start).add(f.end);
  for (const [a, b] of unsure) cuts.add(a).add(b);
  const points = [...cuts].filter((p) => p >= 0 && p <= text.length).sort((a, b) => a - b);
  for (let i = 0; i + 1 < points.length; i++) {
    const [a, b] = [points[i], points[i + 1]];
    const piece = text.slice(a, b);
    const finding = findings.find((f) => f.start <= a && b <= f.end);
    const doubtful = unsure.some(([x, y]) => x <= a && b <= y);
    if (finding) {
      const palette = paletteOf(finding.category);
      parts.push(
        <Box
          as="mark"
          key={a}
          data-finding={finding.id}
          bg={finding.id === selectedId ? `${palette}.muted` : `${palette}.subtle`}
          color="inherit"
          borderBottomWidth="2px"
          borderColor={`${palette}.solid`}
          cursor="pointer"
          onClick={() => onSelect(finding)}
        >
          {piece}
        </Box>,
      );
    } else if (doubtful) {
      parts.push(
        <Box
          as="span"
          key={a}
          title={t`识别存疑`}
          data-testid="image-unsure"
          borderBottomWidth="2px"
          borderBottomStyle="dotted"
          borderColor="orange.solid"
        >
          {piece}
        </Box>,
      );
    } else parts.push(piece);
  }
  return <>{parts}</>;
}

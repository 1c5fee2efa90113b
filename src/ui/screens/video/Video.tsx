// Audio and video proofreading (route /video): choose the media and, if there is one, its subtitle file; the page
// says plainly where the transcript can come from on this server; the segments and their findings are shown beside
// the player (a finding seeks the player to its segment), and the corrected subtitles can be saved.
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Badge, Box, Button, Flex, HStack, Progress, Stack, Text } from '@chakra-ui/react';
import { Download, Play, RotateCcw } from 'lucide-react';
import { useActorRef, useSelector } from '@xstate/react';
import { liveSpeechTask } from '../../../machines/live-speech';
import { inspectOptions } from '../../../machines/inspect';
import type { SpeechEvent } from '../../../machines/speechTask';
import type { SpeechTask } from '../../../machines/speechCalls';
import type { Finding } from '../../../machines/proofreadJob';
import { FindingGroups, FindingsPanel } from '../../findings/FindingsPanel';
import { useCategoryLabels, useFindingReview } from '../../findings/useFindingReview';
import { paletteOf } from '../../findings/categories';
import { cssAttr } from '../../findings/reveal';
import { translateNotice } from '../../notices';
import { saveFile } from '../../save-file';
import { FileDrop } from '../../upload/FileDrop';
import { Verbatim } from '../../layout/Verbatim';

const MEDIA_ACCEPT = '.mp3,.wav,.m4a,.aac,.flac,.ogg,.opus,.wma,.amr,.mp4,.mov,.mkv,.webm,.avi,.flv,.wmv,.m4v,.ts';
const SUBTITLE_ACCEPT = '.srt,.vtt,.ass,.ssa,.lrc,.txt';

type SegmentFinding = Finding & { segment: number };

/** The transcript as one text (a line per segment) and its findings with offsets into it. */
export function transcriptOf(task: SpeechTask | null): { text: string; findings: SegmentFinding[]; starts: number[] } {
  const segments = task?.segments ?? [];
  const starts: number[] = [];
  const findings: SegmentFinding[] = [];
  let text = '';
  segments.forEach((s, index) => {
    const at = text.length;
    starts.push(at);
    for (const i of s.issues)
      findings.push({
        ...i,
        start: i.start + at,
        end: i.end + at,
        id: `${index}-${i.start}-${i.end}-${i.category}`,
        paragraph: '',
        segment: index,
      });
    text += s.text + '\n';
  });
  return { text, findings, starts };
}

const clock = (ms: number) => {
  const s = Math.floor(ms / 1000);
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};

export default function Video() {
  const { t, i18n } = useLingui();
  const logic = useMemo(() => liveSpeechTask({ save: (blob, name) => saveFile({ blob, name }) }), []);
  const actor = useActorRef(logic, inspectOptions());
  const send = useCallback((event: SpeechEvent) => actor.send(event), [actor]);
  const sources = useSelector(actor, (s) => s.context.sources);
  const media = useSelector(actor, (s) => s.context.media);
  const subtitle = useSelector(actor, (s) => s.context.subtitle);
  const task = useSelector(actor, (s) => s.context.task);
  const sent = useSelector(actor, (s) => s.context.sent);
  const error = useSelector(actor, (s) => s.context.error);
  const phase = useSelector(actor, (s) =>
    s.matches('uploading')
      ? 'uploading'
      : s.matches('processing')
        ? 'processing'
        : s.matches('done')
          ? 'done'
          : s.matches('failed')
            ? 'failed'
            : 'idle',
  );
  const exporting = useSelector(actor, (s) => s.matches({ done: 'exporting' }));
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!media) return;
    const next = URL.createObjectURL(media);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [media]);
  const isVideo = media ? media.type.startsWith('video/') || /\.(mp4|mov|mkv|webm|avi|m4v)$/i.test(media.name) : false;
  const busy = phase === 'uploading' || phase === 'processing';

  return (
    <Stack gap="4" data-testid="video-screen">
      <Alert.Root status={sources?.asr ? 'info' : 'warning'} size="sm" data-testid="video-sources">
        <Alert.Indicator />
        <Alert.Description>
          {sources === null ? (
            <Trans>正在查询服务器支持的转写方式…</Trans>
          ) : sources.asr ? (
            <Trans>文字来源：上传的字幕文件、视频内嵌字幕、画面中的字幕或语音识别，按此顺序取第一个可用的。</Trans>
          ) : (
            <Trans>
              本服务器未配置语音识别：请同时上传字幕文件（{sources.subtitle_formats.join('、')}
              ），或上传带内嵌字幕、画面字幕的视频。
            </Trans>
          )}
          {sources ? <> {t`单个文件最长 ${sources.max_minutes} 分钟，按分钟扣除音视频校对时长。`}</> : null}
        </Alert.Description>
      </Alert.Root>
      <Flex gap="3" direction={{ base: 'column', md: 'row' }}>
        <Box flex="2">
          <FileDrop
            accept={MEDIA_ACCEPT}
            title={t`选择音频或视频`}
            hint={t`mp3、wav、m4a、mp4、mov、mkv 等；也可以只上传字幕文件`}
            file={media}
            disabled={busy}
            onFile={(f) => send({ type: 'media chosen', file: f })}
            testId="video-drop"
          />
        </Box>
        <Box flex="1">
          <FileDrop
            accept={SUBTITLE_ACCEPT}
            title={t`字幕文件（可选）`}
            hint={t`srt、vtt、ass、lrc、txt`}
            file={subtitle}
            disabled={busy}
            onFile={(f) => send({ type: 'subtitle chosen', file: f })}
            testId="video-subtitle"
          />
        </Box>
      </Flex>
      <HStack>
        <Button
          colorPalette="blue"
          disabled={!media || busy || phase === 'done'}
          loading={busy}
          onClick={() => send({ type: 'start' })}
          data-testid="video-start"
        >
          <Play size={16} />
          <Trans>开始校对</Trans>
        </Button>
        {phase === 'done' || phase === 'failed' ? (
          <Button variant="outline" onClick={() => send({ type: 'reset' })} data-testid="video-reset">
            <RotateCcw size={16} />
            <Trans>校对另一个文件</Trans>
          </Button>
        ) : null}
      </HStack>
      {busy ? (
        <Stack gap="1" data-testid="video-progress">
          <Text fontSize="sm">
            {phase === 'uploading' ? t`上传中 ${sent}%` : t`处理中（转换、提取文字、校对）${task?.progress ?? 0}%`}
          </Text>
          <Progress.Root value={phase === 'uploading' ? sent : (task?.progress ?? 0)} size="xs" colorPalette="blue">
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
        </Stack>
      ) : null}
      {phase === 'failed' ? (
        <Alert.Root status="error" data-testid="video-error">
          <Alert.Indicator />
          <Alert.Title>{translateNotice(i18n, task?.error ?? error ?? '')}</Alert.Title>
        </Alert.Root>
      ) : null}
      {phase === 'done' && task ? (
        <SpeechResult task={task} url={url} isVideo={isVideo} exporting={exporting} send={send} />
      ) : null}
    </Stack>
  );
}

function SpeechResult(props: {
  task: SpeechTask;
  url: string | null;
  isVideo: boolean;
  exporting: boolean;
  send(event: SpeechEvent): void;
}) {
  const { t } = useLingui();
  const { task, url, isVideo, send } = props;
  const { text, findings, starts } = useMemo(() => transcriptOf(task), [task]);
  const player = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const labelOf = useCategoryLabels();
  const seek = useCallback(
    (segment: number) => {
      const s = task.segments?.[segment];
      if (!s || !player.current) return;
      player.current.currentTime = s.start_ms / 1000;
    },
    [task],
  );
  // a finding selected (card, key or mark) seeks the player to its segment
  const reveal = useCallback(
    (f: SegmentFinding) => {
      seek(f.segment);
      list.current?.querySelector(`[data-finding="${cssAttr(f.id)}"]`)?.scrollIntoView?.({ block: 'center' });
    },
    [seek],
  );
  const latest = useRef(findings);
  latest.current = findings;
  const review = useFindingReview<SegmentFinding>({
    findings,
    current: () => latest.current,
    send: () => undefined,
    editable: false,
    reveal,
    text,
    root,
  });
  const report = useMemo(() => ({ sourceOf: () => undefined, sourceLabel: '' }), []);
  const source: Record<string, string> = {
    subtitle: t`上传的字幕文件`,
    embedded_subtitle: t`视频内嵌字幕`,
    burned_subtitle: t`画面中的字幕（文字识别）`,
    asr: t`语音识别`,
  };
  return (
    <Stack gap="3" ref={root} data-testid="video-result">
      <Flex gap="2" align="center" wrap="wrap">
        <Text fontWeight="semibold">
          <Verbatim>{task.name}</Verbatim>
        </Text>
        {task.transcript_source ? (
          <Badge data-testid="video-source" data-source={task.transcript_source}>
            {t`文字来源：${source[task.transcript_source] ?? task.transcript_source}`}
          </Badge>
        ) : null}
        <Text fontSize="sm" color="fg.muted">
          {t`${task.segments?.length ?? 0} 段，${findings.length} 处问题`}
        </Text>
        <Box flex="1" />
        <Button
          size="xs"
          variant="outline"
          loading={props.exporting}
          onClick={() => send({ type: 'export', format: 'srt' })}
          data-testid="video-export-srt"
        >
          <Download size={14} />
          <Trans>导出校对后字幕（SRT）</Trans>
        </Button>
        <Button
          size="xs"
          variant="outline"
          loading={props.exporting}
          onClick={() => send({ type: 'export', format: 'vtt' })}
        >
          <Download size={14} />
          VTT
        </Button>
      </Flex>
      <Flex gap="4" direction={{ base: 'column', lg: 'row' }} align="flex-start">
        <Stack flex="1" minW="0" gap="3">
          {url ? (
            isVideo ? (
              <video
                ref={player}
                src={url}
                controls
                style={{ width: '100%', maxHeight: 360 }}
                data-testid="video-player"
              />
            ) : (
              <audio ref={player} src={url} controls style={{ width: '100%' }} data-testid="video-player" />
            )
          ) : null}
          <Stack
            ref={list}
            gap="1"
            bg="panel"
            borderWidth="1px"
            borderRadius="xl"
            p="3"
            maxH="420px"
            overflowY="auto"
            data-testid="video-segments"
          >
            {(task.segments ?? []).map((s, index) => (
              <Flex key={index} gap="3" align="baseline" data-testid="video-segment">
                <Button size="2xs" variant="ghost" fontFamily="mono" onClick={() => seek(index)}>
                  {clock(s.start_ms)}
                </Button>
                <Text flex="1">
                  <SegmentText
                    text={s.text}
                    findings={findings.filter((f) => f.segment === index)}
                    offset={starts[index]}
                    selectedId={review.selectedId}
                    onSelect={review.select}
                  />
                </Text>
              </Flex>
            ))}
          </Stack>
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
            <Text color="fg.muted" textAlign="center" py="6" data-testid="video-no-findings">
              <Trans>没有发现问题</Trans>
            </Text>
          )}
        </FindingsPanel>
      </Flex>
    </Stack>
  );
}

function SegmentText(props: {
  text: string;
  findings: SegmentFinding[];
  offset: number;
  selectedId: string | null;
  onSelect(f: SegmentFinding): void;
}) {
  const { text, findings, offset, selectedId, onSelect } = props;
  const parts: ReactNode[] = [];
  let at = 0;
  for (const f of findings) {
    const start = f.start - offset;
    const end = f.end - offset;
    if (start < at) continue;
    if (start > at) parts.push(text.slice(at, start));
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
        {text.slice(start, end)}
      </Box>,
    );
    at = end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}

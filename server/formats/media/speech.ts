/**
 * Speech tasks (audio and video proofreading): an upload, charged by the minute at upload (right 1024 or 2048), is
 * converted to mp3 for playback, its transcript is taken from the first source that has one — the uploaded
 * subtitle file, the media's first text subtitle stream, subtitles burned into a video's picture (OCR of frames), or
 * speech recognition — and each segment's text is checked with the owner's dictionaries; the segments are stored
 * with their findings. Status and progress live in the row (the page polls get_speech_detail). A task that fails
 * gives its minutes back.
 *
 * A task is a job of kind speech (server/jobs/kinds/speech.ts): this file does its work, the job runner decides
 * when and where it runs, and a task whose process died is taken up again from the start by another.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Updateable } from 'kysely';
import { checkLanguage } from '../../../engine/script';
import { isServerMessageCode, type MessageParams } from '../../../openapi/messages';
import type { components } from '../../../openapi/schema';
import { setSpeechMp3, type SpeechTaskRecord } from '../../db/repos/speech-tasks';
import type { SpeechTasksTable } from '../../db/schema';
import { JobFailure } from '../../jobs/runner';
import { checkService, splitUnits } from '../../workers/checker/jobs';
import { AsrError, asrProvider, type AsrProvider } from './asr';
import { burnedSubtitles } from './burned';
import { convertToMp3, cutMp3, extractSubtitle, FfmpegError, withTempDir, type MediaProbe } from './ffmpeg';
import { parseSubtitle, SUBTITLE_FORMATS, type Cue } from './subtitles';

export type SpeechTask = components['schemas']['SpeechTask'];
type Issue = components['schemas']['Issue'];
type TranscriptSource = NonNullable<SpeechTask['transcript_source']>;
export type SpeechSegment = Cue & { issues: Issue[] };

const ALL_STANDARD = 127;
const UNIT_RETRIES = 1;
/** Audio sent to speech recognition per request: 10 minutes of the mp3 is ~3.6 MB, well under services' limits. */
const ASR_PIECE_SECONDS = 600;

/**
 * Progress (percent) reached after each step. Reading burned-in subtitles ends at `burned` when speech recognition
 * may follow it (which goes on from there), at `transcribed` when nothing follows.
 */
const STEP = { converted: 20, burned: 35, transcribed: 50, checked: 99 } as const;
/**
 * Burned-in subtitles are the transcript when OCR found at least this many lines, or lines covering this part of
 * the video: one stray line is more likely a caption or a sign in the picture than subtitles.
 */
const BURNED_MIN_CUES = 2;
const BURNED_MIN_COVER = 0.1;

/** One run of a task: where it writes its state, and the signal that stops it (ffmpeg killed, requests dropped). */
export interface SpeechRun {
  app: FastifyInstance;
  id: number;
  uid: number;
  signal: AbortSignal;
  /** the checker pool group of its units */
  group: string;
  /** Writes the task's state; false once it must stop (the job is no longer this process's). */
  write(values: Updateable<SpeechTasksTable>): Promise<boolean>;
}

const parse = <T>(json: string | null): T | null => (json ? (JSON.parse(json) as T) : null);

/** The formats a subtitle file may have, for messages (`srt、vtt、…`). */
export const subtitleFormatList = () => SUBTITLE_FORMATS.join('、');

export function speechSummary(row: SpeechTaskRecord): SpeechTask {
  const params = parse<MessageParams>(row.error_params);
  return {
    task_id: Number(row.id),
    name: row.name,
    kind: row.kind,
    status: row.status,
    progress: Number(row.progress),
    duration_ms: Number(row.duration_ms),
    minutes: Number(row.minutes),
    issue_count: Number(row.issue_count),
    created_at: row.created_at,
    ...(Number(row.has_mp3) === 1 && { mp3_url: `/misscut/v1/audio/mp3?task_id=${row.id}` }),
    ...(row.transcript_source !== null && { transcript_source: row.transcript_source }),
    ...(row.error !== null && { error: row.error }),
    ...(row.error_code !== null && isServerMessageCode(row.error_code) && { error_code: row.error_code }),
    ...(params && { error_params: params }),
  };
}

/**
 * A task's work: the transcript, then its segments checked; null when it stopped. A failure the owner is told of
 * (no speech, ffmpeg or speech recognition failing) is thrown as a JobFailure.
 */
export async function runSpeech(
  run: SpeechRun,
  row: SpeechTaskRecord,
  files: { source: Uint8Array | null; subtitle: string | null },
): Promise<{ source: TranscriptSource; segments: SpeechSegment[] } | null> {
  try {
    const probe = parse<MediaProbe>(row.probe);
    const uploaded = parse<Cue[]>(files.subtitle);
    let transcript: { source: TranscriptSource; cues: Cue[] } | null = uploaded
      ? { source: 'subtitle', cues: uploaded }
      : null;
    if (probe) {
      if (!files.source) throw new JobFailure('document.file_lost');
      const media = files.source;
      transcript = await withTempDir((dir) => fromMedia(run, dir, media, probe, transcript));
      if (run.signal.aborted) return null;
    }
    if (!transcript || transcript.cues.length === 0) throw new JobFailure('speech.no_speech');
    if (!(await run.write({ progress: STEP.transcribed, transcript_source: transcript.source }))) return null;
    const segments = await checkCues(run, transcript.cues);
    return segments && !run.signal.aborted ? { source: transcript.source, segments } : null;
  } catch (error) {
    if (run.signal.aborted) return null;
    if (error instanceof FfmpegError) {
      run.app.log.warn({ err: error, speech: run.id, ffmpeg: error.log.slice(-2000) }, 'ffmpeg failed');
      if (error.reason === 'timeout') {
        const seconds = Math.round(run.app.config.tools.mediaTimeoutMs / 1000);
        throw new JobFailure('speech.timed_out', { seconds });
      }
      throw new JobFailure(error.reason === 'missing' ? 'speech.no_ffmpeg' : 'speech.convert_failed');
    }
    if (error instanceof AsrError) {
      run.app.log.warn({ err: error, speech: run.id }, 'speech recognition failed');
      throw new JobFailure('speech.asr_failed');
    }
    throw error;
  }
}

/**
 * The media's part: the mp3 for playback, then the transcript when none was uploaded — the first text subtitle
 * stream, else a video's burned-in subtitles, else speech recognition.
 */
async function fromMedia(
  run: SpeechRun,
  dir: string,
  media: Uint8Array,
  probe: MediaProbe,
  uploaded: { source: TranscriptSource; cues: Cue[] } | null,
): Promise<{ source: TranscriptSource; cues: Cue[] } | null> {
  const { signal } = run;
  const timeoutMs = run.app.config.tools.mediaTimeoutMs;
  const input = join(dir, 'input');
  await writeFile(input, media);
  const mp3Path = join(dir, 'audio.mp3');
  if (probe.audio) {
    await convertToMp3(input, mp3Path, probe.durationMs, timeoutMs, signal);
    if (signal.aborted) return null;
    await setSpeechMp3(run.app.db, run.id, await readFile(mp3Path));
    if (!(await run.write({ progress: STEP.converted, has_mp3: 1 }))) return null;
  }
  if (uploaded) return uploaded;
  if (probe.textSubtitle !== null) {
    try {
      const srt = await extractSubtitle(input, probe.textSubtitle, timeoutMs, signal);
      const cues = parseSubtitle(srt, 'srt', probe.durationMs);
      if (cues.length) return { source: 'embedded_subtitle', cues };
    } catch (error) {
      // a subtitle stream ffmpeg cannot write as SubRip: speech recognition may still do
      if (signal.aborted || (error instanceof FfmpegError && error.reason === 'timeout')) throw error;
      run.app.log.warn({ err: error, speech: run.id }, 'embedded subtitle not extracted');
    }
  }
  const asr = asrProvider(run.app.config.media.asr);
  let progress: number = STEP.converted;
  if (probe.video) {
    const end = asr && probe.audio ? STEP.burned : STEP.transcribed;
    const cues = await burned(run, input, probe.durationMs, end);
    if (!cues) return null;
    const covered = cues.reduce((n, c) => n + c.end_ms - c.start_ms, 0);
    if (cues.length >= BURNED_MIN_CUES || covered >= probe.durationMs * BURNED_MIN_COVER)
      return { source: 'burned_subtitle', cues };
    progress = end;
  }
  if (!probe.audio) throw new JobFailure('speech.no_speech');
  if (!asr) throw new JobFailure('speech.no_asr', { formats: subtitleFormatList() });
  return { source: 'asr', cues: await recognise(run, asr, mp3Path, probe.durationMs, progress) };
}

/**
 * The subtitles burned into the video's picture, read by OCR of its frames in the heavy pool (progress from where
 * it is to `end` as the frames are read); empty when it shows none or they cannot be read, null when the task
 * stopped.
 */
async function burned(run: SpeechRun, input: string, durationMs: number, end: number): Promise<Cue[] | null> {
  let shown: number = STEP.converted;
  try {
    const cues = await burnedSubtitles.read(input, {
      seconds: durationMs / 1000,
      heavy: run.app.heavy,
      signal: run.signal,
      onProgress: async (done) => {
        const progress = STEP.converted + Math.floor(done * (end - STEP.converted));
        // written when the percentage moves
        if (run.signal.aborted || progress <= shown) return;
        shown = progress;
        await run.write({ progress });
      },
    });
    return run.signal.aborted ? null : cues;
  } catch (error) {
    if (run.signal.aborted) return null;
    if (error instanceof FfmpegError && error.reason === 'timeout') throw error;
    // pictures OCR cannot read (or an ffmpeg that cannot sample them): speech recognition may still do
    run.app.log.warn({ err: error, speech: run.id }, 'burned-in subtitles not read');
    return [];
  }
}

/** The mp3 through speech recognition in pieces of ASR_PIECE_SECONDS, times shifted to the whole. */
async function recognise(
  run: SpeechRun,
  asr: AsrProvider,
  mp3Path: string,
  durationMs: number,
  from: number,
): Promise<Cue[]> {
  const { signal } = run;
  const pieces = Math.max(1, Math.ceil(durationMs / (ASR_PIECE_SECONDS * 1000)));
  const cues: Cue[] = [];
  for (let i = 0; i < pieces; i++) {
    const startMs = i * ASR_PIECE_SECONDS * 1000;
    const lengthMs = Math.min(ASR_PIECE_SECONDS * 1000, durationMs - startMs);
    const audio =
      pieces === 1
        ? await readFile(mp3Path)
        : await cutMp3(mp3Path, startMs / 1000, lengthMs / 1000, run.app.config.tools.mediaTimeoutMs, signal);
    const piece = await asr.transcribe(audio, { filename: `part${i + 1}.mp3`, durationMs: lengthMs, signal });
    for (const c of piece) cues.push({ ...c, start_ms: c.start_ms + startMs, end_ms: c.end_ms + startMs });
    if (signal.aborted) return [];
    const progress = from + Math.floor(((i + 1) / pieces) * (STEP.transcribed - from));
    if (!(await run.write({ progress }))) return [];
  }
  return cues;
}

/**
 * Each cue with its findings (offsets into the cue's text). The cues are checked as one text, a line each, so
 * short lines share checker units; a finding that would span two cues is left out.
 */
async function checkCues(run: SpeechRun, cues: Cue[]): Promise<SpeechSegment[] | null> {
  const texts = cues.map((c) => c.text.replace(/\s*\n\s*/g, ' '));
  const starts: number[] = [];
  let offset = 0;
  for (const t of texts) {
    starts.push(offset);
    offset += t.length + 1;
  }
  const text = texts.join('\n');
  const service = checkService(run.app);
  // subtitles in traditional characters are checked as such
  const prepared = await service.prepare(run.uid, 3, ALL_STANDARD, checkLanguage(text));
  const units = splitUnits(text);
  let done = 0;
  let shown: number = STEP.transcribed;
  const found = await Promise.all(
    units.map(async (unit) => {
      for (let attempt = 0; ; attempt++) {
        try {
          const issues = await service.checkUnit(prepared, unit, run.group);
          done++;
          const progress = STEP.transcribed + Math.floor((done / units.length) * (STEP.checked - STEP.transcribed));
          // written when the percentage moves, not once per unit
          if (progress > shown) {
            shown = progress;
            await run.write({ progress });
          }
          return issues.map((i) => ({ ...i, start: i.start + unit.offset, end: i.end + unit.offset }));
        } catch (error) {
          if (run.signal.aborted) return [];
          if (attempt >= UNIT_RETRIES) throw error;
        }
      }
    }),
  ).catch((error) => {
    service.cancelGroup(run.group);
    throw error;
  });
  if (run.signal.aborted) return null;
  const perCue: Issue[][] = cues.map(() => []);
  for (const issue of found.flat()) {
    // the cue whose text holds the finding's start
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= issue.start) lo = mid;
      else hi = mid - 1;
    }
    if (issue.end > starts[lo] + texts[lo].length) continue;
    perCue[lo].push({ ...issue, start: issue.start - starts[lo], end: issue.end - starts[lo] });
  }
  return cues.map((c, i) => ({
    start_ms: c.start_ms,
    end_ms: c.end_ms,
    text: texts[i],
    issues: perCue[i].sort((a, b) => a.start - b.start || a.end - b.end),
  }));
}

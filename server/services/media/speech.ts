/**
 * Speech tasks (audio and video proofreading): an upload, charged by the minute at upload (right 1024 or 2048), is
 * converted to mp3 for playback, its transcript is taken from the first source that has one — the uploaded
 * subtitle file, the media's first text subtitle stream, subtitles burned into a video's picture (OCR of frames), or
 * speech recognition — and each segment's text is checked with the owner's dictionaries; the segments are stored
 * with their findings. Status and progress live in the row (the page polls get_speech_detail). A task that fails
 * gives its minutes back.
 *
 * Tasks run in the process that took the upload (`owner`), `concurrency` at a time, the rest waiting in order. A
 * process that stops ends its tasks as interrupted (refunded); one that crashed has them ended by another's sweep.
 */
import { checkLanguage } from '../../../engine/script';
import { recordCheck } from '../team-metrics';
import { countChars } from '../rights';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import {
  isServerMessageCode,
  renderMessage,
  type MessageParams,
  type ServerMessageCode,
} from '../../../openapi/messages';
import type { components } from '../../../openapi/schema';
import { readEnv } from '../../config';
import { nowIso } from '../../db';
import {
  clearSpeechCharge,
  clearSpeechSource,
  findSpeechSource,
  findSpeechTask,
  findSpeechTasksOfGone,
  replaceSpeechSegments,
  setSpeechMp3,
  updateRunningSpeechTask,
  type SpeechTaskRecord,
} from '../../db/repos/speech-tasks';
import { AppError } from '../../errors';
import { checkService, splitUnits } from '../checker/jobs';
import { refundStoredCharge } from '../rights';
import { AsrError, asrProvider, type AsrProvider } from './asr';
import { burnedSubtitles } from './burned';
import { convertToMp3, cutMp3, extractSubtitle, FfmpegError, withTempDir, type MediaProbe } from './ffmpeg';
import { parseSubtitle, SUBTITLE_FORMATS, type Cue } from './subtitles';

export type SpeechTask = components['schemas']['SpeechTask'];
type Issue = components['schemas']['Issue'];
type TranscriptSource = NonNullable<SpeechTask['transcript_source']>;

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

class TaskFailure extends Error {
  constructor(
    readonly code: ServerMessageCode,
    readonly params: MessageParams = {},
  ) {
    super(renderMessage(code, params));
  }
}

interface Active {
  id: number;
  uid: number;
  aborted: boolean;
  controller: AbortController;
  done: Promise<void>;
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

export class SpeechTasks {
  private active = new Map<number, Active>();
  private waiting: Array<{ id: number; uid: number }> = [];
  private closing = false;
  readonly concurrency: number;

  constructor(private readonly app: FastifyInstance) {
    this.concurrency = Math.max(1, readEnv().MEDIA_WORKERS);
  }

  /** A stored task waits its turn (upload). */
  enqueue(id: number, uid: number): void {
    if (this.closing) return;
    this.waiting.push({ id, uid });
    this.fill();
  }

  private fill(): void {
    while (!this.closing && this.active.size < this.concurrency && this.waiting.length) {
      const next = this.waiting.shift()!;
      const job: Active = {
        id: next.id,
        uid: next.uid,
        aborted: false,
        controller: new AbortController(),
        done: Promise.resolve(),
      };
      this.active.set(job.id, job);
      job.done = this.run(job)
        .catch((error) => this.app.log.error({ err: error, speech: job.id }, 'speech task crashed'))
        .finally(() => {
          this.active.delete(job.id);
          this.fill();
        });
    }
  }

  /** Stops a task and waits until it no longer writes (server stop). */
  async abort(id: number): Promise<void> {
    this.waiting = this.waiting.filter((w) => w.id !== id);
    const job = this.active.get(id);
    if (!job) return;
    job.aborted = true;
    // ffmpeg is killed and a speech recognition request dropped
    job.controller.abort();
    checkService(this.app).cancelGroup(group(id));
    await job.done;
  }

  /** Server stop: tasks running or waiting here end as interrupted, refunded. */
  async close(): Promise<void> {
    this.closing = true;
    const jobs = [...this.active.values(), ...this.waiting];
    this.waiting = [];
    await Promise.all([...this.active.keys()].map((id) => this.abort(id)));
    for (const job of jobs) await this.end(job.id, { code: 'speech.interrupted' }).catch(() => {});
  }

  /** Tasks whose process is gone end as interrupted, refunded (the instance sweep). */
  async sweep(alive: string[]): Promise<void> {
    for (const row of await findSpeechTasksOfGone(this.app.db, alive)) {
      if (this.active.has(Number(row.id))) continue;
      await this.end(Number(row.id), { code: 'speech.interrupted' }, row.owner);
    }
  }

  private async run(job: Active): Promise<void> {
    const { db } = this.app;
    const owner = this.app.instance.id;
    const row = await findSpeechTask(db, job.id);
    if (!row || row.status !== 'queued' || job.aborted) return;
    const write = (values: Parameters<typeof updateRunningSpeechTask>[3]) =>
      updateRunningSpeechTask(db, job.id, owner, { ...values, updated_at: nowIso() });
    try {
      if (!(await write({ status: 'running', progress: 0 }))) return;
      const files = await findSpeechSource(db, job.id);
      if (!files) throw new TaskFailure('document.file_lost');
      const probe = parse<MediaProbe>(row.probe);
      const uploaded = parse<Cue[]>(files.subtitle);
      let transcript: { source: TranscriptSource; cues: Cue[] } | null = uploaded
        ? { source: 'subtitle', cues: uploaded }
        : null;
      if (probe) {
        if (!files.source) throw new TaskFailure('document.file_lost');
        const media = files.source;
        transcript = await withTempDir((dir) => this.fromMedia(job, write, dir, media, probe, transcript));
        if (job.aborted) return;
      }
      if (!transcript || transcript.cues.length === 0) throw new TaskFailure('speech.no_speech');
      if (!(await write({ progress: STEP.transcribed, transcript_source: transcript.source }))) return;

      const segments = await this.checkCues(job, transcript.cues, write);
      if (job.aborted || !segments) return;
      await replaceSpeechSegments(
        db,
        job.id,
        segments.map((s, idx) => ({ task_id: job.id, idx, ...s, issues: JSON.stringify(s.issues) })),
      );
      const finished = await write({
        status: 'done',
        progress: 100,
        segment_count: segments.length,
        issue_count: segments.reduce((n, s) => n + s.issues.length, 0),
        charge: null,
        owner: null,
      });
      // the mp3 is what is kept: the upload is not needed any more
      if (finished) await clearSpeechSource(db, job.id);
      if (finished)
        await recordCheck(db, {
          uid: job.uid,
          kind: 'speech',
          chars: segments.reduce((n, s) => n + countChars(s.text), 0),
          issues: segments.flatMap((s) => s.issues),
        }).catch((err: unknown) => this.app.log.error({ err, speech: job.id }, 'speech check not recorded'));
    } catch (error) {
      if (job.aborted) return;
      let reason: { code: ServerMessageCode; params?: MessageParams } = { code: 'speech.failed' };
      if (error instanceof TaskFailure) reason = { code: error.code, params: error.params };
      else if (error instanceof AppError) reason = { code: error.msgCode, params: error.msgParams };
      else if (error instanceof FfmpegError) {
        this.app.log.warn({ err: error, speech: job.id, ffmpeg: error.log.slice(-2000) }, 'ffmpeg failed');
        if (error.reason === 'timeout')
          reason = { code: 'speech.timed_out', params: { seconds: Math.round(readEnv().MEDIA_TIMEOUT_MS / 1000) } };
        else if (error.reason === 'missing') reason = { code: 'speech.no_ffmpeg' };
        else reason = { code: 'speech.convert_failed' };
      } else if (error instanceof AsrError) {
        this.app.log.warn({ err: error, speech: job.id }, 'speech recognition failed');
        reason = { code: 'speech.asr_failed' };
      } else this.app.log.error({ err: error, speech: job.id }, 'speech task failed');
      await this.end(job.id, reason, owner);
    }
  }

  /**
   * The media's part: the mp3 for playback, then the transcript when none was uploaded — the first text subtitle
   * stream, else a video's burned-in subtitles, else speech recognition.
   */
  private async fromMedia(
    job: Active,
    write: (values: Parameters<typeof updateRunningSpeechTask>[3]) => Promise<boolean>,
    dir: string,
    media: Uint8Array,
    probe: MediaProbe,
    uploaded: { source: TranscriptSource; cues: Cue[] } | null,
  ): Promise<{ source: TranscriptSource; cues: Cue[] } | null> {
    const env = readEnv();
    const signal = job.controller.signal;
    const input = join(dir, 'input');
    await writeFile(input, media);
    const mp3Path = join(dir, 'audio.mp3');
    if (probe.audio) {
      await convertToMp3(input, mp3Path, probe.durationMs, env.MEDIA_TIMEOUT_MS, signal);
      if (job.aborted) return null;
      await setSpeechMp3(this.app.db, job.id, await readFile(mp3Path));
      if (!(await write({ progress: STEP.converted, has_mp3: 1 }))) return null;
    }
    if (uploaded) return uploaded;
    if (probe.textSubtitle !== null) {
      try {
        const srt = await extractSubtitle(input, probe.textSubtitle, env.MEDIA_TIMEOUT_MS, signal);
        const cues = parseSubtitle(srt, 'srt', probe.durationMs);
        if (cues.length) return { source: 'embedded_subtitle', cues };
      } catch (error) {
        // a subtitle stream ffmpeg cannot write as SubRip: speech recognition may still do
        if (job.aborted || (error instanceof FfmpegError && error.reason === 'timeout')) throw error;
        this.app.log.warn({ err: error, speech: job.id }, 'embedded subtitle not extracted');
      }
    }
    const asr = asrProvider();
    let progress: number = STEP.converted;
    if (probe.video) {
      const end = asr && probe.audio ? STEP.burned : STEP.transcribed;
      const cues = await this.burned(job, write, input, probe.durationMs, end);
      if (!cues) return null;
      const covered = cues.reduce((n, c) => n + c.end_ms - c.start_ms, 0);
      if (cues.length >= BURNED_MIN_CUES || covered >= probe.durationMs * BURNED_MIN_COVER)
        return { source: 'burned_subtitle', cues };
      progress = end;
    }
    if (!probe.audio) throw new TaskFailure('speech.no_speech');
    if (!asr) throw new TaskFailure('speech.no_asr', { formats: subtitleFormatList() });
    return { source: 'asr', cues: await this.recognise(job, write, asr, mp3Path, probe.durationMs, progress) };
  }

  /**
   * The subtitles burned into the video's picture, read by OCR of its frames in the heavy pool (progress from where
   * it is to `end` as the frames are read); empty when it shows none or they cannot be read, null when the task
   * stopped or is no longer this process's.
   */
  private async burned(
    job: Active,
    write: (values: Parameters<typeof updateRunningSpeechTask>[3]) => Promise<boolean>,
    input: string,
    durationMs: number,
    end: number,
  ): Promise<Cue[] | null> {
    let ours = true;
    let shown: number = STEP.converted;
    try {
      const cues = await burnedSubtitles.read(input, {
        seconds: durationMs / 1000,
        heavy: this.app.heavy,
        signal: job.controller.signal,
        onProgress: async (done) => {
          const progress = STEP.converted + Math.floor(done * (end - STEP.converted));
          // written when the percentage moves
          if (!ours || progress <= shown) return;
          shown = progress;
          ours = await write({ progress });
          if (!ours) job.controller.abort();
        },
      });
      return ours && !job.aborted ? cues : null;
    } catch (error) {
      if (job.aborted || !ours) return null;
      if (error instanceof FfmpegError && error.reason === 'timeout') throw error;
      // pictures OCR cannot read (or an ffmpeg that cannot sample them): speech recognition may still do
      this.app.log.warn({ err: error, speech: job.id }, 'burned-in subtitles not read');
      return [];
    }
  }

  /** The mp3 through speech recognition in pieces of ASR_PIECE_SECONDS, times shifted to the whole. */
  private async recognise(
    job: Active,
    write: (values: Parameters<typeof updateRunningSpeechTask>[3]) => Promise<boolean>,
    asr: AsrProvider,
    mp3Path: string,
    durationMs: number,
    from: number,
  ): Promise<Cue[]> {
    const env = readEnv();
    const signal = job.controller.signal;
    const pieces = Math.max(1, Math.ceil(durationMs / (ASR_PIECE_SECONDS * 1000)));
    const cues: Cue[] = [];
    for (let i = 0; i < pieces; i++) {
      const startMs = i * ASR_PIECE_SECONDS * 1000;
      const lengthMs = Math.min(ASR_PIECE_SECONDS * 1000, durationMs - startMs);
      const audio =
        pieces === 1
          ? await readFile(mp3Path)
          : await cutMp3(mp3Path, startMs / 1000, lengthMs / 1000, env.MEDIA_TIMEOUT_MS, signal);
      const piece = await asr.transcribe(audio, { filename: `part${i + 1}.mp3`, durationMs: lengthMs, signal });
      for (const c of piece) cues.push({ ...c, start_ms: c.start_ms + startMs, end_ms: c.end_ms + startMs });
      if (job.aborted) return [];
      const progress = from + Math.floor(((i + 1) / pieces) * (STEP.transcribed - from));
      if (!(await write({ progress }))) return [];
    }
    return cues;
  }

  /**
   * Each cue with its findings (offsets into the cue's text). The cues are checked as one text, a line each, so
   * short lines share checker units; a finding that would span two cues is left out.
   */
  private async checkCues(
    job: Active,
    cues: Cue[],
    write: (values: Parameters<typeof updateRunningSpeechTask>[3]) => Promise<boolean>,
  ): Promise<Array<Cue & { issues: Issue[] }> | null> {
    const texts = cues.map((c) => c.text.replace(/\s*\n\s*/g, ' '));
    const starts: number[] = [];
    let offset = 0;
    for (const t of texts) {
      starts.push(offset);
      offset += t.length + 1;
    }
    const text = texts.join('\n');
    const service = checkService(this.app);
    // subtitles in traditional characters are checked as such
    const prepared = await service.prepare(job.uid, 3, ALL_STANDARD, checkLanguage(text));
    const units = splitUnits(text);
    let done = 0;
    let shown: number = STEP.transcribed;
    const found = await Promise.all(
      units.map(async (unit) => {
        for (let attempt = 0; ; attempt++) {
          try {
            const issues = await service.checkUnit(prepared, unit, group(job.id));
            done++;
            const progress = STEP.transcribed + Math.floor((done / units.length) * (STEP.checked - STEP.transcribed));
            // written when the percentage moves, not once per unit
            if (progress > shown) {
              shown = progress;
              await write({ progress });
            }
            return issues.map((i) => ({ ...i, start: i.start + unit.offset, end: i.end + unit.offset }));
          } catch (error) {
            if (job.aborted) return [];
            if (attempt >= UNIT_RETRIES) throw error;
          }
        }
      }),
    ).catch((error) => {
      service.cancelGroup(group(job.id));
      throw error;
    });
    if (job.aborted) return null;
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

  /** Ends a task as failed, gives its minutes back (once) and drops its upload; false if it had ended. */
  private async end(
    id: number,
    reason: { code: ServerMessageCode; params?: MessageParams },
    owner: string | null = this.app.instance.id,
  ): Promise<boolean> {
    const { db } = this.app;
    const row = await findSpeechTask(db, id);
    if (!row || (row.status !== 'queued' && row.status !== 'running')) return false;
    const params = reason.params ?? {};
    const ended = await updateRunningSpeechTask(db, id, owner, {
      status: 'failed',
      owner: null,
      error: renderMessage(reason.code, params),
      error_code: reason.code,
      error_params: Object.keys(params).length > 0 ? JSON.stringify(params) : null,
      updated_at: nowIso(),
    });
    if (!ended) return false;
    await refundStoredCharge(
      db,
      row.charge,
      (charge) => clearSpeechCharge(db, id, charge),
      row.kind === 'video' ? '视频校对失败退回' : '音频校对失败退回',
    );
    await clearSpeechSource(db, id);
    return true;
  }
}

const group = (id: number) => `speech:${id}`;

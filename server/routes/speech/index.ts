import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { components } from '../../../openapi/schema';
import { nowIso } from '../../db';
import { badRequest, conflict, envelope, notFound, paymentRequired, tooLarge } from '../../errors';
import { ownedSpeechTask, queueSpeechTask, speechMp3, speechSegments } from '../../domain/checks/media-tasks';
import { decodeText, extensionOf } from '../../formats/documents/load';
import { sanitizeFilename } from '../../formats/filenames';
import { asrProvider } from '../../formats/media/asr';
import { FfmpegError, ffmpegPath, probeMedia, withTempDir, type MediaProbe } from '../../formats/media/ffmpeg';
import { speechSummary, subtitleFormatList } from '../../formats/media/speech';
import {
  applySuggestions,
  parseSubtitle,
  subtitleFormatOf,
  SUBTITLE_FORMATS,
  writeSubtitles,
  type Cue,
} from '../../formats/media/subtitles';
import { consumeRight, InsufficientRight } from '../../domain/rights/ledger';
import { attachment, caller, type Operations } from '../types';
import type { UploadedFile } from '../../formats/documents/upload';
import { filePart } from '../document/index';

/**
 * Audio and video proofreading (spec §7 convert_file_to_mp3 and get_speech_detail, plus the added mp3, subtitle
 * export and sources calls). The work is the speech tasks' (formats/media/speech.ts).
 */

type Issue = components['schemas']['Issue'];

const RIGHT = { audio: 1024, video: 2048 } as const;
/** Opening a container to list its streams takes milliseconds; longer means something is wrong with the file. */
const PROBE_TIMEOUT_MS = 30_000;
/** A subtitle file this large is not one (a two-hour film's SubRip is ~100 KB). */
const SUBTITLE_MAX_BYTES = 10 * 1024 * 1024;

const owned = async (request: Parameters<typeof caller>[0], id: number) => {
  const { uid } = await caller(request);
  return ownedSpeechTask(request.server.db, id, uid);
};

const isSubtitleName = (name: string) => (SUBTITLE_FORMATS as readonly string[]).includes(extensionOf(name));

/** The cues of an uploaded subtitle or transcript file; 400 when it is not one or holds no text. */
function readSubtitle(file: UploadedFile, durationMs?: number): Cue[] {
  const unreadable = () => badRequest('speech.subtitle_unreadable', { formats: subtitleFormatList() });
  if (file.data.length === 0) throw badRequest('upload.empty_file');
  if (file.data.length > SUBTITLE_MAX_BYTES) throw tooLarge('upload.file_too_large');
  let text: string;
  try {
    text = decodeText(file.data);
  } catch {
    throw unreadable();
  }
  const format = subtitleFormatOf(file.filename, text);
  if (!format) throw unreadable();
  const cues = parseSubtitle(text, format, durationMs);
  if (cues.length === 0) throw unreadable();
  return cues;
}

/** What ffmpeg finds in an upload; 400 when it is not audio or video. */
async function probeUpload(file: UploadedFile): Promise<MediaProbe> {
  if (!ffmpegPath()) throw badRequest('speech.no_ffmpeg');
  let probe: MediaProbe | null;
  try {
    probe = await withTempDir(async (dir) => {
      // no extension: ffmpeg goes by the content, not by what the name claims
      const path = join(dir, 'input');
      await writeFile(path, file.data);
      return probeMedia(path, PROBE_TIMEOUT_MS);
    });
  } catch (error) {
    if (error instanceof FfmpegError && error.reason !== 'missing') throw badRequest('speech.not_media');
    throw error;
  }
  if (!probe || probe.durationMs <= 0) throw badRequest('speech.not_media');
  return probe;
}

export const speechOperations: Operations = {
  postMisscutV1AudioConvertFileToMp3: async (request) => {
    const { uid } = await caller(request);
    const { db } = request.server;
    const file = filePart(request.body.file);
    if (file.data.length === 0) throw badRequest('upload.empty_file');
    if (file.data[0] === 0x4d && file.data[1] === 0x5a) throw badRequest('document.executable');
    // everything is read and refused before anything is charged
    let probe: MediaProbe | null = null;
    let cues: Cue[] | null;
    let durationMs: number;
    if (isSubtitleName(file.filename)) {
      // a transcript alone: its length is that of its last line
      cues = readSubtitle(file);
      durationMs = Math.max(...cues.map((c) => c.end_ms));
    } else {
      probe = await probeUpload(file);
      durationMs = probe.durationMs;
      const subtitle = request.body.subtitle;
      cues = subtitle === undefined ? null : readSubtitle(filePart(subtitle, 'subtitle'), durationMs);
      // a silent video may still have subtitles drawn into its picture
      if (!probe.audio && !probe.video && probe.textSubtitle === null && !cues) throw badRequest('speech.no_sound');
    }
    const max = request.server.config.media.maxMinutes;
    const minutes = Math.max(1, Math.ceil(durationMs / 60_000));
    if (durationMs > max * 60_000) throw badRequest('speech.too_long', { minutes, max });
    const kind = probe?.video ? 'video' : 'audio';
    let charge;
    try {
      charge = await consumeRight(db, uid, RIGHT[kind], minutes, kind === 'video' ? '视频校对' : '音频校对');
    } catch (error) {
      if (error instanceof InsufficientRight)
        throw paymentRequired(kind === 'video' ? 'speech.video_exhausted' : 'speech.audio_exhausted', {
          needed: minutes,
          available: error.available,
        });
      throw error;
    }
    const now = nowIso();
    const task = await queueSpeechTask(
      db,
      {
        uid,
        name: sanitizeFilename(file.filename, kind === 'video' ? '视频' : '音频'),
        kind,
        size: file.data.length,
        status: 'queued',
        progress: 0,
        duration_ms: durationMs,
        minutes,
        probe: probe && JSON.stringify(probe),
        transcript_source: null,
        has_mp3: 0,
        segment_count: 0,
        issue_count: 0,
        created_at: now,
        updated_at: now,
      },
      { source: probe ? file.data : null, subtitle: cues && JSON.stringify(cues) },
      charge,
    );
    request.server.jobs.enqueue();
    return envelope(speechSummary(task));
  },

  postMisscutV1GetSpeechDetail: async (request) => {
    const row = await owned(request, request.body.task_id);
    const summary = speechSummary(row);
    if (row.status !== 'done') return envelope(summary);
    const segments = await speechSegments(request.server.db, row);
    return envelope({
      ...summary,
      segments: segments.map((s) => ({
        start_ms: Number(s.start_ms),
        end_ms: Number(s.end_ms),
        text: s.text,
        issues: JSON.parse(s.issues) as Issue[],
      })),
    });
  },

  getMisscutV1AudioMp3: async (request, reply) => {
    const row = await owned(request, request.query.task_id);
    const mp3 = await speechMp3(request.server.db, row);
    if (!mp3) throw notFound('speech.no_mp3');
    return reply
      .type('audio/mpeg')
      .header('cache-control', 'private, max-age=86400')
      .send(Buffer.from(mp3.buffer, mp3.byteOffset, mp3.byteLength));
  },

  getMisscutV1AudioSubtitles: async (request, reply) => {
    const row = await owned(request, request.query.task_id);
    if (row.status !== 'done') throw conflict('speech.not_done');
    const format = request.query.format ?? 'srt';
    const segments = await speechSegments(request.server.db, row);
    const cues = segments.map((s) => ({
      start_ms: Number(s.start_ms),
      end_ms: Number(s.end_ms),
      text: applySuggestions(s.text, JSON.parse(s.issues) as Issue[]),
    }));
    const base = row.name.replace(/\.[^.]*$/, '') || row.name;
    return reply
      .type(format === 'srt' ? 'application/x-subrip; charset=utf-8' : 'text/vtt; charset=utf-8')
      .header('content-disposition', attachment(`${base}.${format}`))
      .send(writeSubtitles(cues, format));
  },

  getMisscutV1AudioSources: async (request) => {
    await caller(request);
    return envelope({
      media: ffmpegPath() !== null,
      asr: asrProvider(request.server.config.media.asr) !== null,
      // frames are sampled by ffmpeg and read by the OCR every server has
      burned_subtitles: ffmpegPath() !== null,
      subtitle_formats: [...SUBTITLE_FORMATS],
      max_minutes: request.server.config.media.maxMinutes,
    });
  },
};

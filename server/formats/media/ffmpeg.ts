/**
 * ffmpeg as a child process (never on the event loop, never in the heavy pool: it is its own process already), with
 * a time limit, an output limit and an abort signal. The binary ships in `@ffmpeg-installer/ffmpeg` (FFMPEG_PATH
 * overrides it); nothing is downloaded at run time.
 *
 * Uploads are opened only as local files with the demuxers of real audio and video containers: ffmpeg would
 * otherwise follow a playlist (HLS, concat) uploaded in disguise to other files or URLs.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toolSettings } from '../tools';

/** Demuxers an upload may be read with (ffmpeg's names; `mov` covers mp4/m4a/3gp, `matroska` covers webm). */
const INPUT_FORMATS = [
  'mov',
  'matroska',
  'mp3',
  'wav',
  'w64',
  'flac',
  'ogg',
  'aac',
  'avi',
  'flv',
  'asf',
  'mpegts',
  'mpeg',
  'amr',
  'aiff',
  'caf',
  'ac3',
  'eac3',
  'wv',
  'ape',
].join(',');

/** Subtitle codecs that are text (bitmap subtitles such as PGS or DVD need OCR, which is not done here). */
const TEXT_SUBTITLES = new Set([
  'subrip',
  'srt',
  'ass',
  'ssa',
  'mov_text',
  'webvtt',
  'text',
  'microdvd',
  'sami',
  'realtext',
  'subviewer',
  'subviewer1',
  'mpl2',
  'vplayer',
  'pjs',
  'jacosub',
  'stl',
]);

/** Last bytes of ffmpeg's log kept for parsing and for the server log. */
const STDERR_KEEP = 64 * 1024;

let resolved: string | null | undefined;

/** The ffmpeg binary (FFMPEG_PATH, else the npm package's), or null when there is none that can run. */
export function ffmpegPath(): string | null {
  const configured = toolSettings().ffmpegPath;
  if (configured) return executable(configured) ? configured : null;
  if (resolved !== undefined) return resolved;
  resolved = null;
  try {
    // CommonJS, and it throws (a string) on a platform it has no binary for
    const installer: unknown = createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg');
    if (typeof installer === 'object' && installer !== null && 'path' in installer) {
      const path = installer.path;
      if (typeof path === 'string' && executable(path)) resolved = path;
    }
  } catch {
    // no binary for this platform
  }
  return resolved;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export type FfmpegFailure = 'missing' | 'timeout' | 'too_large' | 'failed' | 'aborted';

export class FfmpegError extends Error {
  constructor(
    readonly reason: FfmpegFailure,
    message: string,
    readonly log = '',
  ) {
    super(message);
    this.name = 'FfmpegError';
  }
}

export interface RunOptions {
  timeoutMs: number;
  /** most bytes accepted on stdout (a pipe output); more stops ffmpeg */
  maxOutput?: number;
  signal?: AbortSignal;
  /** an exit code other than 0 is what is expected (probing with `-i` alone exits 1) */
  anyExit?: boolean;
}

/** Runs ffmpeg with `args`; its stdout and the tail of its log. */
export function runFfmpeg(args: string[], options: RunOptions): Promise<{ stdout: Buffer; log: string }> {
  const binary = ffmpegPath();
  if (!binary) return Promise.reject(new FfmpegError('missing', 'ffmpeg is not available'));
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['-hide_banner', '-nostdin', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let size = 0;
    let log = '';
    let failure: FfmpegError | null = null;
    const stop = (error: FfmpegError) => {
      failure ??= error;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(
      () => stop(new FfmpegError('timeout', `ffmpeg ran longer than ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    const onAbort = () => stop(new FfmpegError('aborted', 'ffmpeg stopped'));
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener('abort', onAbort);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (options.maxOutput !== undefined && size > options.maxOutput) {
        stop(new FfmpegError('too_large', `ffmpeg wrote more than ${options.maxOutput} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString('utf8')).slice(-STDERR_KEEP);
    });
    const finish = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (error) => {
      finish();
      reject(new FfmpegError('failed', `ffmpeg did not start: ${error.message}`));
    });
    child.on('close', (code) => {
      finish();
      if (failure) reject(new FfmpegError(failure.reason, failure.message, log));
      else if (code !== 0 && !options.anyExit) reject(new FfmpegError('failed', `ffmpeg exited with ${code}`, log));
      else resolve({ stdout: Buffer.concat(chunks), log });
    });
  });
}

/** What an upload holds, as ffmpeg reads it. */
export interface MediaProbe {
  /** the demuxer, e.g. `mov,mp4,m4a,3gp,3g2,mj2` */
  format: string;
  durationMs: number;
  /** a moving picture (a cover image of an audio file does not count) */
  video: boolean;
  audio: boolean;
  /** ordinal among the subtitle streams (`-map 0:s:N`) of the first text subtitle stream, or null */
  textSubtitle: number | null;
}

/** The options that open an upload: a local file, through a real media demuxer only. */
export const mediaInput = (path: string) => [
  ...['-protocol_whitelist', 'file', '-format_whitelist', INPUT_FORMATS],
  ...['-i', path],
];

/** Reads the container of a file; null when ffmpeg cannot open it as audio or video (or finds no duration). */
export async function probeMedia(path: string, timeoutMs: number, signal?: AbortSignal): Promise<MediaProbe | null> {
  // ffmpeg with an input and no output prints the streams and exits 1
  const { log } = await runFfmpeg(mediaInput(path), { timeoutMs, signal, anyExit: true });
  return parseProbe(log);
}

/** The probe of ffmpeg's log of opening an input (exported for tests). */
export function parseProbe(log: string): MediaProbe | null {
  const format = /^Input #0, (.+), from /m.exec(log)?.[1];
  if (!format) return null;
  const duration = /^\s*Duration: (\d+):(\d{2}):(\d{2}(?:\.\d+)?)/m.exec(log);
  if (!duration) return null;
  const durationMs = Math.round((Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3])) * 1000);
  let video = false;
  let audio = false;
  let subtitles = 0;
  let textSubtitle: number | null = null;
  const stream = /^\s*Stream #0:\d+(?:\[[^\]]*\])?(?:\([^)]*\))?: (Video|Audio|Subtitle): ([\w-]+)(.*)$/gm;
  for (let m = stream.exec(log); m; m = stream.exec(log)) {
    const [, type, codec, rest] = m;
    if (type === 'Video' && !rest.includes('(attached pic)')) video = true;
    if (type === 'Audio') audio = true;
    if (type === 'Subtitle') {
      if (textSubtitle === null && TEXT_SUBTITLES.has(codec)) textSubtitle = subtitles;
      subtitles++;
    }
  }
  if (!video && !audio) return null;
  return { format, durationMs, video, audio, textSubtitle };
}

/** Bytes a second of the mp3 written (48 kbit/s). */
const MP3_BYTES_PER_SECOND = 6000;

/**
 * The first audio stream as mp3 for speech: mono, 22.05 kHz, 48 kbit/s, LAME's fastest setting (about 200 times
 * faster than real time, a third of the time of 44.1 kHz at LAME's default), written to `output`.
 */
export async function convertToMp3(
  path: string,
  output: string,
  durationMs: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<void> {
  // with room for the frames' headers: a stream lying about its length stops there
  const maxBytes = Math.ceil((durationMs / 1000) * MP3_BYTES_PER_SECOND * 1.2) + 1024 * 1024;
  await runFfmpeg(
    [
      ...mediaInput(path),
      ...['-map', '0:a:0', '-vn', '-sn', '-dn', '-map_metadata', '-1', '-ac', '1', '-ar', '22050'],
      ...['-c:a', 'libmp3lame', '-b:a', '48k', '-compression_level', '9'],
      ...['-fs', String(maxBytes), '-f', 'mp3', '-y', output],
    ],
    { timeoutMs, signal },
  );
}

/** The subtitle stream `ordinal` (among subtitle streams) as SubRip text. */
export async function extractSubtitle(
  path: string,
  ordinal: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<string> {
  const { stdout } = await runFfmpeg([...mediaInput(path), '-map', `0:s:${ordinal}`, '-f', 'srt', 'pipe:1'], {
    timeoutMs,
    signal,
    maxOutput: 20 * 1024 * 1024,
  });
  return stdout.toString('utf8');
}

/** `lengthSeconds` of an mp3 from `startSeconds`, without re-encoding (pieces for speech recognition). */
export async function cutMp3(
  path: string,
  startSeconds: number,
  lengthSeconds: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<Buffer> {
  const { stdout } = await runFfmpeg(
    [
      ...['-ss', String(startSeconds), '-t', String(lengthSeconds)],
      ...mediaInput(path),
      ...['-map', '0:a:0', '-c', 'copy', '-f', 'mp3', 'pipe:1'],
    ],
    { timeoutMs, signal, maxOutput: Math.ceil(lengthSeconds * MP3_BYTES_PER_SECOND * 1.2) + 1024 * 1024 },
  );
  return stdout;
}

/** Runs `fn` with a private temporary folder, removed afterwards whatever happens. */
export async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'wb-media-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

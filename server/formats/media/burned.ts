/**
 * Subtitles drawn into a video's picture (burned in), read as a transcript: ffmpeg samples the bottom band of the
 * picture (where subtitles sit) a few times a second as greyscale PNGs, the heavy pool's workers read them by OCR
 * (never the event loop), and frames showing the same line are merged into one timed cue.
 *
 * The video is read in windows of WINDOW_FRAMES frames, one ffmpeg run each (its own time limit, the task's abort
 * signal): a long video never needs one ffmpeg run longer than the media time limit, nor all its frames in memory.
 */
import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toolSettings } from '../tools';
import type { HeavyPool } from '../../workers/heavy/pool';
import type { OcrText } from '../ocr/tesseract';
import { unsureRanges } from '../pdf/checks';
import { ffmpegPath, FfmpegError, mediaInput, runFfmpeg } from './ffmpeg';
import { splitPngs } from './frames';
import type { Cue } from './subtitles';

/** Frames sampled a second while the video is short enough (MEDIA_OCR_MAX_FRAMES lowers it for longer ones). */
export const FRAMES_PER_SECOND = 2;
/**
 * The picture is scaled so that its shorter side is this long before its band is cut out. Subtitles are drawn at
 * about 5 % of the shorter side (the height of a landscape picture, the width of a portrait one), so glyphs come out
 * at ~30 px, the size tesseract's Chinese model reads best: measured on 16:9 pictures (a band of 150 px), a band of
 * 180 px read no better and took 20 % longer, one of 120 px broke lines apart.
 */
const SHORT_SIDE = 600;
/**
 * Subtitles are drawn light (white, yellow) with a dark outline: pixels brighter than this become black text on
 * white, everything else white. Tesseract reads light text on a moving picture poorly (most lines garbled, measured);
 * thresholded, 99 % of the characters are read.
 */
const BRIGHT = 190;
/** The lower part of the picture that is read: subtitles sit in the bottom quarter. */
const BAND_PART = 0.25;
/** Frames of one ffmpeg run (30 s at 2 frames a second: a few MB of PNGs). */
const WINDOW_FRAMES = 60;
/** Frames of one heavy task: 0.1-0.3 s of OCR each, far inside the heavy pool's time limit, progress in between. */
const FRAMES_PER_TASK = 6;
/** Consecutive frames whose texts differ by at most this part of the longer one show the same line. */
const SAME_LINE = 0.2;
/**
 * A line of the same text on screen this long, in more than half of the frames, is a logo, a watermark or a
 * caption, not speech: subtitles change every few seconds.
 */
const STATIC_MS = 30_000;

const HAN = /\p{Script=Han}/gu;
const hanCount = (s: string) => s.match(HAN)?.length ?? 0;
/** Characters a subtitle is made of: letters (Han among them), digits and the punctuation of either script. */
const TEXTUAL = /[\p{L}\p{N}\u3000-\u303f\uff00-\uffef，。、；：？！“”‘’《》（）…—·,.;:?!'"()-]/u;
/** Junk tesseract reads at a line's ends from edges and shadows (bars, dashes, dots), and spaces. */
const LEADING_JUNK = /^[^\p{L}\p{N}“‘《（(【「]+/u;
const TRAILING_JUNK = /[^\p{L}\p{N}。！？…”’》）)】」，、；：!?.,]+$/u;
const CJK_CHAR = /[\p{Script=Han}\u3000-\u303f\uff00-\uffef“”‘’…—·]/u;

/** One line of a frame as read, and as read without the characters the OCR was unsure of. */
export interface FrameLine {
  text: string;
  sure: string;
}

/** What one frame shows: its subtitle lines, and how sure the OCR was of them (mean confidence, 0-100). */
export interface FrameText {
  lines: FrameLine[];
  confidence: number;
}

const isJunk = (c: string, end: 'start' | 'end') =>
  !c.trim() || (end === 'start' ? LEADING_JUNK : TRAILING_JUNK).test(c);

/**
 * The subtitle lines of one frame's OCR: junk trimmed from the lines' ends, spaces beside Chinese removed, and lines
 * that are mostly noise left out (fewer than two Han characters read with confidence, or less than 60 % letters,
 * digits and punctuation). Each line keeps its characters read with low confidence (识别存疑, `unsureRanges`) apart:
 * whether they are dropped is decided over the frames of a cue (mergeFrames).
 */
export function frameText(ocr: Pick<OcrText, 'text' | 'confidences'>): FrameText {
  const unsure = new Set<number>();
  for (const [start, end] of unsureRanges(ocr.text, ocr.confidences)) for (let i = start; i < end; i++) unsure.add(i);
  const lines: FrameLine[] = [];
  let total = 0;
  let count = 0;
  let offset = 0;
  for (const raw of ocr.text.split('\n')) {
    let chars = [...raw].map((c, i) => ({ c, at: offset + i }));
    offset += raw.length + 1;
    while (chars.length && isJunk(chars[0].c, 'start')) chars.shift();
    while (chars.length && isJunk(chars[chars.length - 1].c, 'end')) chars.pop();
    // a space beside Chinese is OCR's, not the subtitle's
    chars = chars.filter(
      ({ c }, i) => c.trim() || !(CJK_CHAR.test(chars[i - 1]?.c ?? '') || CJK_CHAR.test(chars[i + 1]?.c ?? '')),
    );
    const text = chars.map((x) => x.c).join('');
    const sure = chars
      .filter((x) => !unsure.has(x.at))
      .map((x) => x.c)
      .join('');
    const visible = chars.filter((x) => x.c.trim());
    if (hanCount(sure) < 2 || visible.filter((x) => TEXTUAL.test(x.c)).length < visible.length * 0.6) continue;
    lines.push({ text, sure });
    for (const x of visible) {
      total += ocr.confidences[x.at] ?? 0;
      count++;
    }
  }
  return { lines, confidence: count ? total / count : 0 };
}

/** Levenshtein distance over code points. */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++)
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[y.length];
}

const similar = (a: string, b: string) => editDistance(a, b) <= SAME_LINE * Math.max([...a].length, [...b].length);

/** Lines joined as the subtitle shows them: nothing between Chinese, a space between words of other scripts. */
function joinLines(lines: string[]): string {
  let out = '';
  for (const line of lines) {
    if (out && !(CJK_CHAR.test(out.at(-1) ?? '') || CJK_CHAR.test(line[0]))) out += ' ';
    out += line;
  }
  return out;
}

/**
 * Frames (sampled every `frameMs` from the start) as cues: consecutive frames with the same or nearly the same text
 * are one cue, from half a frame before its first frame to half a frame after its last (the line appeared and
 * went somewhere in between). Lines that stay on screen for long (logos, watermarks) are left out first.
 *
 * A cue's text is the reading most of its frames agree on (the surest on a tie). Characters the OCR was unsure of
 * are kept when at least two frames read the line the same way: independent frames agreeing confirm them, and
 * measured on drawn subtitles they are nearly always right then (dropping them cost 2 % of the characters). A
 * reading no other frame confirms loses its unsure characters, and a cue seen in one frame only with fewer than two
 * Han characters is noise.
 */
export function mergeFrames(frames: FrameText[], frameMs: number, durationMs = Infinity): Cue[] {
  const seen = new Map<string, number>();
  for (const frame of frames)
    for (const line of new Set(frame.lines.map((l) => l.text))) seen.set(line, (seen.get(line) ?? 0) + 1);
  const fixed = new Set(
    [...seen].filter(([, n]) => n * frameMs >= STATIC_MS && n * 2 > frames.length).map(([line]) => line),
  );
  const shown = frames.map((f) => f.lines.filter((l) => !fixed.has(l.text)));
  const texts = shown.map((lines) => joinLines(lines.map((l) => l.text)));

  const cues: Cue[] = [];
  let first = -1;
  const close = (last: number) => {
    if (first < 0) return;
    const readings = new Map<string, { count: number; confidence: number; frame: number }>();
    for (let i = first; i <= last; i++) {
      const r = readings.get(texts[i]) ?? { count: 0, confidence: 0, frame: i };
      r.count++;
      r.confidence += frames[i].confidence;
      if (frames[i].confidence > frames[r.frame].confidence) r.frame = i;
      readings.set(texts[i], r);
    }
    const [best, { count, frame }] = [...readings].sort(
      (a, b) => b[1].count - a[1].count || b[1].confidence - a[1].confidence,
    )[0];
    const text = count >= 2 ? best : joinLines(shown[frame].map((l) => l.sure).filter(Boolean));
    if (text && (last > first || hanCount(text) >= 2))
      cues.push({
        start_ms: Math.max(0, Math.round((first - 0.5) * frameMs)),
        end_ms: Math.round(Math.min(durationMs, (last + 0.5) * frameMs)),
        text,
      });
    first = -1;
  };
  texts.forEach((text, i) => {
    if (first >= 0 && !(text && similar(text, texts[i - 1]))) close(i - 1);
    if (text && first < 0) first = i;
  });
  close(texts.length - 1);
  return cues;
}

/** A heavy pool's `run`, as far as OCR of frames needs it (the server's pool, or one started for a bench). */
type Ocr = Pick<HeavyPool, 'run' | 'limits'>;

export interface ReadOptions {
  /** the video's duration: the frame rate and the windows are set from it */
  seconds: number;
  /** the pool OCR runs in (the app's) */
  heavy: Ocr;
  /** stops ffmpeg and the OCR (the task was stopped) */
  signal?: AbortSignal;
  /** told the part of the video read so far (0-1) after each group of frames (awaited) */
  onProgress?: (done: number) => unknown;
}

/** Frames sampled per second for a video of `seconds`: 2, or fewer so that it stays within MEDIA_OCR_MAX_FRAMES. */
export function frameRate(seconds: number, maxFrames: number): number {
  return seconds * FRAMES_PER_SECOND > maxFrames ? maxFrames / seconds : FRAMES_PER_SECOND;
}

/** ffmpeg's filters sampling the picture's bottom band at `rate` frames a second, scaled and thresholded. */
export const bandFilter = (rate: number) =>
  `fps=${rate},` +
  `scale=trunc(iw*${SHORT_SIDE}/min(iw\\,ih)/2)*2:trunc(ih*${SHORT_SIDE}/min(iw\\,ih)/2)*2:flags=bicubic,` +
  `crop=iw:trunc(ih*${BAND_PART}/2)*2:0:ih-trunc(ih*${BAND_PART}/2)*2,format=gray,` +
  `lut=c0='if(gt(val\\,${BRIGHT})\\,0\\,255)'`;

/** `count` frames of the picture's bottom band from `from` seconds, `rate` a second, as PNGs. */
export async function sampleBand(
  file: string,
  from: number,
  count: number,
  rate: number,
  signal?: AbortSignal,
): Promise<Buffer[]> {
  const { stdout } = await runFfmpeg(
    [
      ...['-ss', from.toFixed(3), '-t', (count / rate).toFixed(3)],
      ...mediaInput(file),
      ...['-map', '0:v:0', '-an', '-sn', '-dn', '-vf', bandFilter(rate), '-frames:v', String(count)],
      ...['-f', 'image2pipe', '-vcodec', 'png', 'pipe:1'],
    ],
    // a thresholded band is a few KB as PNG; 2 MB a frame means something else is being written
    { timeoutMs: toolSettings().mediaTimeoutMs, signal, maxOutput: count * 2 * 1024 * 1024 },
  );
  return splitPngs(stdout);
}

/** OCR of frames in the heavy pool, a few per task, as many tasks at a time as the pool has workers. */
async function readFrames(
  pngs: Buffer[],
  before: { png: Buffer; ocr: OcrText } | null,
  heavy: Ocr,
  signal: AbortSignal,
  onBatch: (done: number) => unknown,
): Promise<OcrText[]> {
  const results: Array<OcrText | null> = new Array<OcrText | null>(pngs.length).fill(null);
  const batches: number[][] = [];
  for (let i = 0; i < pngs.length; i += FRAMES_PER_TASK)
    batches.push(Array.from({ length: Math.min(FRAMES_PER_TASK, pngs.length - i) }, (_, k) => i + k));
  let next = 0;
  let finished = 0;
  const holders = new Set<{ onAbort?: () => void }>();
  const stop = () => holders.forEach((h) => h.onAbort?.());
  signal.addEventListener('abort', stop);
  try {
    const lane = async () => {
      while (next < batches.length && !signal.aborted) {
        const batch = batches[next++];
        const holder: { onAbort?: () => void } = {};
        holders.add(holder);
        try {
          // the frame before the batch is sent along to be compared with, not read
          const previous = batch[0] > 0 ? pngs[batch[0] - 1] : before?.png;
          const read = await heavy.run(
            'ocrFrames',
            { pngs: batch.map((i) => pngs[i]), ...(previous && { previous }) },
            { background: true, signal: holder },
          );
          batch.forEach((i, k) => (results[i] = read[k]));
          await onBatch(++finished / batches.length);
        } finally {
          holders.delete(holder);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(heavy.limits.workers, batches.length)) }, lane));
  } finally {
    signal.removeEventListener('abort', stop);
  }
  if (signal.aborted) throw new FfmpegError('aborted', 'burned-in subtitles: stopped');
  // a frame not read shows what the one before it showed
  const empty: OcrText = { text: '', boxes: [], confidences: [] };
  let last = before?.ocr ?? empty;
  return results.map((r) => (last = r ?? last));
}

/**
 * The burned-in subtitles of a video file as cues. Empty when the picture shows no lines of text at the bottom; an
 * FfmpegError when ffmpeg is missing, fails, runs too long or is stopped.
 */
async function read(file: string, options: ReadOptions): Promise<Cue[]> {
  const heavy = options.heavy;
  // stops the window sampled ahead when reading ends early (a failure), as well as everything when the caller stops
  const stopper = new AbortController();
  const stop = () => stopper.abort();
  if (options.signal?.aborted) stop();
  options.signal?.addEventListener('abort', stop);
  const signal = stopper.signal;
  try {
    const seconds = Math.max(0, options.seconds);
    const rate = frameRate(seconds || 1, toolSettings().ocrMaxFrames);
    const frameMs = 1000 / rate;
    const windows = Math.max(1, Math.ceil((seconds * rate) / WINDOW_FRAMES));
    const frames: FrameText[] = [];
    // the next window is sampled by ffmpeg while the current one is read by OCR
    const sample = (w: number) => {
      const pending = sampleBand(file, (w * WINDOW_FRAMES) / rate, WINDOW_FRAMES, rate, signal);
      pending.catch(() => {});
      return pending;
    };
    let pending = sample(0);
    let before: { png: Buffer; ocr: OcrText } | null = null;
    for (let w = 0; w < windows; w++) {
      const pngs = await pending;
      if (w + 1 < windows) pending = sample(w + 1);
      const ocr = await readFrames(pngs, before, heavy, signal, (part) => options.onProgress?.((w + part) / windows));
      if (pngs.length) before = { png: pngs[pngs.length - 1], ocr: ocr[ocr.length - 1] };
      frames.push(...ocr.map(frameText));
      // a window short of frames is the end of the picture (the duration was longer than the video stream)
      for (let i = pngs.length; i < WINDOW_FRAMES && w + 1 < windows; i++) frames.push({ lines: [], confidence: 0 });
      if (signal.aborted) throw new FfmpegError('aborted', 'burned-in subtitles: stopped');
    }
    return mergeFrames(frames, frameMs, seconds > 0 ? seconds * 1000 : Infinity);
  } finally {
    options.signal?.removeEventListener('abort', stop);
    stop();
  }
}

/** Twenty lines for the bench video, one shown every three seconds. */
const BENCH_LINES = [
  '各地区各部门要把思想和行动统一到会议精神上来。',
  '今年上半年全市经济运行总体平稳。',
  '我们将继续推进老旧小区改造工作。',
  '请大家注意防范电信网络诈骗。',
  '这项政策的出台受到了群众的普遍欢迎。',
  '学校将于九月一日正式开学。',
  '记者从市交通局了解到相关情况。',
  '专家建议市民合理安排出行时间。',
  '本次活动共吸引了三千多名志愿者参加。',
  '农业生产形势总体向好。',
  '企业要切实履行安全生产主体责任。',
  '新建的图书馆将于下个月对外开放。',
  '气象部门提醒公众做好防暑降温工作。',
  '这座桥梁的建成大大缩短了两岸的通行时间。',
  '他在工作中始终坚持实事求是的原则。',
  '社区卫生服务中心延长了服务时间。',
  '我们要进一步优化营商环境。',
  '比赛将在周末举行欢迎大家前来观看。',
  '文化遗产保护需要全社会共同参与。',
  '感谢各位观众的收看我们下期再见。',
];

/** One burned-in line of a drawn video. */
export interface DrawnLine {
  text: string;
  start_ms: number;
  end_ms: number;
}

/**
 * Draws a video (mp4, h264 when ffmpeg has it, else MPEG-4 part 2) of `seconds` at `fps` frames a second: a moving
 * picture with `lines` burned in at the bottom, white with a dark outline like broadcast subtitles, in the CJK font
 * `fontFile`; with a quiet tone as its sound when `audio` is set. For tests and benchmarks: pictures made here.
 */
export async function drawSubtitledVideo(
  file: string,
  lines: DrawnLine[],
  options: { seconds: number; fontFile: string; fps?: number; width?: number; height?: number; audio?: boolean },
): Promise<void> {
  const { createCanvas, GlobalFonts } = await import('@napi-rs/canvas');
  const binary = ffmpegPath();
  if (!binary) throw new FfmpegError('missing', 'ffmpeg is not available');
  const { seconds, fps = 4, width = 1280, height = 720 } = options;
  GlobalFonts.registerFromPath(options.fontFile, 'BurnedSubtitleFont');
  const h264 = /\blibx264\b/.test(await encoders());
  const child = spawn(
    binary,
    [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', `${width}x${height}`, '-r', String(fps), '-i', 'pipe:0'],
      ...(options.audio ? ['-f', 'lavfi', '-i', `sine=frequency=300:duration=${seconds}`] : []),
      ...(h264 ? ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23'] : ['-c:v', 'mpeg4', '-q:v', '4']),
      ...['-pix_fmt', 'yuv420p', ...(options.audio ? ['-c:a', 'aac', '-shortest'] : []), file],
    ],
    { stdio: ['pipe', 'ignore', 'pipe'] },
  );
  let errors = '';
  child.stderr.on('data', (c: Buffer) => (errors += c.toString('utf8')));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  const fontPx = Math.round(Math.min(width, height) * 0.055);
  for (let f = 0; f < Math.round(seconds * fps); f++) {
    const t = f / fps;
    // a picture that moves under the subtitles, as a video's does
    const gradient = context.createLinearGradient(0, 0, width, height);
    gradient.addColorStop(0, `hsl(${(t * 20) % 360}, 45%, 35%)`);
    gradient.addColorStop(1, `hsl(${(t * 20 + 140) % 360}, 40%, 55%)`);
    context.fillStyle = gradient;
    context.fillRect(0, 0, width, height);
    context.fillStyle = 'rgba(240, 230, 200, 0.5)';
    for (let k = 0; k < 4; k++) {
      const x = ((t * (60 + k * 35) + k * 300) % (width + 200)) - 100;
      context.fillRect(x, height * (0.15 + k * 0.2), 160, 90);
    }
    const line = lines.find((l) => t * 1000 >= l.start_ms && t * 1000 < l.end_ms);
    if (line) {
      context.font = `${fontPx}px "BurnedSubtitleFont"`;
      context.textAlign = 'center';
      context.textBaseline = 'middle';
      context.lineJoin = 'round';
      context.lineWidth = Math.max(2, fontPx / 9);
      context.strokeStyle = '#000000';
      context.strokeText(line.text, width / 2, height * 0.9);
      context.fillStyle = '#ffffff';
      context.fillText(line.text, width / 2, height * 0.9);
    }
    const pixels = context.getImageData(0, 0, width, height).data;
    const chunk = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength);
    if (!child.stdin.write(chunk)) await new Promise((resolve) => child.stdin.once('drain', resolve));
  }
  child.stdin.end();
  const code = await exited;
  if (code !== 0) throw new FfmpegError('failed', `ffmpeg exited with ${code}`, errors);
}

/** ffmpeg's list of encoders. */
async function encoders(): Promise<string> {
  return (await runFfmpeg(['-encoders'], { timeoutMs: 10_000, anyExit: true })).stdout.toString('utf8');
}

/**
 * The bench's video: `seconds` long with one of twenty lines burned in every three seconds (shown 2.5 s of them),
 * in a folder of its own the caller removes.
 */
async function benchVideo(seconds: number, fontFile: string): Promise<{ file: string; dir: string; lines: string[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'wb-burned-'));
  const shown: DrawnLine[] = [];
  for (let at = 0; at + 1000 <= seconds * 1000; at += 3000)
    shown.push({
      text: BENCH_LINES[shown.length % BENCH_LINES.length],
      start_ms: at + 250,
      end_ms: Math.min(seconds * 1000, at + 2750),
    });
  const file = join(dir, 'burned.mp4');
  await drawSubtitledVideo(file, shown, { seconds, fontFile });
  return { file, dir, lines: shown.map((l) => l.text) };
}

export const burnedSubtitles = { read, benchVideo };

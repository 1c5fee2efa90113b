// Burned-in subtitles as a speech task's transcript: a video drawn here (a moving picture with Chinese lines burned
// into its bottom, in a CJK font) is uploaded without a subtitle; its frames are sampled by ffmpeg and read by OCR
// in the heavy pool, frames showing the same line become one timed segment, and the segments are checked. A video
// whose picture shows no lines falls through to speech recognition (none configured here: the task fails, given
// back). The merging of frames into cues is tested on its own.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bandFilter,
  drawSubtitledVideo,
  editDistance,
  frameRate,
  frameText,
  mergeFrames,
  sampleBand,
  type DrawnLine,
  type FrameText,
} from '../../server/formats/media/burned';
import { runFfmpeg } from '../../server/formats/media/ffmpeg';
import { greyPixels, samePicture, splitPngs } from '../../server/formats/media/frames';
import { rightBalance } from '../../server/domain/rights/ledger';
import { tinyPng } from '../fixtures/png';
import { call, CLIENT_HEADERS, form, register, startTestApp, type TestApp } from './helpers';

const FONTS = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc',
];
const LINE = '请各部门认真研究群众反映的问提。';
const LINES: DrawnLine[] = [
  { text: LINE, start_ms: 500, end_ms: 3000 },
  { text: '会议要求各单位按时报送材料。', start_ms: 3500, end_ms: 6000 },
  { text: '谢谢大家的支持。', start_ms: 6500, end_ms: 8500 },
];

let t: TestApp;
let token: string;
let uid: number;
let dir: string;
const videos = { subtitled: Buffer.alloc(0), plain: Buffer.alloc(0) };

beforeAll(async () => {
  const font = FONTS.find((f) => existsSync(f));
  if (!font) throw new Error('a CJK font is needed: apt-get install fonts-noto-cjk');
  dir = mkdtempSync(join(tmpdir(), 'wb-burned-'));
  await drawSubtitledVideo(join(dir, 'subtitled.mp4'), LINES, { seconds: 9, fontFile: font, audio: true });
  videos.subtitled = readFileSync(join(dir, 'subtitled.mp4'));
  // silent, and nothing written in its picture
  await drawSubtitledVideo(join(dir, 'plain.mp4'), [], { seconds: 4, fontFile: font });
  videos.plain = readFileSync(join(dir, 'plain.mp4'));
  t = await startTestApp();
  token = await register(t, '13566665001');
  uid = (await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result.uid;
}, 120_000);
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function upload(filename: string, data: Buffer) {
  const { payload, contentType } = form([{ name: 'file', filename, data }]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/misscut/v1/audio/convert_file_to_mp3',
    headers: { ...CLIENT_HEADERS, authorization: `Bearer ${token}`, 'content-type': contentType },
    payload,
  });
  return { status: res.statusCode, json: res.json() };
}

/** Polls the task like the page does until it has ended; the progress values seen on the way. */
async function ended(taskId: number) {
  const deadline = Date.now() + 90_000;
  const progress: number[] = [];
  for (;;) {
    const res = await call(t.app, 'POST', '/misscut/v1/get_speech_detail', { task_id: taskId }, token);
    expect(res.status).toBe(200);
    progress.push(res.json.result.progress);
    if (!['queued', 'running'].includes(res.json.result.status)) return { task: res.json.result, progress };
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${res.json.result.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

type Segment = { start_ms: number; end_ms: number; text: string; issues: Array<{ original: string }> };

describe('burned-in subtitles', () => {
  it('reads the lines drawn into a video as its transcript, timed, and checks them', async () => {
    const sources = await call(t.app, 'GET', '/misscut/v1/audio/sources', undefined, token);
    expect(sources.json.result).toMatchObject({ media: true, asr: false, burned_subtitles: true });
    const before = await rightBalance(t.app.db, uid, 2048);
    const up = await upload('字幕视频.mp4', videos.subtitled);
    expect(up.status).toBe(200);
    expect(up.json.result).toMatchObject({ kind: 'video', minutes: 1 });
    const { task, progress } = await ended(up.json.result.task_id);
    expect(task).toMatchObject({ status: 'done', transcript_source: 'burned_subtitle', kind: 'video' });
    expect(task.mp3_url).toBeDefined();
    const segments: Segment[] = task.segments;
    expect(segments.map((s) => s.text)).toHaveLength(LINES.length);
    segments.forEach((segment, i) => {
      expect(Math.abs(segment.start_ms - LINES[i].start_ms), segment.text).toBeLessThanOrEqual(1000);
      expect(Math.abs(segment.end_ms - LINES[i].end_ms), segment.text).toBeLessThanOrEqual(1000);
      expect(editDistance(segment.text, LINES[i].text), segment.text).toBeLessThanOrEqual(1);
    });
    expect(segments[0].issues.find((i) => i.original === '提')).toMatchObject({ suggestions: ['题'] });
    // progress moved while the frames were read (between the mp3 and the transcript)
    expect(progress.some((p) => p > 20 && p < 50)).toBe(true);
    expect(await rightBalance(t.app.db, uid, 2048)).toBe(before - 1);
  }, 120_000);

  it('falls through to speech recognition when the picture shows no lines (none configured: given back)', async () => {
    const before = await rightBalance(t.app.db, uid, 2048);
    const up = await upload('无字幕.mp4', videos.plain);
    // a silent video is taken: its picture may hold subtitles
    expect(up.status).toBe(200);
    const { task } = await ended(up.json.result.task_id);
    expect(task).toMatchObject({ status: 'failed', error_code: 'speech.no_speech' });
    expect(await rightBalance(t.app.db, uid, 2048)).toBe(before);
  }, 120_000);

  it('merges frames showing the same line into one cue and drops noise', () => {
    const frame = (text: string, confidence = 90, sure = text): FrameText => ({
      lines: text ? [{ text, sure }] : [],
      confidence,
    });
    const frames = [
      frame(''),
      frame('请各部门认真研究群众反映的问提。'),
      frame('请各部门认真研究群众反映的问提。'),
      // one misread character: still the same line, outvoted
      frame('请各部门认真研究群众反峡的问提。', 95),
      frame('请各部门认真研究群众反映的问提。'),
      frame(''),
      // a single frame of noise
      frame('目', 40),
      frame(''),
      frame('会议要求各单位按时报送材料。'),
      frame('会议要求各单位按时报送材料。'),
      // a different line right after: a cue of its own
      frame('谢谢大家的支持。'),
      frame('谢谢大家的支持。'),
    ];
    expect(mergeFrames(frames, 500)).toEqual([
      { start_ms: 250, end_ms: 2250, text: '请各部门认真研究群众反映的问提。' },
      { start_ms: 3750, end_ms: 4750, text: '会议要求各单位按时报送材料。' },
      { start_ms: 4750, end_ms: 5750, text: '谢谢大家的支持。' },
    ]);
    // the end is held to the video's
    expect(mergeFrames(frames, 500, 5500).at(-1)?.end_ms).toBe(5500);

    // a reading no other frame confirms loses its unsure characters; one seen twice keeps them
    expect(mergeFrames([frame('群众反映的问提。', 70, '群众反映的。')], 500)).toEqual([
      { start_ms: 0, end_ms: 250, text: '群众反映的。' },
    ]);
    expect(
      mergeFrames([frame('群众反映的问提。', 70, '群众反映的。'), frame('群众反映的问提。', 70, '')], 500),
    ).toEqual([{ start_ms: 0, end_ms: 750, text: '群众反映的问提。' }]);

    // a line on screen all along (a logo) is left out, the subtitles under it kept
    const logo = { text: '新闻频道', sure: '新闻频道' };
    const long = Array.from({ length: 80 }, (_, i): FrameText => {
      const line = i >= 10 && i < 16 ? [{ text: '今天天气很好。', sure: '今天天气很好。' }] : [];
      return { lines: [logo, ...line], confidence: 90 };
    });
    expect(mergeFrames(long, 500)).toEqual([{ start_ms: 4750, end_ms: 7750, text: '今天天气很好。' }]);
  });

  it('reads one frame: unsure characters apart, junk and noise lines dropped', () => {
    const text = '| 请各部门 认真研究。_\n~ ; |\n乙丙';
    const confidences = [...text].map((c, i) => (c === '认' ? 40 : i >= 16 && i < 22 ? 10 : 90));
    expect(frameText({ text, confidences })).toEqual({
      lines: [{ text: '请各部门认真研究。', sure: '请各部门真研究。' }],
      confidence: expect.any(Number),
    });
    expect(frameText({ text: '', confidences: [] })).toEqual({ lines: [], confidence: 0 });
  });

  it('samples the bottom band of the picture and tells frames showing the same line apart from others', async () => {
    const file = join(dir, 'subtitled.mp4');
    const pngs = await sampleBand(file, 0, 18, 2);
    expect(pngs).toHaveLength(18);
    const frames = pngs.map(greyPixels);
    expect(frames[0]).toMatchObject({ width: 1066, height: 150 });
    // the PNG's pixels as they are: ffmpeg's own raw frame of the same band
    const { stdout } = await runFfmpeg(
      ['-i', file, '-vf', bandFilter(2), '-frames:v', '1', '-f', 'rawvideo', 'pipe:1'],
      {
        timeoutMs: 30_000,
      },
    );
    expect(Buffer.from(frames[0]!.pixels).equals(stdout)).toBe(true);
    // 0.5 s and 1.0 s show the first line, 4.0 s and 4.5 s the second, 3.0 s none
    expect(samePicture(frames[1], frames[2])).toBe(true);
    expect(samePicture(frames[8], frames[9])).toBe(true);
    expect(samePicture(frames[2], frames[8])).toBe(false);
    expect(samePicture(frames[6], frames[2])).toBe(false);
    expect(samePicture(frames[2], null)).toBe(false);
  });

  it('splits a PNG stream and lowers the frame rate of long videos', () => {
    const png = tinyPng();
    expect(splitPngs(Buffer.concat([png, png, png.subarray(0, 20)]))).toEqual([png, png]);
    // an RGBA picture is not one of the sampled frames
    expect(greyPixels(png)).toBeNull();
    expect(frameRate(60, 2400)).toBe(2);
    expect(frameRate(3600, 2400)).toBeCloseTo(2 / 3);
  });
});

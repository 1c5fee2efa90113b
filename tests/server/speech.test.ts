// Audio and video proofreading end to end on the real server, with media made here by the ffmpeg binary the
// server uses: the transcript comes from an uploaded subtitle file, from a subtitle stream inside the video, or from
// a speech recognition service (a fake OpenAI-compatible one started here); each segment is checked with its times
// kept; rights 1024/2048 are charged by the minute once per upload and given back when the task fails; corrupt,
// disguised and overlong files are refused before anything is charged; another user's tasks are unknown; the mp3
// plays and the corrected subtitles export as SubRip and WebVTT.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseProbe } from '../../server/formats/media/ffmpeg';
import { readTranscription, transcriptionsUrl } from '../../server/formats/media/asr';
import { applySuggestions, parseSubtitle, writeSubtitles } from '../../server/formats/media/subtitles';
import { addGrant, consumeRight, rightBalance, setDefaultRemaining } from '../../server/domain/rights/ledger';
import { insertSpeechTask } from '../../server/db/repos/speech-tasks';
import { reasonText } from '../../server/domain/rights/reasons';
import { insertJob } from '../../server/jobs/store';
import { call, CLIENT_HEADERS, form, register, startTestApp, type TestApp } from './helpers';

const FFMPEG: string = createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg').path;
const LINE = '请各部门认真研究群众反映的问提。';
const SRT = `1\n00:00:00,500 --> 00:00:02,500\n${LINE}\n\n2\n00:00:02,600 --> 00:00:02,900\n谢谢。\n`;

let t: TestApp;
let token: string;
let other: string;
let uid: number;
let dir: string;
const media: Record<'wav' | 'mkv' | 'long', Buffer> = {
  wav: Buffer.alloc(0),
  mkv: Buffer.alloc(0),
  long: Buffer.alloc(0),
};

/** Runs the ffmpeg binary to make a fixture in `dir`; returns its bytes. */
function make(name: string, args: string[]): Buffer {
  execFileSync(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', ...args, join(dir, name)]);
  return readFileSync(join(dir, name));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-speech-'));
  writeFileSync(join(dir, 'line.srt'), SRT);
  media.wav = make('tone.wav', ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=3']);
  // flac, not aac: aac's priming samples would shift every stream of the file by 23 ms
  media.mkv = make('clip.mkv', [
    ...['-f', 'lavfi', '-i', 'color=c=black:s=320x240:d=3'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=3'],
    ...['-i', join(dir, 'line.srt'), '-map', '0', '-map', '1', '-map', '2'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'flac', '-c:s', 'srt'],
  ]);
  media.long = make('long.wav', ['-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', '70', '-c:a', 'pcm_u8']);
  t = await startTestApp();
  token = await register(t, '13566664001');
  other = await register(t, '13566664002');
  uid = (await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result.uid;
}, 60_000);
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

type Part = { name: string; filename: string; data: Buffer };

async function upload(parts: Part[], as = token) {
  const { payload, contentType } = form(parts);
  const res = await t.app.inject({
    method: 'POST',
    url: '/misscut/v1/audio/convert_file_to_mp3',
    headers: { ...CLIENT_HEADERS, authorization: `Bearer ${as}`, 'content-type': contentType },
    payload,
  });
  return { status: res.statusCode, json: res.json() };
}

async function get(url: string, as = token) {
  return t.app.inject({ method: 'GET', url, headers: { ...CLIENT_HEADERS, authorization: `Bearer ${as}` } });
}

/** Polls the task like the page does until it has ended. */
async function ended(taskId: number) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await call(t.app, 'POST', '/misscut/v1/get_speech_detail', { task_id: taskId }, token);
    expect(res.status).toBe(200);
    if (!['queued', 'running'].includes(res.json.result.status)) return res.json.result;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${res.json.result.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The records of a right for the user: what was taken and given back, in order. */
async function records(type: number) {
  const rows = await t.app.db
    .selectFrom('right_records')
    .select(['num', 'reason'])
    .where('uid', '=', uid)
    .where('user_right_type', '=', type)
    .orderBy('id')
    .execute();
  return rows.map((r) => [Number(r.num), r.reason]);
}

const typoOf = (segment: { text: string; issues: Array<{ original: string }> }) =>
  segment.issues.find((i) => i.original === '提');

describe('speech tasks', () => {
  it('checks audio with an uploaded subtitle: segments with times and findings, mp3, export', async () => {
    const before = await rightBalance(t.app.db, uid, 1024);
    const up = await upload([
      { name: 'file', filename: '会议录音.wav', data: media.wav },
      { name: 'subtitle', filename: '会议录音.srt', data: Buffer.from(SRT) },
    ]);
    expect(up.status).toBe(200);
    expect(up.json.result).toMatchObject({ name: '会议录音.wav', kind: 'audio', status: 'queued', minutes: 1 });
    expect(up.json.result.duration_ms).toBe(3000);
    const task = await ended(up.json.result.task_id);
    expect(task).toMatchObject({ status: 'done', progress: 100, transcript_source: 'subtitle', kind: 'audio' });
    expect(task.segments).toHaveLength(2);
    const [first, second] = task.segments;
    expect(first).toMatchObject({ start_ms: 500, end_ms: 2500, text: LINE });
    expect(second).toMatchObject({ start_ms: 2600, end_ms: 2900, text: '谢谢。', issues: [] });
    // the finished task counts in the owner's metrics: the characters of its text and its findings
    const events = await t.app.db
      .selectFrom('check_events')
      .selectAll()
      .where('kind', '=', 'speech')
      .where('chars', '=', [...(LINE + '谢谢。')].filter((c) => c.trim()).length)
      .execute();
    expect(events).toEqual([expect.objectContaining({ issues: first.issues.length })]);
    const typo = typoOf(first);
    expect(typo).toMatchObject({ suggestions: ['题'], start: LINE.indexOf('提'), end: LINE.indexOf('提') + 1 });
    expect(task.issue_count).toBe(first.issues.length);
    // charged one minute once
    expect(await rightBalance(t.app.db, uid, 1024)).toBe(before - 1);

    // the mp3 plays (owner only)
    expect(task.mp3_url).toBe(`/misscut/v1/audio/mp3?task_id=${task.task_id}`);
    const mp3 = await get(task.mp3_url);
    expect(mp3.statusCode).toBe(200);
    expect(mp3.headers['content-type']).toBe('audio/mpeg');
    const head = mp3.rawPayload;
    // an ID3 tag or an MPEG audio frame header
    expect(head.subarray(0, 3).toString() === 'ID3' || (head[0] === 0xff && (head[1] & 0xe0) === 0xe0)).toBe(true);
    expect(head.length).toBeGreaterThan(10_000);

    // the corrected subtitles: the finding's first suggestion applied, times kept
    const srt = await get(`/misscut/v1/audio/subtitles?task_id=${task.task_id}`);
    expect(srt.statusCode).toBe(200);
    expect(srt.headers['content-type']).toMatch(/^application\/x-subrip/);
    expect(srt.headers['content-disposition']).toContain(encodeURIComponent('会议录音.srt'));
    expect(srt.body).toBe(
      `1\n00:00:00,500 --> 00:00:02,500\n${LINE.replace('问提', '问题')}\n\n2\n00:00:02,600 --> 00:00:02,900\n谢谢。\n`,
    );
    const vtt = await get(`/misscut/v1/audio/subtitles?task_id=${task.task_id}&format=vtt`);
    expect(vtt.headers['content-type']).toMatch(/^text\/vtt/);
    expect(vtt.body).toMatch(/^WEBVTT\n\n00:00:00\.500 --> 00:00:02\.500\n请各部门认真研究群众反映的问题。\n/);
    expect((await get(`/misscut/v1/audio/subtitles?task_id=${task.task_id}&format=doc`)).statusCode).toBe(400);

    // another user sees none of it
    for (const res of [
      await call(t.app, 'POST', '/misscut/v1/get_speech_detail', { task_id: task.task_id }, other),
      await call(t.app, 'GET', task.mp3_url, undefined, other),
      await call(t.app, 'GET', `/misscut/v1/audio/subtitles?task_id=${task.task_id}`, undefined, other),
    ]) {
      expect(res.status).toBe(404);
      expect(res.json.msg_code).toBe('speech.unknown');
    }
  });

  it('takes the transcript of a video from its subtitle stream and charges video minutes', async () => {
    const audioBefore = await rightBalance(t.app.db, uid, 1024);
    const before = await rightBalance(t.app.db, uid, 2048);
    const up = await upload([{ name: 'file', filename: '通知.mkv', data: media.mkv }]);
    expect(up.status).toBe(200);
    expect(up.json.result).toMatchObject({ kind: 'video', minutes: 1 });
    const task = await ended(up.json.result.task_id);
    expect(task).toMatchObject({ status: 'done', transcript_source: 'embedded_subtitle', kind: 'video' });
    expect(task.segments[0]).toMatchObject({ start_ms: 500, end_ms: 2500, text: LINE });
    expect(typoOf(task.segments[0])).toMatchObject({ suggestions: ['题'] });
    expect(task.mp3_url).toBeDefined();
    expect(await rightBalance(t.app.db, uid, 2048)).toBe(before - 1);
    expect(await rightBalance(t.app.db, uid, 1024)).toBe(audioBefore);
  });

  it('fails without a subtitle when speech recognition is not configured, and gives the minutes back', async () => {
    const sources = await call(t.app, 'GET', '/misscut/v1/audio/sources', undefined, token);
    expect(sources.json.result).toEqual({
      media: true,
      asr: false,
      burned_subtitles: true,
      subtitle_formats: ['srt', 'vtt', 'ass', 'ssa', 'lrc', 'txt'],
      max_minutes: 120,
    });
    const before = await rightBalance(t.app.db, uid, 1024);
    const recorded = (await records(1024)).length;
    const up = await upload([{ name: 'file', filename: '无字幕.wav', data: media.wav }]);
    expect(up.status).toBe(200);
    const task = await ended(up.json.result.task_id);
    expect(task).toMatchObject({ status: 'failed', error_code: 'speech.no_asr' });
    expect(task.error).toContain('未配置语音识别');
    expect(task.error).toContain('字幕文件');
    expect(task.segments).toBeUndefined();
    // taken once, given back once
    expect(await rightBalance(t.app.db, uid, 1024)).toBe(before);
    expect((await records(1024)).slice(recorded)).toEqual([
      [-1, '音频校对'],
      [1, '音视频校对失败退回'],
    ]);
    // nothing to export from a failed task
    const srt = await call(t.app, 'GET', `/misscut/v1/audio/subtitles?task_id=${task.task_id}`, undefined, token);
    expect(srt.status).toBe(409);
    expect(srt.json.msg_code).toBe('speech.not_done');
  });

  it('recognises speech through an OpenAI-compatible service when one is configured', async () => {
    const seen: Array<{ url: string; auth: string | undefined; body: string }> = [];
    const server: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({
          url: req.url ?? '',
          auth: req.headers.authorization,
          body: Buffer.concat(chunks).toString('latin1'),
        });
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            task: 'transcribe',
            language: 'chinese',
            duration: 3,
            text: LINE,
            segments: [{ id: 0, start: 0.5, end: 2.5, text: ` ${LINE}` }],
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const asr = t.app.config.media.asr;
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t.app.config.media.asr = { ...asr, url, apiKey: 'test-key' };
    try {
      const sources = await call(t.app, 'GET', '/misscut/v1/audio/sources', undefined, token);
      expect(sources.json.result.asr).toBe(true);
      const before = await rightBalance(t.app.db, uid, 1024);
      const up = await upload([{ name: 'file', filename: '讲话.wav', data: media.wav }]);
      const task = await ended(up.json.result.task_id);
      expect(task).toMatchObject({ status: 'done', transcript_source: 'asr' });
      expect(task.segments).toHaveLength(1);
      expect(task.segments[0]).toMatchObject({ start_ms: 500, end_ms: 2500, text: LINE });
      expect(typoOf(task.segments[0])).toMatchObject({ suggestions: ['题'] });
      expect(await rightBalance(t.app.db, uid, 1024)).toBe(before - 1);
      expect(seen).toHaveLength(1);
      expect(seen[0].url).toBe('/v1/audio/transcriptions');
      expect(seen[0].auth).toBe('Bearer test-key');
      expect(seen[0].body).toContain('name="response_format"\r\n\r\nverbose_json');
      expect(seen[0].body).toContain('name="model"\r\n\r\nwhisper-1');
      // the mp3 is what is sent
      expect(seen[0].body).toContain('Content-Type: audio/mpeg');

      // longer audio goes in pieces of ten minutes, each piece's times shifted to the whole
      await addGrant(t.app.db, uid, 1024, 100, 'test:long-asr');
      const long = make('eleven.wav', ['-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', '660', '-c:a', 'pcm_u8']);
      const pieces = await ended(
        (await upload([{ name: 'file', filename: '长.wav', data: long }])).json.result.task_id,
      );
      expect(pieces).toMatchObject({ status: 'done', transcript_source: 'asr', minutes: 11 });
      expect(pieces.segments.map((s: { start_ms: number; end_ms: number }) => [s.start_ms, s.end_ms])).toEqual([
        [500, 2500],
        [600_500, 602_500],
      ]);
      expect(seen.slice(1).map((s) => /filename="([^"]+)"/.exec(s.body)?.[1])).toEqual(['part1.mp3', 'part2.mp3']);
      // the second piece is the last minute: about 60 s of 48 kbit/s
      expect(seen[2].body.length).toBeLessThan(seen[1].body.length / 5);
    } finally {
      t.app.config.media.asr = asr;
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a transcript uploaded alone is checked as audio, without an mp3', async () => {
    const up = await upload([{ name: 'file', filename: '字幕.srt', data: Buffer.from(SRT) }]);
    expect(up.status).toBe(200);
    expect(up.json.result).toMatchObject({ kind: 'audio', minutes: 1, duration_ms: 2900 });
    const task = await ended(up.json.result.task_id);
    expect(task).toMatchObject({ status: 'done', transcript_source: 'subtitle' });
    expect(task.mp3_url).toBeUndefined();
    expect(typoOf(task.segments[0])).toBeDefined();
    const mp3 = await call(t.app, 'GET', `/misscut/v1/audio/mp3?task_id=${task.task_id}`, undefined, token);
    expect(mp3.status).toBe(404);
    expect(mp3.json.msg_code).toBe('speech.no_mp3');
  });

  it('refuses disguised, corrupt, empty and overlong files before charging anything', async () => {
    const audio = await rightBalance(t.app.db, uid, 1024);
    const video = await rightBalance(t.app.db, uid, 2048);
    const cases: Array<[Part[], string]> = [
      [
        [{ name: 'file', filename: 'a.mp4', data: Buffer.from('这只是一段文字，改了扩展名。\n'.repeat(50)) }],
        'speech.not_media',
      ],
      [[{ name: 'file', filename: 'a.mp4', data: Buffer.from(SRT) }], 'speech.not_media'],
      [[{ name: 'file', filename: 'a.mp3', data: media.wav.subarray(0, 40) }], 'speech.not_media'],
      [[{ name: 'file', filename: 'a.mp4', data: Buffer.from('MZ\x90\x00 an executable') }], 'document.executable'],
      [[{ name: 'file', filename: 'a.wav', data: Buffer.alloc(0) }], 'upload.empty_file'],
      [[{ name: 'file', filename: 'a.srt', data: Buffer.from('no cues here') }], 'speech.subtitle_unreadable'],
      [
        [
          { name: 'file', filename: 'a.wav', data: media.wav },
          { name: 'subtitle', filename: 'a.srt', data: Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 0, 0]) },
        ],
        'speech.subtitle_unreadable',
      ],
    ];
    for (const [parts, code] of cases) {
      const res = await upload(parts);
      expect(res.status, code).toBe(400);
      expect(res.json.msg_code).toBe(code);
    }
    const maxMinutes = t.app.config.media.maxMinutes;
    t.app.config.media.maxMinutes = 1;
    try {
      const res = await upload([{ name: 'file', filename: 'long.wav', data: media.long }]);
      expect(res.json).toMatchObject({ code: 400, msg_code: 'speech.too_long', msg_params: { minutes: 2, max: 1 } });
    } finally {
      t.app.config.media.maxMinutes = maxMinutes;
    }
    expect(await rightBalance(t.app.db, uid, 1024)).toBe(audio);
    expect(await rightBalance(t.app.db, uid, 2048)).toBe(video);
  });

  it('answers 402 with the minutes needed when not enough are left', async () => {
    const otherUid = (await call(t.app, 'GET', '/user/user_info', undefined, other)).json.result.uid;
    expect(await rightBalance(t.app.db, otherUid, 1024)).toBe(10);
    await setDefaultRemaining(t.app.db, otherUid, 1024, 1);
    const res = await upload([{ name: 'file', filename: 'long.wav', data: media.long }], other);
    expect(res.status).toBe(402);
    expect(res.json).toMatchObject({ msg_code: 'speech.audio_exhausted', msg_params: { needed: 2, available: 1 } });
    expect(await rightBalance(t.app.db, otherUid, 1024)).toBe(1);
  });

  it('ends a task whose every start died with its process as interrupted, refunded once', async () => {
    const before = await rightBalance(t.app.db, uid, 2048);
    const charge = await consumeRight(t.app.db, uid, 2048, 2, '视频校对');
    const now = new Date().toISOString();
    const id = await insertSpeechTask(
      t.app.db,
      {
        uid,
        name: '旧.mp4',
        kind: 'video',
        size: 1,
        status: 'running',
        progress: 20,
        duration_ms: 90_000,
        minutes: 2,
        probe: null,
        transcript_source: null,
        has_mp3: 0,
        segment_count: 0,
        issue_count: 0,
        created_at: now,
        updated_at: now,
      },
      { source: Buffer.from('x'), subtitle: null },
      (trx, ref) => insertJob(trx, { kind: 'speech', ref, uid, charge: JSON.stringify(charge) }),
    );
    expect(await rightBalance(t.app.db, uid, 2048)).toBe(before - 2);
    // started as often as a job may be, each start dying with its process
    const attempts = t.app.config.jobs.maxAttempts;
    await t.app.db.updateTable('jobs').set({ attempts }).where('kind', '=', 'speech').where('ref', '=', id).execute();
    await t.app.instance.sweep();
    t.app.jobs.enqueue();
    const task = await ended(id);
    expect(task).toMatchObject({ status: 'failed', error_code: 'speech.interrupted' });
    expect(await rightBalance(t.app.db, uid, 2048)).toBe(before);
    // the ledger says why in the reader's language
    const refund = await t.app.db
      .selectFrom('right_records')
      .select(['num', 'reason', 'reason_code', 'reason_params'])
      .where('uid', '=', uid)
      .where('user_right_type', '=', 2048)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(Number(refund.num)).toBe(2);
    expect(refund.reason).toBe('音视频校对失败退回');
    expect(reasonText(refund, 'en')).toBe('Audio/video proofreading failed: refunded');
    expect(reasonText(refund, 'hk')).toBe('音視頻校對失敗退回');
    // refunded at the next start again: nothing more is given back
    await t.app.jobs.refundEnded();
    expect(await rightBalance(t.app.db, uid, 2048)).toBe(before);
  });

  it('reads subtitle formats, probes, and applies suggestions', () => {
    const vtt = 'WEBVTT\n\nNOTE a note\n\ncue-1\n00:01.000 --> 00:02.500 align:start\n<v 甲>你好&amp;再见</v>\n';
    expect(parseSubtitle(vtt, 'vtt')).toEqual([{ start_ms: 1000, end_ms: 2500, text: '你好&再见' }]);
    const ass =
      '[Script Info]\nTitle: x\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, ' +
      'Effect, Text\nDialogue: 0,0:00:01.50,0:00:03.00,Default,,0,0,0,,{\\b1}第一行\\N第二行, 带逗号\n';
    expect(parseSubtitle(ass, 'ass')).toEqual([{ start_ms: 1500, end_ms: 3000, text: '第一行第二行, 带逗号' }]);
    const lrc = '[ti:歌]\n[offset:+500]\n[00:01.00]第一句\n[00:03.50][00:07.00]第二句\n';
    expect(parseSubtitle(lrc, 'lrc', 9000)).toEqual([
      { start_ms: 500, end_ms: 3000, text: '第一句' },
      { start_ms: 3000, end_ms: 6500, text: '第二句' },
      { start_ms: 6500, end_ms: 9000, text: '第二句' },
    ]);
    expect(parseSubtitle('一二三四\n五六七八\n', 'txt', 8000)).toEqual([
      { start_ms: 0, end_ms: 4000, text: '一二三四' },
      { start_ms: 4000, end_ms: 8000, text: '五六七八' },
    ]);
    expect(parseSubtitle('1\n00:00:01,000 --> 00:00:02,000\n<i>Hello</i>\nworld\n', 'srt')[0].text).toBe('Hello world');
    expect(writeSubtitles([{ start_ms: 3_723_004, end_ms: 3_724_000, text: 'x' }], 'srt')).toBe(
      '1\n01:02:03,004 --> 01:02:04,000\nx\n',
    );
    const issues = [
      { start: 2, end: 3, suggestions: ['题'] },
      { start: 2, end: 4, suggestions: ['x'] },
      { start: 0, end: 1, suggestions: [] },
    ];
    expect(applySuggestions('问问提了', issues)).toBe('问问题了');

    const log = [
      "Input #0, mp3, from 'input':",
      '  Duration: 00:01:02.50, start: 0.025057, bitrate: 128 kb/s',
      '    Stream #0:0: Audio: mp3, 44100 Hz, stereo, fltp, 128 kb/s',
      '    Stream #0:1: Video: mjpeg (Baseline), yuvj420p, 500x500, 90k tbr (attached pic)',
    ].join('\n');
    expect(parseProbe(log)).toEqual({
      format: 'mp3',
      durationMs: 62_500,
      video: false,
      audio: true,
      textSubtitle: null,
    });
    const mkv = [
      "Input #0, matroska,webm, from 'input':",
      '  Duration: 00:00:03.02, start: 0.000000, bitrate: 86 kb/s',
      '    Stream #0:0(eng): Video: h264 (High), yuv420p, 320x240, 25 fps',
      '    Stream #0:1: Subtitle: hdmv_pgs_subtitle',
      '    Stream #0:2(chi): Subtitle: ass (default)',
    ].join('\n');
    expect(parseProbe(mkv)).toMatchObject({ video: true, audio: false, textSubtitle: 1 });
    expect(parseProbe('input: Invalid data found when processing input')).toBeNull();

    expect(transcriptionsUrl('https://api.example.com/')).toBe('https://api.example.com/v1/audio/transcriptions');
    expect(transcriptionsUrl('http://h:9000/v1')).toBe('http://h:9000/v1/audio/transcriptions');
    expect(readTranscription({ text: ' 全文 ' }, 4000)).toEqual([{ start_ms: 0, end_ms: 4000, text: '全文' }]);
  });

  // Each of these took tens of seconds (quadratic scanning, growing to minutes with the 10 MB a subtitle may have) on
  // the request thread of the upload, freezing the server; now they are read in one pass, in milliseconds.
  it('reads hostile subtitles in one pass: lines of openers, unclosed tags, many lines sharing a time', () => {
    const head = '1\n00:00:01,000 --> 00:00:02,000\n';
    const openers = parseSubtitle(head + '<'.repeat(100_000), 'srt');
    expect(openers).toHaveLength(1);
    expect(openers[0].text).toHaveLength(100_000);
    expect(parseSubtitle(head + '{\\'.repeat(50_000) + '一', 'srt')[0].text).toMatch(/一$/);
    const assLine = 'Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,' + '{'.repeat(100_000) + '文';
    expect(parseSubtitle('[Events]\n' + assLine + '\n', 'ass')[0].text).toMatch(/文$/);
    // 50,000 lines at one time, then one later: each ends where the later one starts
    const lrc = '[00:01.00]同一时刻\n'.repeat(50_000) + '[00:09.00]最后\n';
    const cues = parseSubtitle(lrc, 'lrc', 12_000);
    expect(cues).toHaveLength(50_000);
    expect(cues[0]).toEqual({ start_ms: 1000, end_ms: 9000, text: '同一时刻' });
  });
});

// Audio and video proofreading in Chromium against the real server: a short audio made by the test with ffmpeg and a
// subtitle file with a typo are uploaded; the page says where the text came from, lists the segments with the
// finding marked, a finding seeks the player to its segment, and the corrected subtitles download.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ffmpeg from '@ffmpeg-installer/ffmpeg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  openBrowser,
  registerInBrowser,
  savedDownload,
  screenshotPath,
  uniquePhone,
  type BrowserSession,
} from './browser';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const phone = uniquePhone().replace(/^139/, '132');
const SRT =
  '1\n00:00:00,500 --> 00:00:02,000\n大家好，欢迎收听。\n\n2\n00:00:03,000 --> 00:00:05,500\n请各部门认真研究群众反映的问提。\n';

let browser: BrowserSession;
let audio: Buffer;
let withSubtitles: Buffer;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-video-'));
  const file = join(dir, 'talk.mp3');
  execFileSync(ffmpeg.path, ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=6', '-y', file]);
  audio = readFileSync(file);
  // an mp4 whose subtitles are a stream inside it (mov_text), with the typo
  const srt = join(dir, 'talk.srt');
  writeFileSync(srt, SRT);
  const mp4 = join(dir, 'talk.mp4');
  execFileSync(ffmpeg.path, [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'color=c=black:s=320x240:d=6',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=6',
    '-i',
    srt,
    '-map',
    '0:v',
    '-map',
    '1:a',
    '-map',
    '2:s',
    '-c:s',
    'mov_text',
    '-shortest',
    '-y',
    mp4,
  ]);
  withSubtitles = readFileSync(mp4);
  browser = await openBrowser();
  await registerInBrowser(browser.page, baseUrl, dataDir, phone, 'e2e-video-123');
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe('audio and video proofreading', () => {
  it('checks the subtitle of an audio, marks the finding, seeks to it, and exports corrected subtitles', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: '音视频校对' }).click();
    // no speech recognition on this server: the page says a subtitle file is needed
    await expect.poll(() => page.getByTestId('video-sources').textContent()).toContain('未配置语音识别');
    await page
      .getByTestId('video-drop-input')
      .setInputFiles({ name: '讲话.mp3', mimeType: 'audio/mpeg', buffer: audio });
    await page
      .getByTestId('video-subtitle-input')
      .setInputFiles({ name: '讲话.srt', mimeType: 'text/plain', buffer: Buffer.from(SRT) });
    await page.getByTestId('video-start').click();
    await page.getByTestId('video-result').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('video-source').getAttribute('data-source')).toBe('subtitle');
    expect(await page.getByTestId('video-segment').count()).toBe(2);
    const card = page.getByTestId('finding-item').first();
    expect(await card.getAttribute('data-original')).toBe('提');
    await card.click();
    await expect
      .poll(() => page.getByTestId('video-player').evaluate((el: HTMLMediaElement) => el.currentTime))
      .toBeCloseTo(3, 0);
    // the preview plays the uploaded file (from a blob: URL the policy allows for media): a second of it
    const played = await page.getByTestId('video-player').evaluate(async (el: HTMLMediaElement) => {
      el.muted = true;
      el.currentTime = 0;
      await el.play();
      await new Promise((resolve) => setTimeout(resolve, 1200));
      el.pause();
      return { time: el.currentTime, src: el.currentSrc, error: el.error?.code ?? null };
    });
    expect(played.src).toMatch(/^blob:/);
    expect(played.error).toBeNull();
    expect(played.time).toBeGreaterThan(0.8);
    await page.screenshot({ path: screenshotPath('video-result.png') });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('video-export-srt').click()]);
    const srt = readFileSync(await savedDownload(download), 'utf8');
    expect(srt).toContain('群众反映的问题。');
    expect(srt).toContain('00:00:03,000 --> 00:00:05,500');
  }, 90_000);

  it('takes the text of a video from its own subtitle stream', async () => {
    const { page } = browser;
    await page.getByTestId('video-reset').click();
    await page
      .getByTestId('video-drop-input')
      .setInputFiles({ name: '会议.mp4', mimeType: 'video/mp4', buffer: withSubtitles });
    await page.getByTestId('video-start').click();
    await page.getByTestId('video-result').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('video-source').getAttribute('data-source')).toBe('embedded_subtitle');
    expect(await page.getByTestId('finding-item').first().getAttribute('data-original')).toBe('提');
    expect(await page.getByTestId('video-player').evaluate((el) => el.tagName)).toBe('VIDEO');
  }, 90_000);
});

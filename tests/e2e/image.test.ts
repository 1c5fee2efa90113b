// Image proofreading in Chromium against the real server, with a PNG of Chinese text drawn by the test: the picture
// is read by OCR on the server, the finding shows as a box on the picture and a card beside it, the corrected text
// is checked again, and the text with its findings downloads.
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
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
const phone = uniquePhone().replace(/^139/, '133');
const FONTS = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc',
];

let browser: BrowserSession;

beforeAll(async () => {
  const font = FONTS.find((f) => existsSync(f));
  if (!font) throw new Error('a CJK font is needed: apt-get install fonts-noto-cjk');
  GlobalFonts.registerFromPath(font, 'TestCJK');
  browser = await openBrowser();
  await registerInBrowser(browser.page, baseUrl, dataDir, phone, 'e2e-image-123');
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

async function poster(text: string): Promise<Buffer> {
  const canvas = createCanvas(900, 200);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, 900, 200);
  context.fillStyle = '#000000';
  context.font = '44px TestCJK';
  context.textBaseline = 'top';
  context.fillText(text, 40, 80);
  return canvas.encode('png');
}

describe('image proofreading', () => {
  it('reads a picture, boxes the finding on it, and checks the corrected text again', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: '图片校对' }).click();
    await page.getByTestId('image-empty').waitFor();
    await page.getByTestId('image-input').setInputFiles({
      name: '海报.png',
      mimeType: 'image/png',
      buffer: await poster('请各部门认真研究群众反映的问提。'),
    });
    const phase = page.getByTestId('image-result').getByTestId('image-phase');
    await expect.poll(() => phase.getAttribute('data-phase'), { timeout: 60_000 }).toBe('done');
    const box = page.getByTestId('image-box').first();
    await box.waitFor();
    const card = page.getByTestId('finding-item').first();
    expect(await card.getAttribute('data-original')).toBe('提');
    await box.click();
    expect(await card.getAttribute('data-selected')).toBe('true');
    // the box lies on the drawn line, at its 15th character
    const view = (await page.getByTestId('image-view').boundingBox())!;
    const mark = (await box.boundingBox())!;
    const relX = (mark.x - view.x) / view.width;
    expect(relX).toBeGreaterThan((40 + 13 * 44) / 900);
    expect(relX).toBeLessThan((40 + 15 * 44) / 900);
    expect(await page.getByTestId('image-text').textContent()).toContain('问提');
    await page.screenshot({ path: screenshotPath('image-result.png') });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('image-export-text').click(),
    ]);
    expect(readFileSync(await savedDownload(download), 'utf8')).toContain('提 → 题');

    await page.getByTestId('image-edit').click();
    const editor = page.getByTestId('image-text-editor');
    await editor.fill((await editor.inputValue()).replace('问提', '问题'));
    await page.getByTestId('image-recheck').click();
    await page.getByTestId('image-no-findings').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('image-text').textContent()).toContain('问题');
    expect(await page.getByTestId('image-box').count()).toBe(0);
  }, 120_000);
});

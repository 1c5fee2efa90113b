// PDF proofreading in Chromium against the real server, with a PDF made by the test (Chinese text in a font that is
// not embedded): the upload joins the list, its progress moves the row, and the detail screen shows the page drawn
// by the server with a box on the finding; a click on the box selects its card and the other way round.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { PDFDocument } from 'pdf-lib';
import { existsSync } from 'node:fs';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { makePdf, type PdfPageSpec } from '../fixtures/pdf';
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
const phone = uniquePhone().replace(/^139/, '134');

let browser: BrowserSession;
const FONTS = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc',
];

/** A scanned A4 page (grey pixels, no text layer) with one line of Chinese at 12 pt, drawn at 150 dpi. */
async function scannedPage(line: string): Promise<PdfPageSpec> {
  const font = FONTS.find((f) => existsSync(f));
  if (!font) throw new Error('a CJK font is needed: apt-get install fonts-noto-cjk');
  GlobalFonts.registerFromPath(font, 'ScanCJK');
  const [width, height] = [1240, 1754];
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  context.fillStyle = '#000000';
  context.font = '36px ScanCJK';
  context.textBaseline = 'top';
  context.fillText(line, 150, 300);
  const rgba = context.getImageData(0, 0, width, height).data;
  const pixels = Buffer.alloc(width * height);
  for (let i = 0; i < pixels.length; i++) pixels[i] = rgba[i * 4];
  return { kind: 'scan', width, height, pixels };
}

beforeAll(async () => {
  browser = await openBrowser();
  await registerInBrowser(browser.page, baseUrl, dataDir, phone, 'e2e-pdf-1234');
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe('PDF proofreading', () => {
  it('uploads a PDF, follows it to done, and shows the finding boxed on the page', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: 'PDF 校对' }).click();
    await page.getByTestId('pdf-screen').waitFor();
    await page.getByTestId('pdf-empty').waitFor();
    const pdf = makePdf([
      { kind: 'text', lines: ['关于召开年度工作会议的通知', '请各部门认真研究群众反映的问提，切实解决实际困难。'] },
      { kind: 'text', lines: ['第二页内容正常。'] },
      await scannedPage('会议要求大家认真对待群众反映的问提。'),
    ]);
    await page
      .getByTestId('pdf-drop-input')
      .setInputFiles({ name: '通知.pdf', mimeType: 'application/pdf', buffer: pdf });
    const row = page.getByTestId('pdf-row').first();
    await expect
      .poll(() => row.getByTestId('pdf-status').getAttribute('data-status'), { timeout: 30_000 })
      .toBe('done');
    expect(Number(await row.getByTestId('pdf-issue-count').textContent())).toBeGreaterThan(0);

    await row.getByTestId('pdf-open').click();
    await page.getByTestId('pdf-detail').waitFor();
    // the side bar is hidden on the detail screen
    expect(await page.getByTestId('side-bar').count()).toBe(0);
    expect(await page.getByTestId('pdf-page-tab').count()).toBe(3);
    const image = page.getByTestId('pdf-page-image');
    await image.waitFor();
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 15_000 })
      .toBe(1240);
    const box = page.getByTestId('pdf-box').first();
    const card = page.getByTestId('finding-item').first();
    expect(await card.getAttribute('data-original')).toBe('提');
    // the box lies on the image where the text is: the second line, about a third of the width in
    const imageBox = (await image.boundingBox())!;
    const findingBox = (await box.boundingBox())!;
    const relX = (findingBox.x - imageBox.x) / imageBox.width;
    const relY = (findingBox.y - imageBox.y) / imageBox.height;
    expect(relX).toBeGreaterThan(0.4);
    expect(relX).toBeLessThan(0.5);
    expect(relY).toBeGreaterThan(0.1);
    expect(relY).toBeLessThan(0.13);
    await box.click();
    expect(await card.getAttribute('data-selected')).toBe('true');
    expect(await box.getAttribute('data-selected')).toBe('true');
    await page.screenshot({ path: screenshotPath('pdf-detail.png') });
    // the other page: no findings there
    await page.getByTestId('pdf-page-tab').nth(1).click();
    await page.getByTestId('pdf-no-findings').waitFor();
    // the annotated PDF downloads: the original with a highlight on the finding
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('pdf-export-pdf').click()]);
    expect(download.suggestedFilename()).toBe('通知（校对批注）.pdf');
    const annotated = await PDFDocument.load(readFileSync(await savedDownload(download)));
    expect(annotated.getPages()[0].node.Annots()?.size()).toBe(1);
    // the scanned page was read by OCR: its finding is boxed on the drawn text too
    await page.getByTestId('pdf-page-tab').nth(2).click();
    await expect.poll(() => page.getByTestId('pdf-box').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await page.getByTestId('finding-item').first().getAttribute('data-original')).toBe('提');
    // zoom changes the page's width
    await page.getByRole('button', { name: '放大' }).click();
    expect(await page.getByTestId('pdf-zoom').textContent()).toBe('125%');
  }, 90_000);
});

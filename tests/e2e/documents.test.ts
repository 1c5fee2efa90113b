// Documents in Chromium against the real server: a generated .docx with known
// errors is uploaded on /document, its progress is watched to done, the editor shows the findings in
// place, a fix is accepted, and the export with tracked changes carries it as w:del/w:ins (and the open
// findings as comments) in the downloaded file's XML. Also: the shared read-only link, delete.
import { Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import JSZip from 'jszip';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  openBrowser,
  savedDownload,
  screenshotLightAndDark,
  setRights,
  uniquePhone,
  registerInBrowser,
  type BrowserSession,
} from './browser';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const PASSWORD = 'e2e-docs-123';
const phone = uniquePhone().replace(/^139/, '135');

let browser: BrowserSession;

// sentences with errors the engine catches (the same as the text proofreading test)
const LINES = ['他的成积很好。', '他跑的很快。', '这个这个问题很重要。'];

/** A ~200-page document (616 characters per GB/T 9704 page): headings every 20 paragraphs, an error in each. */
async function longDocx(pages: number): Promise<{ data: Buffer; chars: number }> {
  const sentences = [
    '他的成积很好，大家都为他高兴。',
    '我们在次讨论了这个方案的细节。',
    '会议决定下周继续推进各项工作。',
    '这个这个问题需要尽快解决。',
    '请各部门按时报送材料，不得延误。',
  ];
  const children: Paragraph[] = [
    new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun('年度工作报告')] }),
  ];
  let chars = 0;
  for (let n = 1; chars < pages * 616; n++) {
    if (n % 20 === 1)
      children.push(
        new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun(`第${Math.ceil(n / 20)}部分`)] }),
      );
    let text = `${n}．`;
    for (let k = 0; text.length < 120; k++) text += sentences[(n + k) % sentences.length];
    chars += text.length;
    children.push(new Paragraph({ children: [new TextRun(text)] }));
  }
  return { data: await Packer.toBuffer(new Document({ sections: [{ children }] })), chars };
}

async function generatedDocx(): Promise<Buffer> {
  const font = { eastAsia: '宋体', ascii: 'Times New Roman', hAnsi: 'Times New Roman' };
  return Packer.toBuffer(
    new Document({
      sections: [
        {
          children: [
            new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun({ text: '期末总结', font })] }),
            ...LINES.map((text) => new Paragraph({ children: [new TextRun({ text, font })] })),
          ],
        },
      ],
    }),
  );
}

beforeAll(async () => {
  browser = await openBrowser();
  const { page } = browser;
  await registerInBrowser(page, baseUrl, dataDir, phone, PASSWORD);
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe('documents in Chromium', () => {
  it('shows the empty list, uploads a generated .docx and watches its progress to done', async () => {
    const { page } = browser;
    await page.getByTestId('side-bar').getByRole('link', { name: '我的文档' }).click();
    await page.waitForURL(`${baseUrl}/workbench/document`);
    await page.getByTestId('documents-empty').waitFor();
    // every phase and progress value the upload row shows, recorded in the page
    await page.evaluate(() => {
      const seen: string[] = [];
      const values: number[] = [];
      (window as unknown as { __upload: { seen: string[]; values: number[] } }).__upload = { seen, values };
      new MutationObserver(() => {
        const row = document.querySelector('[data-testid="upload-row"]');
        if (!row) return;
        const phase = row.getAttribute('data-phase') ?? '';
        if (seen.at(-1) !== phase) seen.push(phase);
        const value = Number(row.querySelector('[data-testid="upload-progress"]')?.getAttribute('data-value'));
        if (values.at(-1) !== value) values.push(value);
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await page.getByTestId('upload-input').setInputFiles({
      name: '期末总结.docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      buffer: await generatedDocx(),
    });
    const row = page.getByTestId('upload-row');
    await expect.poll(() => row.getAttribute('data-phase'), { timeout: 30_000 }).toBe('done');
    const record = await page.evaluate(
      () => (window as unknown as { __upload: { seen: string[]; values: number[] } }).__upload,
    );
    console.log(`upload phases seen: ${record.seen.join(' -> ')}; progress values: ${record.values.join(', ')}`);
    expect(record.seen[0]).toBe('uploading');
    expect(record.seen.at(-1)).toBe('done');
    // the bar only moves forward and ends full
    expect(record.values).toEqual([...record.values].sort((a, b) => a - b));
    expect(record.values.at(-1)).toBe(100);
    // the table shows the document done, with its error count
    const doc = page.getByTestId('document-row').filter({ hasText: '期末总结.docx' });
    await expect.poll(() => doc.getAttribute('data-status'), { timeout: 15_000 }).toBe('done');
    await expect
      .poll(async () => Number(await doc.getByTestId('document-issues').textContent()))
      .toBeGreaterThanOrEqual(2);
    await screenshotLightAndDark(page, 'documents');
  });

  it('opens the editor with the findings marked in place and accepts a fix', async () => {
    const { page } = browser;
    await page.getByTestId('document-row').filter({ hasText: '期末总结.docx' }).getByTestId('document-open').click();
    await page.waitForURL(/\/workbench\/editor\?id=\d+$/);
    const view = page.getByTestId('document-view');
    await view.waitFor();
    // the heading is kept, the findings are marked on their characters
    expect(await view.locator('h1').textContent()).toBe('期末总结');
    await expect
      .poll(() => view.locator('mark').allTextContents())
      .toEqual(expect.arrayContaining(['积', '的', '这个这个']));
    expect(await page.getByTestId('side-bar').count()).toBe(0);
    // keyboard: Alt+↓ walks the findings
    await page.keyboard.press('Alt+ArrowDown');
    await page.locator('[data-testid="finding-item"][data-selected]').waitFor();
    // click the mark of 积 and accept its suggestion 绩
    await view.locator('mark', { hasText: /^积$/ }).click();
    const card = page.locator('[data-testid="finding-item"][data-original="积"]');
    await expect.poll(() => card.getAttribute('data-selected')).toBe('true');
    await card.getByTestId('finding-accept').click();
    await expect.poll(() => view.textContent()).toContain('他的成绩很好。');
    expect(await view.locator('mark', { hasText: /^积$/ }).count()).toBe(0);
    expect(await page.getByTestId('editor-fix-count').textContent()).toContain('1');
    await page.getByTestId('editor-unsaved').waitFor();
    expect(await page.getByTestId('editor-save').isEnabled()).toBe(true);
    await screenshotLightAndDark(page, 'editor');
  });

  it('exports with tracked changes: the accepted fix is w:del/w:ins, open findings are comments', async () => {
    const { page } = browser;
    await page.getByTestId('editor-export').click();
    const downloading = page.waitForEvent('download', { timeout: 30_000 });
    await page.getByTestId('export-tracked').click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.docx$/);
    const file = await savedDownload(download);
    const zip = await JSZip.loadAsync(readFileSync(file));
    const xml = await zip.file('word/document.xml')!.async('string');
    // the fix: 积 deleted and 绩 inserted as tracked changes
    expect(xml).toMatch(/<w:del\b[^>]*>[\s\S]*?<w:delText[^>]*>积<\/w:delText>[\s\S]*?<\/w:del>/);
    expect(xml).toMatch(/<w:ins\b[^>]*>[\s\S]*?<w:t[^>]*>绩<\/w:t>[\s\S]*?<\/w:ins>/);
    // the findings still open are comments
    expect(xml).toContain('w:commentRangeStart');
    const comments = await zip.file('word/comments.xml')?.async('string');
    expect(comments ?? '').toMatch(/这个这个|的/);
    // saving first left nothing unsaved
    expect(await page.getByTestId('editor-unsaved').count()).toBe(0);
  });

  it('exports clean: the fix is plain text, no tracked changes', async () => {
    const { page } = browser;
    await page.getByTestId('editor-export').click();
    const downloading = page.waitForEvent('download', { timeout: 30_000 });
    await page.getByTestId('export-clean').click();
    const zip = await JSZip.loadAsync(readFileSync(await savedDownload(await downloading)));
    const xml = await zip.file('word/document.xml')!.async('string');
    expect(xml).toContain('他的成绩很好。');
    expect(xml).not.toContain('<w:ins');
    expect(xml).not.toContain('<w:del ');
  });

  it('shares a read-only link that opens without the editing controls', async () => {
    const { page, context } = browser;
    await page.getByTestId('editor-share').click();
    const link = await page.getByTestId('share-link').inputValue();
    expect(link).toMatch(/\/workbench\/share-doc\?id=[A-Za-z0-9_-]+$/);
    await page.keyboard.press('Escape');
    const other = await context.newPage();
    await other.goto(link);
    await other.getByTestId('document-view').waitFor();
    await other.getByTestId('editor-read-only').waitFor();
    expect(await other.getByTestId('document-view').textContent()).toContain('他的成绩很好。');
    expect(await other.getByTestId('editor-save').count()).toBe(0);
    await other.close();
  });

  it('checks a 200-page document with visible progress and opens it in the editor', async () => {
    const { page } = browser;
    // a free account may check 20,000 characters per document: this one may check the whole report
    setRights(dataDir, phone, { 64: 1_000_000 });
    const { data, chars } = await longDocx(200);
    await page.goto(`${baseUrl}/workbench/document`);
    await page.getByTestId('documents-screen').waitFor();
    const started = Date.now();
    await page.getByTestId('upload-input').setInputFiles({
      name: '年度工作报告.docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      buffer: data,
    });
    const row = page.getByTestId('upload-row').filter({ hasText: '年度工作报告.docx' });
    // progress shows while the server checks it
    await expect.poll(() => row.getAttribute('data-phase'), { timeout: 60_000 }).toMatch(/processing|done/);
    await expect.poll(() => row.getAttribute('data-phase'), { timeout: 170_000, interval: 500 }).toBe('done');
    const checked = Date.now() - started;
    const opening = Date.now();
    await row.getByTestId('upload-open').click();
    const view = page.getByTestId('document-view');
    await view.locator('mark').first().waitFor({ timeout: 30_000 });
    const opened = Date.now() - opening;
    const marks = await view.locator('mark').count();
    console.log(
      `200-page document: ${chars} characters, upload -> done ` +
        `${(checked / 1000).toFixed(1)} s, editor open ${(opened / 1000).toFixed(2)} s,` +
        ` ${marks} findings marked`,
    );
    expect(marks).toBeGreaterThan(100);
    expect(Number(await page.getByTestId('finding-count').textContent())).toBe(marks);
    // the bound for opening the editor
    expect(opened).toBeLessThan(10_000);
    // moving to the next finding stays quick on a long document
    const stepStart = Date.now();
    await page.keyboard.press('Alt+ArrowDown');
    await page.locator('[data-testid="finding-item"][data-selected]').waitFor();
    await expect.poll(() => view.locator('mark[data-selected]').count()).toBe(1);
    console.log(`200-page document: next finding selected in ${Date.now() - stepStart} ms`);
    // accepting re-renders the document with its marks
    const acceptStart = Date.now();
    await page.keyboard.press('Alt+Enter');
    await expect.poll(async () => Number(await page.getByTestId('finding-count').textContent())).toBe(marks - 1);
    await expect.poll(() => view.locator('mark').count()).toBe(marks - 1);
    console.log(`200-page document: fix accepted and document re-rendered in ${Date.now() - acceptStart} ms`);
    await page.getByTestId('editor-back').click();
    await page.waitForURL(`${baseUrl}/workbench/document`);
  }, 240_000);

  it('deletes the documents after confirming', async () => {
    const { page } = browser;
    // (the previous test went back from the editor to the list)
    await page.waitForURL(`${baseUrl}/workbench/document`);
    for (const name of ['期末总结.docx', '年度工作报告.docx']) {
      const row = page.getByTestId('document-row').filter({ hasText: name });
      await row.getByTestId('document-delete').click();
      await page.getByRole('alertdialog').getByRole('button', { name: '确认' }).click();
      await row.waitFor({ state: 'detached' });
    }
    await page.getByTestId('documents-empty').waitFor();
  });
});

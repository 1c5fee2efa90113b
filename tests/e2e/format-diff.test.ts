// Format check and document compare in Chromium against the real server: a
// generated non-conforming GB/T 9704 .docx shows its violations with location, expected and found; two
// versions of a generated document show the changed paragraph, the character-level change and navigation.
import { AlignmentType, Document, LineRuleType, Packer, Paragraph, TextRun } from 'docx';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  openBrowser,
  screenshotLightAndDark,
  setRights,
  uniquePhone,
  registerInBrowser,
  type BrowserSession,
} from './browser';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const PASSWORD = 'e2e-format-123';
const phone = uniquePhone().replace(/^139/, '136');

let browser: BrowserSession;
const files = mkdtempSync(join(tmpdir(), 'wb-format-diff-'));

const font = (eastAsia: string) => ({ eastAsia, ascii: 'Times New Roman', hAnsi: 'Times New Roman' });
const para = (
  text: string,
  eastAsia: string,
  size: number,
  o: { center?: boolean; right?: boolean; indent?: boolean; color?: string } = {},
) =>
  new Paragraph({
    spacing: { line: 560, lineRule: LineRuleType.EXACT },
    alignment: o.center ? AlignmentType.CENTER : o.right ? AlignmentType.RIGHT : undefined,
    indent: o.indent ? { firstLineChars: 200 } : undefined,
    children: [new TextRun({ text, font: font(eastAsia), size, color: o.color })],
  });

/** A 通知 with Word's default margins, a black 标志, a 黑体 小二 title, an 汉字 date and no page numbers. */
async function nonConforming(): Promise<Buffer> {
  return Packer.toBuffer(
    new Document({
      sections: [
        {
          properties: {
            page: {
              size: { width: 11906, height: 16838 },
              margin: { top: 1440, left: 1800, right: 1800, bottom: 1440 },
            },
          },
          children: [
            para('××市人民政府文件', '方正小标宋简体', 72, { center: true }),
            para('×政发〔2024〕5号', '仿宋_GB2312', 32, { center: true }),
            para('关于开展安全生产检查的通知', '黑体', 36, { center: true }),
            para('各区县人民政府：', '仿宋_GB2312', 32),
            para('为做好安全生产工作，现将有关事项通知如下。', '仿宋_GB2312', 32, { indent: true }),
            para('一、检查范围', '黑体', 32, { indent: true }),
            para('全市各类企业都要开展自查。', '仿宋_GB2312', 32, { indent: true }),
            para('××市人民政府', '仿宋_GB2312', 32, { right: true }),
            para('二〇二四年三月一日', '仿宋_GB2312', 32, { right: true }),
          ],
        },
      ],
    }),
  );
}

const docx = (paragraphs: string[]) =>
  Packer.toBuffer(
    new Document({
      sections: [
        {
          children: paragraphs.map(
            (p) => new Paragraph({ children: [new TextRun({ text: p, font: font('仿宋_GB2312') })] }),
          ),
        },
      ],
    }),
  );

const V1 = [
  '关于召开年度工作会议的通知',
  '各部门：',
  '我们定于下周在次召开年度工作会议。',
  '请各部门提前准备汇报材料。',
  '会议期间请将手机调至静音。',
  '特此通知。',
];
const V2 = [
  '关于召开年度工作会议的通知',
  '各部门：',
  '我们定于下周再次召开年度工作会议。',
  '请各部门提前准备汇报材料。',
  '会议期间请将手机调至静音。',
  '请于周五前报送参会名单。',
  '特此通知。',
];

beforeAll(async () => {
  browser = await openBrowser();
  const { page } = browser;
  await registerInBrowser(page, baseUrl, dataDir, phone, PASSWORD);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  rmSync(files, { recursive: true, force: true });
});

/** Drops a file on an element the way a user dragging from the desktop does (DataTransfer with a File). */
async function dropFile(page: BrowserSession['page'], testId: string, name: string, data: Buffer) {
  const transfer = await page.evaluateHandle(
    ({ name, bytes }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(bytes)], name));
      return dt;
    },
    { name, bytes: [...data] },
  );
  const target = page.getByTestId(testId);
  await target.dispatchEvent('dragover', { dataTransfer: transfer });
  await target.dispatchEvent('drop', { dataTransfer: transfer });
}

describe('format check and document compare in Chromium', () => {
  it('checks a non-conforming GB/T 9704 document and lists each violation with where, expected and found', async () => {
    const { page } = browser;
    await page.goto(`${baseUrl}/workbench/format`);
    await page.getByTestId('format-empty').waitFor();
    await expect.poll(() => page.getByTestId('format-template').inputValue()).toBe('1');
    expect(await page.getByTestId('format-template').locator('option').first().textContent()).toContain(
      'GB/T 9704-2012',
    );

    const path = join(files, '非规范通知.docx');
    writeFileSync(path, await nonConforming());
    // a slow uplink, so the upload's progress is visible before the server's processing state
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 50,
      downloadThroughput: -1,
      uploadThroughput: 6 * 1024,
    });
    // every phase and progress text the status line shows, recorded in the page as it changes (a test process
    // starved of CPU could poll past a phase that lasts a second or two)
    await page.evaluate(() => {
      const seen: string[] = [];
      const texts: string[] = [];
      Object.assign(window, { phases: seen, progressTexts: texts });
      new MutationObserver(() => {
        const line = document.querySelector('[data-testid="format-upload-progress"]');
        const phase = line?.getAttribute('data-phase');
        if (phase && seen[seen.length - 1] !== phase) seen.push(phase);
        if (line?.textContent && texts[texts.length - 1] !== line.textContent) texts.push(line.textContent);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    try {
      await page.getByTestId('format-drop-input').setInputFiles(path);
      await page.getByTestId('format-report').waitFor({ timeout: 30_000 });
    } finally {
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
    }
    const recorded = await page.evaluate(() => {
      const w = window as Window & { phases?: string[]; progressTexts?: string[] };
      return { phases: w.phases ?? [], texts: w.progressTexts ?? [] };
    });
    // bytes first, with their percentage, then the server's processing state until the report came
    expect(recorded.phases).toEqual(['uploading', 'processing']);
    expect(recorded.texts.some((t) => /正在上传… \d+%/.test(t))).toBe(true);
    expect(await page.getByTestId('format-upload-progress').count()).toBe(0);
    expect(Number((await page.getByTestId('format-error-count').textContent())?.replace(/\D/g, ''))).toBeGreaterThan(3);

    // page settings: the top margin, expected 37 mm, found Word's 25.4 mm
    const pageGroup = page.locator('[data-testid="format-group"][data-paragraph="page"]');
    expect(await pageGroup.getByTestId('format-group-location').textContent()).toBe('页面设置');
    const margin = pageGroup.locator('[data-rule="margin-top"]');
    expect(await margin.getByTestId('violation-expected').textContent()).toContain('37.0mm');
    expect(await margin.getByTestId('violation-found').textContent()).toBe('25.4mm');
    expect(await pageGroup.locator('[data-rule="page-number"]').getByTestId('violation-found').textContent()).toBe(
      '无页码',
    );

    // the title (paragraph 3): wrong font and size, located with its snippet
    const title = page.locator('[data-testid="format-group"][data-paragraph="2"]');
    expect(await title.getByTestId('format-group-location').textContent()).toBe('第 3 段');
    expect(await title.getByTestId('format-group-excerpt').textContent()).toContain('关于开展安全生产检查的通知');
    const size = title.locator('[data-rule="size"]');
    expect(await size.getByTestId('violation-expected').textContent()).toBe('二号 22磅');
    expect(await size.getByTestId('violation-found').textContent()).toBe('小二 18磅');
    expect(await title.locator('[data-rule="font"]').getByTestId('violation-expected').textContent()).toContain(
      '小标宋',
    );
    expect(await title.locator('[data-rule="font"]').getByTestId('violation-found').textContent()).toBe('黑体');

    // 成文日期 in 汉字 (paragraph 9)
    const date = page.locator('[data-testid="format-group"][data-paragraph="8"]');
    expect(await date.locator('[data-rule="pattern"]').getByTestId('violation-expected').textContent()).toContain(
      '阿拉伯数字',
    );
    expect(await date.locator('[data-rule="pattern"]').getByTestId('violation-found').textContent()).toBe(
      '二〇二四年三月一日',
    );

    // the filters: only warnings (the black 发文机关标志, the date at the right margin), only errors
    await page.getByTestId('format-filter-warning').click();
    const rules = () =>
      page
        .getByTestId('format-violation')
        .evaluateAll((items) => items.map((i) => `${i.getAttribute('data-severity')}:${i.getAttribute('data-rule')}`));
    await expect.poll(rules).toEqual(['warning:color', 'warning:date-position']);
    const severities = () =>
      page.getByTestId('format-violation').evaluateAll((items) => items.map((i) => i.getAttribute('data-severity')));
    await page.getByTestId('format-filter-error').click();
    await expect.poll(async () => (await severities()).every((x) => x === 'error')).toBe(true);
    expect((await severities()).length).toBe(
      Number((await page.getByTestId('format-error-count').textContent())?.replace(/\D/g, '')),
    );
    await page.getByTestId('format-filter-all').click();
    await screenshotLightAndDark(page, 'format', true);
  });

  it('refuses a disguised file with the server’s message; retry sends it again', async () => {
    const { page } = browser;
    const path = join(files, 'program.docx');
    writeFileSync(path, Buffer.from('MZ\x90\x00 this is a program'));
    await page.getByTestId('format-drop-input').setInputFiles(path);
    await page.getByTestId('format-upload-failed').waitFor();
    expect(await page.getByTestId('format-upload-error').textContent()).toContain('可执行文件');
    expect(await page.getByTestId('format-report').count()).toBe(0);
    const sent = page.waitForRequest((r) => r.url().includes('/misscut/v1/doc/format_check') && r.method() === 'POST');
    await page.getByTestId('format-upload-retry').click();
    await sent;
    await page.getByTestId('format-upload-failed').waitFor();
  });

  it(
    'compares two versions side by side, highlights the character change and ' + 'navigates between differences',
    async () => {
      const { page } = browser;
      await page.goto(`${baseUrl}/workbench/diff`);
      await page.getByTestId('diff-empty').waitFor();
      await expect
        .poll(() => page.getByTestId('diff-limits').textContent())
        .toMatch(/剩余比对次数：5 次 · 每份文件不超过 200 页、20 MB/);
      expect(await page.getByTestId('diff-compare').isDisabled()).toBe(true);

      const v1 = join(files, '通知-第一稿.docx');
      writeFileSync(v1, await docx(V1));
      await page.getByTestId('diff-original-drop-input').setInputFiles(v1);
      await dropFile(page, 'diff-revised-drop', '通知-第二稿.docx', await docx(V2));
      await expect.poll(() => page.getByTestId('diff-revised-drop-name').textContent()).toContain('通知-第二稿.docx');
      await page.getByTestId('diff-compare').click();
      await page.getByTestId('diff-view').waitFor({ timeout: 30_000 });

      expect(await page.getByTestId('diff-change-count').textContent()).toBe('共 2 处差异');
      const changed = page.locator('[data-testid="diff-row"][data-status="changed"]');
      expect(await changed.count()).toBe(1);
      expect(await changed.getByTestId('diff-del').textContent()).toBe('在');
      expect(await changed.getByTestId('diff-ins').textContent()).toBe('再');
      expect(await changed.getByTestId('diff-original').textContent()).toContain('我们定于下周在次召开年度工作会议。');
      const inserted = page.locator('[data-testid="diff-row"][data-status="inserted"]');
      expect(await inserted.getByTestId('diff-ins').textContent()).toBe('请于周五前报送参会名单。');
      await expect.poll(() => page.getByTestId('diff-limits').textContent()).toContain('剩余比对次数：4 次');

      // navigation: the button, then the keyboard
      await page.getByTestId('diff-next').click();
      expect(await page.getByTestId('diff-position').textContent()).toBe('第 1 / 2 处');
      expect(await page.locator('[data-current]').evaluateAll((els) => els.map((e) => e.textContent))).toEqual([
        '在',
        '再',
      ]);
      expect(await page.getByTestId('diff-current-summary').textContent()).toBe('“在” 改为 “再”');
      await page.keyboard.press('Alt+ArrowDown');
      await expect.poll(() => page.getByTestId('diff-position').textContent()).toBe('第 2 / 2 处');
      expect(await page.locator('ins[data-current]').textContent()).toBe('请于周五前报送参会名单。');
      await page.keyboard.press('k');
      await expect.poll(() => page.getByTestId('diff-position').textContent()).toBe('第 1 / 2 处');

      await screenshotLightAndDark(page, 'diff', true);
    },
  );

  it('shows the server’s limit message when a file is over the compare limits', async () => {
    const { page } = browser;
    const big = join(files, '很长的文档.txt');
    // about 250 pages at 616 characters a page: over the default 200-page limit
    writeFileSync(big, '这是一个用来测试页数上限的很长的段落。\n'.repeat(8200));
    await page.getByTestId('diff-original-drop-input').setInputFiles(big);
    await page.getByTestId('diff-compare').click();
    await page.getByTestId('diff-upload-failed').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('diff-upload-error').textContent()).toMatch(
      /比对文件不能超过 200 页（很长的文档\.txt 约 \d+ 页）/,
    );
    // nothing was consumed
    await expect.poll(() => page.getByTestId('diff-limits').textContent()).toContain('剩余比对次数：4 次');
  });

  it('with no compares left, says so and opens the quota dialog', async () => {
    const { page } = browser;
    setRights(dataDir, phone, { 4096: 0 });
    await page.reload();
    await expect.poll(() => page.getByTestId('diff-limits').textContent()).toContain('剩余比对次数：0 次');
    const v1 = join(files, 'a.txt');
    const v2 = join(files, 'b.txt');
    writeFileSync(v1, '甲乙丙');
    writeFileSync(v2, '甲乙丁');
    await page.getByTestId('diff-original-drop-input').setInputFiles(v1);
    await page.getByTestId('diff-revised-drop-input').setInputFiles(v2);
    await page.getByTestId('diff-compare').click();
    await page.getByTestId('quota-dialog').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('diff-upload-error').textContent()).toBe('文档比对次数已用完');
  });
});

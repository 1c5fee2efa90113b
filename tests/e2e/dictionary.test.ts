// The personal dictionary in Chromium against the real server: add, inline edit and delete
// with the confirm dialog, import a file with bad rows, see the summary, download the failures file and read
// it, then the imported wrong word is flagged by a check on the home screen.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  openBrowser,
  registerInBrowser,
  runHomeCheck,
  screenshotLightAndDark,
  uniquePhone,
  type BrowserSession,
} from './browser';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const PASSWORD = 'e2e-dict-123';
const phone = uniquePhone().replace(/^139/, '136');

let browser: BrowserSession;
const rowsOf = (page: BrowserSession['page']) =>
  page.getByTestId('dict-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-word')));

beforeAll(async () => {
  browser = await openBrowser();
  const { page } = browser;
  await registerInBrowser(page, baseUrl, dataDir, phone, PASSWORD);
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe('personal dictionary in Chromium', () => {
  it('starts empty; adds, edits inline (keyboard) and deletes with the confirm dialog', async () => {
    const { page } = browser;
    await page.goto(`${baseUrl}/workbench/dictionary`);
    await page.getByTestId('dictionary-screen').waitFor();
    await page.getByTestId('dict-empty').waitFor();

    // a wrong word needs its correction: the form says so before calling the server
    await page.getByTestId('dict-add-word').fill('测试词');
    await page.getByTestId('dict-add-submit').click();
    await expect.poll(() => page.getByTestId('dict-add-error').textContent()).toBe('错词须填写正确写法');
    await page.getByTestId('dict-add-type').selectOption('4');
    await page.getByTestId('dict-add-word').press('Enter');
    await expect.poll(() => rowsOf(page)).toEqual(['测试词']);

    // inline edit: Enter saves
    await page.getByTestId('dict-edit').click();
    await page.getByTestId('dict-edit-word').fill('测试词二');
    await page.getByTestId('dict-edit-word').press('Enter');
    await expect.poll(() => rowsOf(page)).toEqual(['测试词二']);

    // delete: 取消 keeps it, 确认 deletes it
    await page.getByTestId('dict-delete').click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByRole('button', { name: '取消' }).click();
    await expect.poll(() => rowsOf(page)).toEqual(['测试词二']);
    await page.getByTestId('dict-delete').click();
    await page.getByRole('alertdialog').getByRole('button', { name: '确认' }).click();
    await page.getByTestId('dict-empty').waitFor();
  });

  it('imports a file with bad rows, shows the summary and downloads the failures with their reasons', async () => {
    const { page } = browser;
    const dir = mkdtempSync(join(tmpdir(), 'dict-e2e-'));
    const file = join(dir, '我的词库.csv');
    writeFileSync(
      file,
      ['word,type,correct', '张小明,5,张晓明', '内部代号甲,4,', ',9,', '缺正确写法,5,', '项目乙,重点词,'].join('\r\n'),
    );
    await page.getByTestId('dict-import-drop-input').setInputFiles(file);
    const summary = page.getByTestId('dict-import-summary');
    await summary.waitFor({ timeout: 20_000 });
    await expect.poll(() => summary.textContent()).toContain('共 5 行，导入 3 条，失败 2 条');
    const failures = await page.getByTestId('dict-import-failures').locator('li').allTextContents();
    expect(failures).toHaveLength(2);
    expect(failures[0]).toContain('第 4 行');
    expect(failures[1]).toContain('缺正确写法');
    // the table shows the imported words at once
    await expect.poll(async () => (await rowsOf(page)).sort()).toEqual(['内部代号甲', '张小明', '项目乙']);

    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 15_000 }),
      page.getByTestId('dict-import-download-failed').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const saved = join(dir, 'failures.csv');
    await download.saveAs(saved);
    const lines = readFileSync(saved, 'utf8')
      .replace(/^\ufeff/, '')
      .trim()
      .split(/\r\n/);
    expect(lines[0]).toBe('word,type,correct,reason,line');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^,9,,词语为空.*,4$/);
    expect(lines[2]).toMatch(/^缺正确写法,5,,错词缺少正确写法.*,5$/);

    await screenshotLightAndDark(page, 'dictionary', true);
  }, 60_000);

  it('flags the imported wrong word in the next check on the home screen', async () => {
    const { page } = browser;
    await page.goto(`${baseUrl}/workbench/`);
    await page.getByTestId('home-screen').waitFor();
    const editor = page.getByTestId('proofread-editor');
    await editor.focus();
    await page.keyboard.insertText('今天张小明来公司报到。');
    await runHomeCheck(page);
    const finding = page.locator('[data-testid="finding-item"][data-original="张小明"]');
    await finding.waitFor({ timeout: 15_000 });
    await expect.poll(() => finding.getByTestId('finding-suggestion').first().textContent()).toBe('张晓明');
  }, 60_000);

  it(
    'pages, filters by type, exports, selects many, empties with confirm, and ' + 'keeps a word library selection',
    async () => {
      const { page } = browser;
      await page.goto(`${baseUrl}/workbench/dictionary`);
      await page.getByTestId('dictionary-screen').waitFor();
      // 25 key words from a .txt without a type column: the type chosen on the screen applies
      const dir = mkdtempSync(join(tmpdir(), 'dict-e2e-'));
      const file = join(dir, 'keys.txt');
      writeFileSync(file, Array.from({ length: 25 }, (_, i) => `关键词${String(i).padStart(2, '0')}`).join('\n'));
      await page.getByTestId('dict-import-type').selectOption('9');
      await page.getByTestId('dict-import-drop-input').setInputFiles(file);
      await expect
        .poll(() => page.getByTestId('dict-import-summary').textContent(), { timeout: 20_000 })
        .toContain('导入 25 条，失败 0 条');
      await expect.poll(() => page.getByTestId('dict-total').textContent()).toContain('28');
      await expect.poll(() => page.getByTestId('dict-page').textContent()).toBe('第 1 / 2 页');
      expect(await page.getByTestId('dict-row').count()).toBe(20);
      await page.getByTestId('dict-next').click();
      await expect.poll(() => page.getByTestId('dict-page').textContent()).toBe('第 2 / 2 页');
      await expect.poll(() => page.getByTestId('dict-row').count()).toBe(8);

      // type filter and search
      await page.getByTestId('dict-filter-type').selectOption('5');
      await expect.poll(() => rowsOf(page)).toEqual(['张小明']);
      await page.getByTestId('dict-filter-type').selectOption('0');
      await page.getByTestId('dict-search').fill('关键词2');
      await expect
        .poll(async () => (await rowsOf(page)).sort())
        .toEqual(['关键词20', '关键词21', '关键词22', '关键词23', '关键词24']);

      // select the page and delete the selection (confirm dialog)
      await page.getByTestId('dict-select-page').check({ force: true });
      await page.getByTestId('dict-delete-selected').click();
      await page.getByRole('alertdialog').getByRole('button', { name: '确认' }).click();
      await page.getByTestId('dict-empty').waitFor();
      await page.getByTestId('dict-search').fill('');
      await expect.poll(() => page.getByTestId('dict-total').textContent()).toContain('23');

      // export: a real .xlsx (a zip) of the whole dictionary
      await page.getByTestId('dict-export').click();
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 15_000 }),
        page.getByTestId('dict-export-xlsx').click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
      const saved = join(dir, 'export.xlsx');
      await download.saveAs(saved);
      expect(readFileSync(saved).subarray(0, 2).toString('latin1')).toBe('PK');

      // empty the dictionary: 取消 keeps everything, 确认 empties it
      await page.getByTestId('dict-delete-all').click();
      await page.getByRole('alertdialog').getByRole('button', { name: '取消' }).click();
      await expect.poll(() => page.getByTestId('dict-total').textContent()).toContain('23');
      await page.getByTestId('dict-delete-all').click();
      await page.getByRole('alertdialog').getByRole('button', { name: '确认' }).click();
      await page.getByTestId('dict-empty').waitFor();

      // a word library: selected, and still selected after a reload
      const medicine = page.getByTestId('dict-library-4');
      await expect.poll(() => medicine.getAttribute('data-selected')).toBe('false');
      await medicine.click();
      await expect.poll(() => medicine.getAttribute('data-selected')).toBe('true');
      await page.reload();
      await expect.poll(() => page.getByTestId('dict-library-4').getAttribute('data-selected')).toBe('true');
    },
    90_000,
  );
});

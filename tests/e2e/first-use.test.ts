// What a user meets first, in Chromium against the real server and engine: a free user pasting more than one check
// allows is told the limit (not that the quota is used up) and checks the text in two parts with findings in both;
// an operator's unlimited balance reads 不限 on the home screen and on /right, also after a check.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  adminCli,
  dismissGuide,
  openBrowser,
  registerInBrowser,
  runHomeCheck,
  screenshotPath,
  uniquePhone,
  type BrowserSession,
} from './browser';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const PASSWORD = 'e2e-first-123';

// 70 paragraphs (6,789 characters): the first has an error the engine finds (成积 -> 成绩), the last another
// (跑的很快 -> 跑得很快); the engine leaves an error repeated all over a text alone, so there is one of each
const FILLER = '今天天气很好，我们一起去公园散步。'.repeat(5);
const PARAGRAPHS = Array.from({ length: 70 }, (_, i) => {
  const end = i === 0 ? '他的成积很好。' : i === 69 ? '他跑的很快。' : '大家都很开心。';
  return `第${String(i + 1).padStart(2, '0')}段。${FILLER}${end}`;
});
const TEXT = PARAGRAPHS.join('\n');

let free: BrowserSession;
let operator: BrowserSession;

beforeAll(async () => {
  [free, operator] = await Promise.all([openBrowser(), openBrowser()]);
  await registerInBrowser(free.page, baseUrl, dataDir, uniquePhone().replace(/^139/, '136'), PASSWORD);
  const operatorPhone = uniquePhone().replace(/^139/, '135');
  await adminCli(dataDir, 'user', 'create', '--phone', operatorPhone, '--password', PASSWORD, '--role', 'root');
  const { page } = operator;
  await page.goto(`${baseUrl}/workbench/login`);
  const form = page.getByRole('form', { name: '登录' });
  await form.locator('input[name="phone"]').fill(operatorPhone);
  await form.locator('input[name="password"]').fill(PASSWORD);
  await form.getByRole('button', { name: '登录' }).click();
  await page.waitForURL(`${baseUrl}/workbench/`);
  await dismissGuide(page);
}, 120_000);
afterAll(async () => {
  await Promise.all([free?.close(), operator?.close()]);
});

const findingsOf = (page: BrowserSession['page']) =>
  page.getByTestId('finding-item').evaluateAll((items) => items.map((i) => i.getAttribute('data-original')));

describe('a free user pastes more than one check allows', () => {
  it('is told 单次最多校对 5,000 字, checks the first part, then the rest, with findings in both', async () => {
    const { page } = free;
    await page.getByTestId('proofread-editor').focus();
    await page.keyboard.insertText(TEXT);
    await page.getByTestId('check-button').click();
    const choice = page.getByTestId('too-long');
    await choice.waitFor({ timeout: 30_000 });
    expect(await choice.textContent()).toContain('单次最多校对 5,000 字');
    expect(await choice.textContent()).toContain('这段文字有 6,789 字');
    expect(await page.getByTestId('quota-dialog').count()).toBe(0);
    expect(await page.locator('body').textContent()).not.toContain('已经用完');
    await page.screenshot({ path: screenshotPath('too-long-choice.png') });

    // the first part: 51 whole paragraphs (4,947 characters), charged as it runs
    await page.getByTestId('check-first-part').click();
    const screen = page.getByTestId('home-screen');
    await screen.locator('xpath=self::*[@data-job="done"]').waitFor({ timeout: 90_000 });
    await expect.poll(() => findingsOf(page)).toEqual(['积']);
    expect(await page.getByTestId('check-rest').textContent()).toContain('还有 1,842 字');
    await expect.poll(() => page.getByTestId('quota-remaining').textContent()).toContain('15,053 字');

    // the rest with one more click
    await page.getByTestId('check-rest-button').click();
    await page.getByTestId('check-rest').waitFor({ state: 'detached' });
    await screen.locator('xpath=self::*[@data-job="done"]').waitFor({ timeout: 90_000 });
    await expect.poll(() => findingsOf(page)).toEqual(['积', '的']);
    // each finding marks its characters where they are in the whole text
    const marked = await page
      .getByTestId('editor-backdrop')
      .locator('mark')
      .evaluateAll((marks) => marks.map((m) => m.textContent));
    expect(marked).toEqual(['积', '的']);
    const places = await page
      .getByTestId('editor-backdrop')
      .locator('mark')
      .evaluateAll((marks) =>
        marks.map((m) => {
          const line = m.closest('[data-line]');
          return [Number(line?.getAttribute('data-line')), line?.textContent?.indexOf(m.textContent ?? '') ?? -1];
        }),
      );
    expect(places).toEqual([
      [0, PARAGRAPHS[0].indexOf('积')],
      [69, PARAGRAPHS[69].indexOf('的')],
    ]);
    expect(await page.getByTestId('check-rest').count()).toBe(0);
    await expect.poll(() => page.getByTestId('quota-remaining').textContent()).toContain('13,211 字');
  }, 240_000);
});

describe("an operator's unlimited rights", () => {
  it('read 不限 on the home screen and on /right, also after a check', async () => {
    const { page } = operator;
    await expect.poll(() => page.getByTestId('quota-remaining').textContent()).toContain('不限');
    await page.getByTestId('proofread-editor').focus();
    await page.keyboard.insertText(PARAGRAPHS[0]);
    await runHomeCheck(page);
    await expect.poll(() => findingsOf(page)).toEqual(['积']);
    await page.waitForTimeout(500);
    await expect.poll(() => page.getByTestId('quota-remaining').textContent()).toContain('不限');
    expect(await page.getByTestId('quota-remaining').textContent()).not.toMatch(/9{5}/);

    await page.goto(`${baseUrl}/workbench/right`);
    await page.getByTestId('right-balances').waitFor();
    const amounts = await page.getByTestId('right-amount').allTextContents();
    expect(amounts.length).toBeGreaterThan(10);
    for (const a of amounts) expect(a).not.toMatch(/9{5}/);
    const highSpeed = page.locator('[data-testid="right-balance"][data-type="1"] [data-testid="right-amount"]');
    expect(await highSpeed.textContent()).toBe('不限');
    const publication = page.locator('[data-testid="right-balance"][data-type="65536"] [data-testid="right-amount"]');
    expect(await publication.textContent()).toBe('不限');
    await page.screenshot({ path: screenshotPath('operator-right.png') });
  }, 120_000);
});

// AI writing in Chromium against the real server, which talks to a local fake of an OpenAI-compatible chat service
// (started by the browser tests' global setup; the real one is an outside, paid service): a polish streams in, is
// proofread in place, its typo accepted, and the corrected result inserted into the draft at the caret.
import { describe, expect, inject, it } from 'vitest';
import { FAKE_REPLY } from '../fixtures/fake-chat';
import { screenshotLightAndDark, useNewUser } from './browser';

const baseUrl = inject('baseUrl');
const user = useNewUser();

describe('AI writing in Chromium', () => {
  it('streams a polish, proofreads it, accepts the fix and inserts it into the draft', async () => {
    const { page } = user.session;
    await page.getByTestId('side-bar').getByRole('link', { name: 'AI 写作' }).click();
    await page.waitForURL(`${baseUrl}/workbench/ai`);
    const screen = page.getByTestId('ai-screen');
    await screen.waitFor();
    // the free trial's characters are shown
    await expect.poll(() => page.getByTestId('ai-quota').textContent()).toContain('剩余 2,000 字');

    await page.getByTestId('ai-draft').fill('开头。结尾。');
    await page.getByTestId('ai-input').fill('这个方案须要进一步完善。');
    await page.locator('[data-testid="ai-function"][data-id="polish"]').click();
    await page.getByTestId('ai-generate').click();
    await page.locator('[data-testid="ai-screen"][data-state="ready.done"]').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('ai-output').textContent()).toBe(FAKE_REPLY);
    expect(await page.getByTestId('ai-used').textContent()).toContain(String([...FAKE_REPLY].length));

    await page.getByTestId('ai-proofread').click();
    const typo = page.locator('[data-testid="ai-checked"] [data-testid="finding-item"][data-original="提"]');
    await typo.waitFor({ timeout: 30_000 });
    await typo.click();
    await typo.getByTestId('finding-accept').click();
    const corrected = FAKE_REPLY.replace('问提', '问题');
    await expect.poll(() => page.getByTestId('ai-output').textContent()).toBe(corrected);
    await screenshotLightAndDark(page, 'ai-writing');

    // the caret after 开头。: the corrected result goes there
    await page.getByTestId('ai-draft').evaluate((area: HTMLTextAreaElement) => area.setSelectionRange(3, 3));
    await page.getByTestId('ai-insert').click();
    await expect.poll(() => page.getByTestId('ai-draft').inputValue()).toBe(`开头。${corrected}结尾。`);
    // what was written is charged: the balance went down by the result's characters
    await expect
      .poll(() => page.getByTestId('ai-quota').textContent())
      .toContain(`剩余 ${(2000 - [...FAKE_REPLY].length).toLocaleString('en')} 字`);
  }, 90_000);
});

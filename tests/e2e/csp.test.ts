// The Content-Security-Policy against the built SPA in Chromium: the policy is in force (an injected inline script
// is refused), yet the login screen, the workbench home with a check over the socket, the user page (avatar from a
// blob: URL), a document with a picture (data: URL) in the editor and the other screens run without a violation.
import { Document, ImageRun, Packer, Paragraph, TextRun } from 'docx';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ConsoleMessage } from 'playwright-core';
import { tinyPng } from '../fixtures/png';
import { openBrowser, registerInBrowser, runHomeCheck, uniquePhone, type BrowserSession } from './browser';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const PASSWORD = 'e2e-csp-123';
const phone = uniquePhone().replace(/^139/, '136');

interface Violation {
  directive: string;
  blocked: string;
  sample: string;
}

declare global {
  interface Window {
    __cspViolations?: Violation[];
    __inlineRan?: number;
  }
}

let browser: BrowserSession;
/** Chromium reports each refusal on the console too ("Refused to ... because it violates ..."). */
const consoleRefusals: string[] = [];
const scriptsLoaded: string[] = [];

beforeAll(async () => {
  browser = await openBrowser();
  const { context, page } = browser;
  // Injected by the browser itself (not a page script), so the policy under test does not apply to it.
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__cspViolations!.push({ directive: e.effectiveDirective, blocked: e.blockedURI, sample: e.sample });
    });
  });
  page.on('console', (message: ConsoleMessage) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) consoleRefusals.push(message.text());
  });
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scriptsLoaded.push(`${response.status()} ${response.url()}`);
  });
});

afterAll(async () => {
  await browser?.close();
});

const violations = () => browser.page.evaluate(() => window.__cspViolations ?? []);

const pictureDocx = () =>
  Packer.toBuffer(
    new Document({
      sections: [
        {
          children: [
            new Paragraph({ children: [new TextRun('他的成积很好。')] }),
            new Paragraph({
              children: [new ImageRun({ type: 'png', data: tinyPng(2), transformation: { width: 40, height: 40 } })],
            }),
          ],
        },
      ],
    }),
  );

describe('the Content-Security-Policy in Chromium', () => {
  it('is sent with the SPA and refuses an injected inline script', async () => {
    const { page } = browser;
    const response = await page.goto(`${baseUrl}/workbench/login`);
    const csp = response!.headers()['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    await page.getByRole('form', { name: '登录' }).waitFor();
    const ran = await page.evaluate(async () => {
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = 1';
      document.head.append(script);
      await new Promise((r) => setTimeout(r, 50));
      return window.__inlineRan ?? 0;
    });
    expect(ran).toBe(0);
    const refused = expect.objectContaining({ directive: 'script-src-elem', blocked: 'inline' });
    await expect.poll(violations).toEqual([refused]);
    expect(consoleRefusals.length).toBeGreaterThan(0);
  });

  it('renders the login screen without a violation, the theme script coming from a file', async () => {
    const { page } = browser;
    consoleRefusals.length = 0;
    await page.goto(`${baseUrl}/workbench/login`);
    await page.getByRole('form', { name: '登录' }).waitFor();
    await page.getByRole('tab', { name: '注册' }).click();
    await page.getByRole('form', { name: '注册' }).waitFor();
    expect(scriptsLoaded).toContain(`200 ${baseUrl}/workbench/theme-init.js`);
    // the page's icon is a file of the build, served under the base path as an image
    const icon = await page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.href);
    expect(icon).toBe(`${baseUrl}/workbench/favicon.svg`);
    const served = await page.request.get(icon!);
    expect(served.status()).toBe(200);
    expect(served.headers()['content-type']).toMatch(/^image\/svg\+xml/);
    // the theme script ran before the app: the root element carries a theme class
    expect(await page.evaluate(() => document.documentElement.className)).toMatch(/\b(light|dark)\b/);
    expect(await violations()).toEqual([]);
    expect(consoleRefusals).toEqual([]);
  });

  it('registers, checks a text over the socket and visits the other screens without a violation', async () => {
    const { page } = browser;
    await registerInBrowser(page, baseUrl, dataDir, phone, PASSWORD);
    await page.getByTestId('proofread-editor').focus();
    await page.keyboard.insertText('他的成积很好。');
    await runHomeCheck(page);
    if ((await page.getByTestId('finding-item').count()) === 0) {
      // Twice on a loaded CI machine the first check of this file ended with nothing found: say what the page said
      // (a paragraph the checker failed on is reported in a toast and not charged), then check once more.
      const toasts = await page.getByTestId('toast').allTextContents();
      console.log(`the first check found nothing; the page said: ${JSON.stringify(toasts)}`);
      await runHomeCheck(page);
    }
    expect(await page.getByTestId('finding-item').count()).toBeGreaterThan(0);

    await page.getByTestId('side-bar').getByRole('link', { name: '个人中心' }).click();
    await page.waitForURL(`${baseUrl}/workbench/user`);
    // the avatar: an image fetched with the token and shown from a blob: URL (img-src blob:)
    await page.locator('main img[src^="blob:"]').first().waitFor({ state: 'visible' });

    for (const [name, path] of [
      ['我的词库', 'dictionary'],
      ['下载中心', 'download'],
      ['我的权益', 'right'],
      ['升级会员', 'upgrade'],
    ]) {
      await page.getByTestId('side-bar').getByRole('link', { name }).click();
      await page.waitForURL(`${baseUrl}/workbench/${path}`);
      await page.waitForLoadState('networkidle');
    }

    expect(await violations()).toEqual([]);
    expect(consoleRefusals).toEqual([]);
  });

  it('shows an uploaded document with its picture (a data: URL) in the editor without a violation', async () => {
    const { page } = browser;
    await page.getByTestId('side-bar').getByRole('link', { name: '我的文档' }).click();
    await page.waitForURL(`${baseUrl}/workbench/document`);
    await page.getByTestId('upload-input').setInputFiles({
      name: '带图片.docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      buffer: await pictureDocx(),
    });
    const doc = page.getByTestId('document-row').filter({ hasText: '带图片.docx' });
    await expect.poll(() => doc.getAttribute('data-status'), { timeout: 30_000 }).toBe('done');
    await doc.getByTestId('document-open').click();
    await page.waitForURL(/\/workbench\/editor\?id=\d+$/);
    const picture = page.getByTestId('document-view').locator('img[src^="data:image/"]');
    await picture.waitFor();
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(2);

    expect(await violations()).toEqual([]);
    expect(consoleRefusals).toEqual([]);
  });
});

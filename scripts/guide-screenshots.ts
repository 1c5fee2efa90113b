// `npm run guide:screenshots`: the guide's pictures (public/guide/<slide>-<theme>.jpg), taken of this product in
// Chromium, in the light and the dark theme. A server with a fresh database serves the built SPA; a user checks a
// text, adds words, checks a PDF and has the AI assistant (a local stand-in for a chat service) polish a sentence,
// and each screen is photographed. Run it again when the screens change; the pictures are committed.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { buildApp } from '../server/app';
import { buildSpaIfStale, SPA_DIR } from './spa-build.mjs';
import { startFakeChat } from '../tests/fixtures/fake-chat';
import { makePdf } from '../tests/fixtures/pdf';
import { lastSmsCode } from '../tests/server/helpers';

const OUT = join(import.meta.dirname, '..', 'public', 'guide');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const PHONE = '13900009999';
const TEXT =
  '请各部门认真研究群众反映的问提，在月底前拿出整改方案。\n会议强调，要以踏实的作风推进各项工作落实，防范于未燃。';

async function main() {
  await buildSpaIfStale();
  const chat = await startFakeChat();
  process.env.AI_URL = chat.url;
  const dataDir = mkdtempSync(join(tmpdir(), 'guide-shots-'));
  const app = await buildApp({ dataDir, logger: false, config: { spaDir: SPA_DIR } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const api = async (method: 'GET' | 'POST', url: string, body?: unknown, token?: string) => {
    const res = await app.inject({
      method,
      url,
      headers: { cid: 'guide-shots', endpoint: '1', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
    });
    return res.json();
  };
  await api('POST', '/user/sms_code', { phone: PHONE, purpose: 'register' });
  const code = lastSmsCode(dataDir, PHONE, 'register');
  const token = (await api('POST', '/user/register', { phone: PHONE, code, password: 'secret123' })).result.token;
  // the guide itself must not cover the screens it shows
  await api('GET', '/wizard/v1/access?type=1&ver=001.001.004', undefined, token);
  for (const [word, correct] of [
    ['防范于未燃', '防患于未然'],
    ['问提', '问题'],
  ])
    await api('POST', '/dict/v1/add_one', { word, correct, type: 5 }, token);

  mkdirSync(OUT, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
  const page = await context.newPage();
  const shoot = async (id: string) => {
    for (const theme of ['light', 'dark'] as const) {
      await page.getByTestId(`theme-${theme}`).click();
      await page.waitForFunction((t) => document.documentElement.classList.contains(t), theme);
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(OUT, `${id}-${theme}.jpg`), type: 'jpeg', quality: 72 });
    }
    console.log(`guide/${id}: light and dark`);
  };
  const go = async (path: string, ready: string) => {
    await page.goto(`${base}/workbench${path}`);
    await page.getByTestId(ready).first().waitFor({ timeout: 30_000 });
  };

  await page.goto(`${base}/workbench/?token=${encodeURIComponent(token)}`);
  await page.getByTestId('home-screen').waitFor();
  await go('/dictionary', 'dict-row');
  await shoot('setup');

  await go('/', 'home-screen');
  await page.getByTestId('proofread-editor').focus();
  await page.keyboard.insertText(TEXT);
  await page.getByTestId('check-button').click();
  await page.locator('[data-testid="home-screen"][data-job="done"]').waitFor({ timeout: 60_000 });
  await page.getByTestId('finding-item').first().click();
  await shoot('text');

  await go('/link', 'link-screen');
  await shoot('link');

  await go('/ai', 'ai-screen');
  await page.getByTestId('ai-draft').fill('关于开展安全生产大检查的通知\n\n');
  await page.getByTestId('ai-input').fill('这个方案须要进一步完善，请大家抓紧研究。');
  await page.getByTestId('ai-generate').click();
  await page.locator('[data-testid="ai-screen"][data-state="ready.done"]').waitFor();
  await page.getByTestId('ai-proofread').click();
  await page.getByTestId('finding-item').first().waitFor({ timeout: 30_000 });
  await shoot('ai');

  const pdf = makePdf([{ kind: 'text', lines: TEXT.split('\n') }]);
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), '整改通知.pdf');
  const uploaded = await fetch(`${base}/misscut/v2/pdf_check/upload`, {
    method: 'POST',
    headers: { cid: 'guide-shots', endpoint: '1', authorization: `Bearer ${token}` },
    body: form,
  }).then((r) => r.json());
  const id = uploaded.result.id;
  for (let i = 0; i < 120; i++) {
    const result = await api('GET', `/misscut/v2/pdf_check/result?id=${id}`, undefined, token);
    if (result.result?.status === 'done') break;
    await new Promise((r) => setTimeout(r, 500));
  }
  await go(`/pdfdetail?id=${id}`, 'pdf-page-image');
  await page.waitForTimeout(500);
  await shoot('pdf');

  await browser.close();
  await app.close();
  await chat.close();
  const { checkerPool } = await import('../server/workers/checker/pool');
  await checkerPool().close();
  rmSync(dataDir, { recursive: true, force: true });
}

await main();

// Debian's Chromium driven by playwright-core (STACK.md "Browser tests"): never a downloaded browser.
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { chromium, type BrowserContext, type Download, type Page } from 'playwright-core';

/**
 * Debian's headless build of Chromium (package chromium-headless-shell) when it is installed, else the full browser.
 * The headless build is the same Blink and V8 without the browser's windowing layers: the browser files took 28 %
 * less of the machine's CPU with it (148 against 205 CPU-seconds, all passing), and the suite is bound by CPU.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const CHROMIUM =
  process.env.CHROMIUM_PATH || (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // Pages live for seconds: V8's optimising compiler spent more on background compiles than its code saved (about
  // a tenth of the browser's CPU in the suite). What the page does is the same at every tier.
  '--js-flags=--no-opt',
];

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

const CONTEXT = { viewport: { width: 1280, height: 800 }, locale: 'zh-CN' } as const;

function requireChromium(): void {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install Debian's chromium-headless-shell or chromium (apt-get)`,
    );
}

/**
 * A fresh browser context (its own storage, cookies and cache): in the run's Chromium, which the global setup
 * launched once for every file, or, outside such a run, in a Chromium of its own with a new profile.
 */
export async function openBrowser(): Promise<BrowserSession> {
  requireChromium();
  const endpoint = inject('browserEndpoint');
  if (endpoint) {
    const browser = await chromium.connect(endpoint);
    const context = await browser.newContext(CONTEXT);
    const page = await context.newPage();
    return {
      context,
      page,
      async close() {
        await context.close();
        await browser.close();
      },
    };
  }
  const userDataDir = mkdtempSync(join(tmpdir(), 'workbench-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    ...CONTEXT,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** A download saved to a temp file (a browser reached over its endpoint has no local path for it). */
export async function savedDownload(download: Download): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'workbench-download-')), download.suggestedFilename());
  await download.saveAs(file);
  return file;
}

/** The newest SMS code the console provider wrote for this phone and purpose. */
export function readSmsCode(dataDir: string, phone: string, purpose: string): string | null {
  const outbox = join(dataDir, 'sms-outbox.jsonl');
  if (!existsSync(outbox)) return null;
  const lines = readFileSync(outbox, 'utf8').split('\n').filter(Boolean);
  for (const line of lines.reverse()) {
    const entry = JSON.parse(line) as { phone: string; code: string; purpose: string };
    if (entry.phone === phone && entry.purpose === purpose) return entry.code;
  }
  return null;
}

export async function waitForSmsCode(
  dataDir: string,
  phone: string,
  purpose: string,
  timeoutMs = 10_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const code = readSmsCode(dataDir, phone, purpose);
    if (code) return code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no SMS code for ${phone} (${purpose}) in ${join(dataDir, 'sms-outbox.jsonl')}`);
}

/** Sets an account's rights in the server's database: remaining (consumable) or total (limits). */
export function setRights(dataDir: string, phone: string, values: Record<number, number>) {
  const db = new Database(join(dataDir, 'workbench.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    const user = db.prepare('SELECT uid FROM users WHERE phone = ?').get(phone) as { uid: number };
    for (const [type, value] of Object.entries(values))
      db.prepare('UPDATE right_grants SET remaining = ?, total = ? WHERE uid = ? AND user_right_type = ?').run(
        value,
        Math.max(value, 1),
        user.uid,
        Number(type),
      );
  } finally {
    db.close();
  }
}

/** A phone number no other test uses. */
export function uniquePhone(): string {
  return `139${String(Date.now() % 1e8).padStart(8, '0')}`;
}

export const RESULTS_DIR = join(__dirname, '..', '..', 'test-results');

export function screenshotPath(name: string): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  return join(RESULTS_DIR, name);
}

/** A call to the e2e server's API as the SPA makes it (device and platform headers); the envelope's result. */
async function apiCall<T>(baseUrl: string, path: string, body: object): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cid: 'e2e-device', endpoint: '1' },
    body: JSON.stringify(body),
  });
  const envelope = (await res.json()) as { code: number; msg?: string; result: T };
  if (envelope.code !== 200) throw new Error(`${path}: ${res.status} ${envelope.msg ?? ''}`);
  return envelope.result;
}

/**
 * Registers a new account through the API, with the SMS code from the console provider's outbox, and opens the
 * workbench with its token in the route query, as a login link does; waits for the home screen and skips the guide
 * a new account is shown. The registration form itself is driven in workbench.test.ts; the other files only need
 * an account, and a page load and a form fewer each.
 */
export async function registerInBrowser(
  page: Page,
  baseUrl: string,
  dataDir: string,
  phone: string,
  password: string,
): Promise<void> {
  await apiCall(baseUrl, '/user/sms_code', { phone, purpose: 'register' });
  const code = await waitForSmsCode(dataDir, phone, 'register');
  const { token } = await apiCall<{ token: string }>(baseUrl, '/user/register', { phone, code, password });
  await page.goto(`${baseUrl}/workbench/?token=${encodeURIComponent(token)}`);
  await page.getByTestId('home-screen').waitFor();
  // a new account is shown the guide once: skipped with Esc, as a user in a hurry would
  await dismissGuide(page);
}

/** Logs an existing account in through the login form and waits for the workbench. */
export async function logInBrowser(page: Page, baseUrl: string, phone: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/workbench/login`);
  const form = page.getByRole('form', { name: '登录' });
  await form.locator('input[name="phone"]').fill(phone);
  await form.locator('input[name="password"]').fill(password);
  await form.getByRole('button', { name: '登录' }).click();
  await page.waitForURL(`${baseUrl}/workbench/`);
  await page.getByTestId('side-bar').waitFor();
}

/** Waits for the guide a new account is shown and skips it with Esc. */
export async function dismissGuide(page: Page): Promise<void> {
  const dialog = page.getByTestId('guide-dialog');
  await dialog.waitFor({ timeout: 20_000 });
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached', timeout: 10_000 });
}

/**
 * The admin CLI's commands on the e2e server's database (DATA_DIR), as an operator would run them; its output lines.
 * They run here, on a connection of their own, not in a process of their own: starting one costs a second or two of
 * CPU each time, and tests/server/admin-cli.test.ts runs the CLI's own entry point in a process.
 */
export async function adminCli(dataDir: string, ...args: string[]): Promise<string[]> {
  const { openDatabase } = await import('../../server/db');
  const { runAdmin } = await import('../../server/cli/admin');
  const { db } = openDatabase({ dataDir });
  try {
    const out: string[] = [];
    await runAdmin(args, db, (line) => out.push(line));
    return out.join('\n').trim().split('\n');
  } finally {
    await db.destroy();
  }
}

/**
 * Screenshots of the page as it is, in light and then in dark (`<name>-light.png`, `<name>-dark.png`); back to light.
 */
export async function screenshotLightAndDark(page: Page, name: string, fullPage = false): Promise<void> {
  await page.screenshot({ path: screenshotPath(`${name}-light.png`), fullPage });
  await page.getByTestId('theme-dark').click();
  await expect.poll(() => page.evaluate(() => document.documentElement.className)).toContain('dark');
  await page.screenshot({ path: screenshotPath(`${name}-dark.png`), fullPage });
  await page.getByTestId('theme-light').click();
}

/**
 * Clicks 开始校对 on the home screen and waits until the check has ended. A check that failed says so with the
 * message the page shows, instead of an empty findings list that only times out later.
 */
export async function runHomeCheck(page: Page, timeout = 60_000): Promise<void> {
  await page.getByTestId('check-button').click();
  const screen = page.getByTestId('home-screen');
  await screen.locator('xpath=self::*[@data-job="done" or @data-job="failed"]').waitFor({ timeout });
  if ((await screen.getAttribute('data-job')) === 'failed') {
    const said =
      (await page
        .getByTestId('no-findings')
        .textContent()
        .catch(() => null)) ?? '';
    throw new Error(`the check failed on the page: ${said}`);
  }
}

/**
 * A browser context with a newly registered account, signed in on the home screen (the guide skipped): the setup of
 * a browser test file that needs one user. The context closes after the file's tests.
 */
export function useNewUser(password = 'secret123'): { readonly session: BrowserSession; readonly phone: string } {
  const state: { session: BrowserSession | null; phone: string } = { session: null, phone: uniquePhone() };
  beforeAll(async () => {
    state.session = await openBrowser();
    await registerInBrowser(state.session.page, inject('baseUrl'), inject('dataDir'), state.phone, password);
  }, 60_000);
  afterAll(async () => state.session?.close());
  return {
    get session() {
      if (!state.session) throw new Error('the browser opens in beforeAll');
      return state.session;
    },
    phone: state.phone,
  };
}

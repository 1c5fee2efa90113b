// Debian's Chromium driven by playwright-core (STACK.md "Browser tests"): never a downloaded browser.
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** A fresh Chromium profile (new --user-data-dir) per call. */
export async function openBrowser(): Promise<BrowserSession> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: install Debian's chromium (apt-get install chromium)`);
  const userDataDir = mkdtempSync(join(tmpdir(), 'workbench-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 800 },
    locale: 'zh-CN',
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

export async function waitForSmsCode(dataDir: string, phone: string, purpose: string, timeoutMs = 10_000): Promise<string> {
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
      db.prepare('UPDATE right_grants SET remaining = ?, total = ? WHERE uid = ? AND user_right_type = ?').run(value, Math.max(value, 1), user.uid, Number(type));
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

// Browser tests run against the real server (buildApp + listen on port 0) serving the built SPA.
// The SPA's production build is made only when dist/workbench is missing or older than its sources (like npm
// start), in the background; the bundle-size test then measures the same build.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { chromium } from 'playwright-core';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { SPA_DIR, startSpaBuild } from '../../scripts/spa-build.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from './browser';
import { useWorkerBundle } from '../server/worker-bundle';

declare module 'vitest' {
  export interface ProvidedContext {
    /** e.g. http://127.0.0.1:41234 */
    baseUrl: string;
    /** The server's DATA_DIR (sms-outbox.jsonl lives here). */
    dataDir: string;
    /** The run's Chromium, shared by the files (each opens its own context); null without Chromium. */
    browserEndpoint: string | null;
  }
}

/** A port nothing listens on now (the server's address must be known before it starts). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export default async function setup(project: TestProject) {
  // the build runs beside the other projects' files; each browser test file waits for it (spa-ready.ts)
  mkdirSync(SPA_DIR, { recursive: true });
  const built = startSpaBuild();
  const dataDir = mkdtempSync(join(tmpdir(), 'workbench-e2e-'));
  await useWorkerBundle();
  // the server's accounts hash at the node files' lower cost (vite.config.ts)
  process.env.PASSWORD_HASH_COST = '10';
  // AI writing talks to a local fake of an OpenAI-compatible chat service (an outside, paid service otherwise)
  const { startFakeChat } = await import('../fixtures/fake-chat');
  const chat = await startFakeChat();
  process.env.AI_URL = chat.url;
  // and WeChat login to a local fake of WeChat Open Platform
  const { startFakeWechat } = await import('../fixtures/fake-wechat');
  const wechat = await startFakeWechat();
  // WeChat sends users back to PUBLIC_URL only (never to the request's Host), so the address is chosen first
  const port = await freePort();
  Object.assign(process.env, {
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    WECHAT_APPID: 'wx-e2e',
    WECHAT_SECRET: 'e2e-secret',
    WECHAT_OPEN_URL: wechat.url,
    WECHAT_API_URL: wechat.url,
  });
  const { buildApp } = await import('../../server/app');
  const { loadConfig } = await import('../../server/config');
  // the link check's test site listens on this machine (a private address the server refuses otherwise)
  const web = { ...loadConfig().web, allow: ['127.0.0.1/32'], crawlDelayMs: 100 };
  // every browser file signs up its own users from this one address; the per-address limits are tested elsewhere
  // (tests/server/retry-after.test.ts, security-accounts.test.ts) and would refuse the twenty-first sign-up here
  const authRateLimit = { loginPerAddress: 1000, smsPerAddress: 1000 };
  const app = await buildApp({ dataDir, logger: false, config: { spaDir: SPA_DIR, web, authRateLimit } });
  await app.listen({ port, host: '127.0.0.1' });
  project.provide('baseUrl', `http://127.0.0.1:${port}`);
  project.provide('dataDir', dataDir);
  // one Chromium for the run: a context per file is as fresh as a new profile, without a browser start per file
  const browser = existsSync(CHROMIUM)
    ? await chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS })
    : null;
  project.provide('browserEndpoint', browser?.wsEndpoint() ?? null);
  return async () => {
    await built;
    await browser?.close();
    await app.close();
    await chat.close();
    await wechat.close();
    // the checking engine's worker threads are shared by every app of the process: end them with the run
    const { checkerPool } = await import('../../server/workers/checker/pool');
    await checkerPool().close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp, type BuildOptions } from '../../server/app';

export const ADMIN = { phone: '13800000000', password: 'admin123456' };
export const CLIENT_HEADERS = { cid: 'test-device', endpoint: '1' };

export interface TestApp {
  app: FastifyInstance;
  dataDir: string;
  close(): Promise<void>;
}

/** A fresh server over a fresh temporary DATA_DIR (SQLite), or the given database URL. */
export async function startTestApp(options: BuildOptions = {}): Promise<TestApp> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'wb-server-'));
  const app = await buildApp({
    logger: false,
    ...options,
    dataDir,
    config: { adminPhone: ADMIN.phone, adminPassword: ADMIN.password, spaDir: join(dataDir, 'no-spa'), ...options.config },
  });
  return {
    app,
    dataDir,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function call(app: FastifyInstance, method: InjectOptions['method'], url: string, body?: unknown, token?: string) {
  const res = await app.inject({
    method,
    url,
    headers: { ...CLIENT_HEADERS, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body !== undefined ? { payload: body as InjectOptions['payload'] } : {}),
  });
  let json: any = null;
  try {
    json = res.json();
  } catch {
    json = null;
  }
  return { status: res.statusCode, json, res };
}

/** The last code the console SMS provider wrote for this phone (tests read the outbox like an operator would). */
export function lastSmsCode(dataDir: string, phone: string, purpose?: string): string {
  const file = join(dataDir, 'sms-outbox.jsonl');
  if (!existsSync(file)) throw new Error('no SMS outbox yet');
  const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { phone: string; code: string; purpose: string; at: string });
  const hit = lines.filter((l) => l.phone === phone && (!purpose || l.purpose === purpose)).pop();
  if (!hit) throw new Error(`no SMS code for ${phone}`);
  return hit.code;
}

export async function register(t: TestApp, phone: string, password = 'secret123', name?: string): Promise<string> {
  const sent = await call(t.app, 'POST', '/user/sms_code', { phone, purpose: 'register' });
  if (sent.status !== 200) throw new Error(`sms_code failed: ${JSON.stringify(sent.json)}`);
  const code = lastSmsCode(t.dataDir, phone, 'register');
  const res = await call(t.app, 'POST', '/user/register', { phone, code, password, ...(name ? { name } : {}) });
  if (res.status !== 200) throw new Error(`register failed: ${JSON.stringify(res.json)}`);
  return res.json.result.token;
}

export async function login(app: FastifyInstance, phone: string, password: string): Promise<string> {
  const res = await call(app, 'POST', '/user/login', { phone, password });
  if (res.status !== 200) throw new Error(`login failed: ${JSON.stringify(res.json)}`);
  return res.json.result.token;
}

import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
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
    config: {
      adminPhone: ADMIN.phone,
      adminPassword: ADMIN.password,
      spaDir: join(dataDir, 'no-spa'),
      ...options.config,
    },
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

export async function call(
  app: FastifyInstance,
  method: InjectOptions['method'],
  url: string,
  body?: unknown,
  token?: string,
  /** the client's address (rate limits and locks count per address) */
  remoteAddress?: string,
) {
  const res = await app.inject({
    method,
    url,
    ...(remoteAddress ? { remoteAddress } : {}),
    headers: { ...CLIENT_HEADERS, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body !== undefined ? { payload: body as InjectOptions['payload'] } : {}),
  });
  let json: any;
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
  const lines = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { phone: string; code: string; purpose: string; at: string });
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

export { tinyPng } from '../fixtures/png';

export function multipart(field: string, filename: string, type: string, data: Buffer) {
  const boundary = '----workbench-test-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; ` +
        `filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Deflated zeros by their size: compressing 64-300 MB took a second or more per bomb, and the fuzzer makes many. */
const deflatedZeros = new Map<number, Buffer>();

/**
 * A zip whose single entry (`entry`) inflates to `size` bytes of zeros; optionally lying about that size in its
 * headers.
 */
export function bombZip(size: number, declared = size, entry = 'word/document.xml'): Buffer {
  const name = Buffer.from(entry);
  let raw = deflatedZeros.get(size);
  if (!raw) deflatedZeros.set(size, (raw = deflateRawSync(Buffer.alloc(size))));
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(raw.length, 18);
  local.writeUInt32LE(declared, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(raw.length, 20);
  central.writeUInt32LE(declared, 24);
  central.writeUInt16LE(name.length, 28);
  central.writeUInt32LE(0, 42);
  const cdOffset = local.length + name.length + raw.length;
  const cd = Buffer.concat([central, name]);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(cdOffset, 16);
  return Buffer.concat([local, name, raw, cd, end]);
}

/** A multipart body of several parts (file parts have a filename). */
export function form(parts: { name: string; filename?: string; type?: string; data: Buffer | string }[]) {
  const boundary = '----convert-test-boundary';
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n` +
          `${p.filename !== undefined ? `Content-Type: ${p.type ?? 'application/octet-stream'}\r\n` : ''}\r\n`,
      ),
    );
    chunks.push(Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Lets the account create API keys: applies for API access (/apiApply's call) and approves the application as an
 * operator would (API_KEYS_NEED_APPROVAL).
 */
export async function approveApiAccess(t: TestApp, token: string): Promise<void> {
  const applied = await call(
    t.app,
    'POST',
    '/crm/component/app/add_one_checkno',
    { name: '测试', phone: '13900000000' },
    token,
  );
  if (applied.status !== 200) throw new Error(`API application failed: ${JSON.stringify(applied.json)}`);
  const { reviewApplication } = await import('../../server/domain/teams/applications');
  await reviewApplication(t.app.db, {
    id: applied.json.result.id,
    approve: true,
    reviewer: null,
    defaultSeats: t.app.config.team.defaultSeats,
  });
}

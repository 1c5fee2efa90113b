import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { HeavyLimits } from './services/heavy/pool';

/** Everything the server reads from the environment, parsed once (README lists each variable). */
export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL connection string; SQLite under dataDir when absent. */
  databaseUrl?: string;
  /** Redis for the processes' event bus and the shared rate limits (else PostgreSQL does both). */
  redisUrl?: string;
  adminPhone: string;
  adminPassword: string;
  smsProvider: string;
  /** Values served at /workbench/config.json (read by the SPA at start-up, never baked into the build). */
  publicConfig: {
    baseURL: string;
    wxURL: string;
    bindWechat: string;
    resetWechat: string;
    socketURL: string;
  };
  bodyLimit: number;
  /** Largest file part of a multipart upload, in bytes. */
  uploadLimit: number;
  /** A request whose headers and body have not arrived by then is dropped (408): no connection held by a trickle. */
  requestTimeoutMs: number;
  logLevel: string;
  /** Behind a reverse proxy: take the client address from X-Forwarded-For (rate limits are per address). */
  trustProxy: boolean;
  /** Folder holding the built SPA (index.html + assets). */
  spaDir: string;
  /**
   * Check rate limits: `checkMax` checks per `windowMs` per user (check_text and /v2/check each), and
   * `anonymousMax` /v2/check calls without a bearer token per client address. 0 turns a limit off.
   */
  checkRateLimit: { checkMax: number; anonymousMax: number; windowMs: number };
  /**
   * Per client address, whatever the phone: `loginPerAddress` login and password-reset attempts per 10 minutes,
   * `smsPerAddress` SMS codes per hour. 0 turns a limit off.
   */
  authRateLimit: { loginPerAddress: number; smsPerAddress: number };
  /** The heavy worker pool: document reading/writing, export, format check, compare. */
  heavy: HeavyLimits;
  /** Largest HTML accepted for conversion to .docx or saving in the editor, in UTF-16 units. */
  htmlMax: number;
  /**
   * Processes sharing the database: each writes a heartbeat every `heartbeatMs`; one not seen for `staleMs` is dead,
   * and its checks are refunded and its document jobs taken over.
   */
  instance: { heartbeatMs: number; staleMs: number };
}

function integer(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  return {
    port: integer(env.PORT, 3000, 'PORT'),
    host: env.HOST || '0.0.0.0',
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    adminPhone: env.ADMIN_PHONE || '13800000000',
    adminPassword: env.ADMIN_PASSWORD || 'admin123456',
    smsProvider: env.SMS_PROVIDER || 'console',
    publicConfig: {
      // No trailing slash: the client appends '/user/...'. ('/' means same origin, like ''.)
      baseURL: (env.BASE_URL ?? '').replace(/\/+$/, ''),
      wxURL: env.WX_URL ?? '',
      bindWechat: env.BIND_WECHAT_URL ?? '',
      resetWechat: env.RESET_WECHAT_URL ?? '',
      socketURL: env.SOCKET_URL || '/ws',
    },
    // Documents are uploaded as multipart; JSON bodies (check_text) stay well under 10 MB.
    bodyLimit: integer(env.BODY_LIMIT, 10 * 1024 * 1024, 'BODY_LIMIT'),
    uploadLimit: integer(env.UPLOAD_LIMIT, 100 * 1024 * 1024, 'UPLOAD_LIMIT'),
    // long enough for the largest upload on a slow line, short enough that trickling bodies cannot pile up
    requestTimeoutMs: Math.max(1000, integer(env.REQUEST_TIMEOUT_MS, 120_000, 'REQUEST_TIMEOUT_MS')),
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
    spaDir: resolve(env.SPA_DIR || 'dist/workbench'),
    checkRateLimit: {
      checkMax: integer(env.CHECK_RATE_MAX, 120, 'CHECK_RATE_MAX'),
      anonymousMax: integer(env.LT_ANON_RATE_MAX, 30, 'LT_ANON_RATE_MAX'),
      windowMs: Math.max(1000, integer(env.CHECK_RATE_WINDOW_MS, 60_000, 'CHECK_RATE_WINDOW_MS')),
    },
    authRateLimit: {
      loginPerAddress: integer(env.LOGIN_IP_RATE_MAX, 30, 'LOGIN_IP_RATE_MAX'),
      smsPerAddress: integer(env.SMS_IP_RATE_MAX, 20, 'SMS_IP_RATE_MAX'),
    },
    heavy: {
      workers: Math.max(1, integer(env.HEAVY_WORKERS, Math.min(2, availableParallelism()), 'HEAVY_WORKERS')),
      queueMax: integer(env.HEAVY_QUEUE_MAX, 16, 'HEAVY_QUEUE_MAX'),
      timeoutMs: Math.max(1000, integer(env.HEAVY_TIMEOUT_MS, 120_000, 'HEAVY_TIMEOUT_MS')),
      heapMb: Math.max(64, integer(env.HEAVY_HEAP_MB, 768, 'HEAVY_HEAP_MB')),
      outputMax: integer(env.HEAVY_OUTPUT_MAX, 100 * 1024 * 1024, 'HEAVY_OUTPUT_MAX'),
    },
    // A 500-page book is about 2 MB of HTML; more is an attempt to exhaust the converter.
    htmlMax: integer(env.HTML_MAX, 4 * 1024 * 1024, 'HTML_MAX'),
    instance: {
      heartbeatMs: Math.max(100, integer(env.INSTANCE_HEARTBEAT_MS, 5_000, 'INSTANCE_HEARTBEAT_MS')),
      staleMs: Math.max(300, integer(env.INSTANCE_STALE_MS, 15_000, 'INSTANCE_STALE_MS')),
    },
  };
}

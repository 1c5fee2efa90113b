import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import ipaddr from 'ipaddr.js';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { JobKind } from './db/schema';

/** The server's settings, derived from the environment (see ENV_SCHEMA below). */
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
  /** The SMS gateway's settings (secrets included: they go to the gateway only, never to a log). */
  sms: SmsConfig;
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
  /**
   * Behind a reverse proxy: the proxies' addresses (proxy-addr names such as `loopback`, addresses, CIDRs). The
   * client's address is the first X-Forwarded-For entry, from the right, that is not one of them (rate limits are
   * per address); false: the connection's own address.
   */
  trustProxy: false | string[];
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
  /** scrypt's cost of new password hashes, as log2 N */
  passwordHashCost: number;
  /** The heavy worker pool: document reading/writing, export, format check, compare. */
  heavy: HeavyLimits;
  /** Largest HTML accepted for conversion to .docx or saving in the editor, in UTF-16 units. */
  htmlMax: number;
  /**
   * Processes sharing the database: each writes a heartbeat every `heartbeatMs`; one not seen for `staleMs` is dead,
   * and its checks are refunded and its document jobs taken over.
   */
  instance: { heartbeatMs: number; staleMs: number };
  /** Realtime sessions one account keeps (windows, tabs, plug-ins); the oldest beyond it is closed with 4429. */
  socketSessionsPerUser: number;
  /**
   * The job runner (server/jobs): `concurrency` jobs of a kind one process runs at the same time, `maxAttempts`
   * starts of a job before a fault that may pass fails it, `retryMs` the first retry's wait (doubling after), and
   * `pollMs` how often a process looks for jobs queued elsewhere or coming due.
   */
  jobs: {
    concurrency: Record<JobKind, number>;
    maxAttempts: number;
    retryMs: number;
    pollMs: number;
  };
  /** Link proofreading: the guarded fetcher's limits and the crawl's pace. */
  web: WebConfig;
  /** AI writing: the chat service (none without `url`) and what one run may write. */
  ai: { url?: string; apiKey?: string; model: string; idleTimeoutMs: number; maxOutputChars: number };
  /** The checking engine's worker pool and its paragraph cache. */
  checker: CheckerSettings & { cacheEntries: number; cacheBytes: number };
  /** Audio and video: the longest accepted, and the speech recognition service (none without `url`). */
  media: {
    maxMinutes: number;
    asr: { url?: string; apiKey?: string; model: string; timeoutMs: number };
  };
  /** External programs and the limits of their runs, in this process and in the heavy workers. */
  tools: ToolSettings;
  team: { inviteDays: number; poolFallback: boolean; defaultSeats: number };
  /** The ceilings of a compare when no right sets one (pages and MB per document). */
  compare: { maxPages: number; maxSizeMb: number };
  pdf: { maxPages: number };
  /** API keys only after an operator approved the user's application. */
  apiKeysNeedApproval: boolean;
  /** WeChat login: on only with an app id, its secret and PUBLIC_URL. */
  wechat: { appId?: string; secret?: string; openUrl: string; apiUrl: string };
  /** PUBLIC_URL as set (WeChat is off without it) */
  publicUrl?: string;
  /** every absolute link this server makes: PUBLIC_URL, else `http://localhost:PORT` (see publicOrigin()) */
  origin: string;
  /** bearer token /metrics asks for; unset: /metrics is open (keep it off the public proxy then) */
  metricsToken?: string;
  /** origins a browser may call /v2/* from: '*' any (the calls authenticate by header, never by cookie) */
  ltCorsOrigins: '*' | string[];
  /** Folders of data the server ships (unset: the shipped ones, found beside the code that reads them). */
  paths: {
    formatTemplates?: string;
    wordLibraries?: string;
  };
}

/** Limits of the heavy worker pool (workers/heavy/pool.ts). */
export interface HeavyLimits {
  /** worker threads */
  workers: number;
  /** tasks waiting for a worker before new requests are turned away with 503 */
  queueMax: number;
  /** longest a task may run before its worker is stopped */
  timeoutMs: number;
  /** V8 heap of each worker (old generation), in MB */
  heapMb: number;
  /** largest result a task may return (bytes of a file, UTF-16 units of text) */
  outputMax: number;
}

/** What the checker pool and its workers are started with (workers/checker/pool.ts). */
export interface CheckerSettings {
  workers: number;
  /** tests only: a paragraph containing it fails in the worker */
  faultMarker?: string;
}

/**
 * Programs the server runs and their limits: set for the process from the app's config and sent to each heavy
 * worker in its start data (formats/tools.ts), as the code using them runs in both.
 */
export interface ToolSettings {
  /** unset: the binary of @ffmpeg-installer/ffmpeg */
  ffmpegPath?: string;
  /** unset: soffice or libreoffice on the PATH */
  sofficePath?: string;
  /** unset: a system CJK font when one is installed */
  cjkFontPath?: string;
  /** longest one ffmpeg run */
  mediaTimeoutMs: number;
  /** frames of a video read by OCR for burned-in subtitles */
  ocrMaxFrames: number;
  /** bundled workers to start instead of the TypeScript sources (tests, a debugger): both pools read it */
  workerBundles?: string;
}

export type SmsGatewayName = 'console' | 'aliyun' | 'tencent' | 'webhook';

export interface SmsConfig {
  provider: SmsGatewayName;
  timeoutMs: number;
  signName: string;
  /** template ids by what is sent: the code purposes and team invitations */
  templates: Record<'register' | 'reset' | 'phone' | 'verify_old' | 'invite', string>;
  aliyun: { accessKeyId: string; accessKeySecret: string; url: string };
  tencent: { secretId: string; secretKey: string; appId: string; region: string; url: string };
  webhook: { url: string; secret: string };
}

export interface WebConfig {
  /** CIDRs fetched although private (an intranet the admin allows) */
  allow: string[];
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  /** least time between two requests to one host during a crawl (robots.txt's Crawl-delay may ask for more) */
  crawlDelayMs: number;
}

/** An integer setting (its digits only: "1.5", "2e3" and "-1" are refused). */
const int = (
  def: number | undefined,
  description: string,
  opts: { minimum?: number; maximum?: number; shown?: string } = {},
) =>
  Type.Integer({
    minimum: opts.minimum ?? 0,
    maximum: opts.maximum,
    default: def,
    description,
    shown: opts.shown ?? `\`${def}\``,
  });
const str = (def: string | undefined, description: string, shown?: string) =>
  Type.String({ default: def, description, shown: shown ?? (def === undefined ? '(unset)' : `\`${def}\``) });
const optionalInt = (description: string, shown: string) =>
  Type.Optional(Type.Integer({ minimum: 1, description, shown }));
const optionalStr = (description: string, shown = '(unset)') =>
  Type.Optional(Type.String({ minLength: 1, description, shown }));

/**
 * Every environment variable the server and its engine read: type, bounds, default, and the README's words for it
 * (the README's configuration table is generated from this: npm run gen:config).
 */
export const ENV_SCHEMA = Type.Object({
  PORT: int(3000, 'HTTP port (SPA, API and WebSocket share it)', { maximum: 65535 }),
  HOST: str('0.0.0.0', 'listen address'),
  DATA_DIR: str('./data', 'SQLite database, uploaded files, SMS outbox of the console provider'),
  DATABASE_URL: optionalStr('`postgres://user:pass@host:5432/db` switches storage to PostgreSQL'),
  REDIS_URL: optionalStr(
    "`redis://host:6379`: the server processes' event bus (pub/sub) and the shared rate-limit counters live in Redis " +
      'instead of PostgreSQL',
  ),
  ADMIN_PHONE: str('13800000000', 'phone of the first `root` account, created on first start when no root exists'),
  ADMIN_PASSWORD: str('admin123456', 'its password (change it before exposing the server)'),
  SMS_PROVIDER: Type.Union(
    ['console', 'aliyun', 'tencent', 'webhook'].map((p) => Type.Literal(p)),
    {
      default: 'console',
      description:
        'who delivers SMS codes and team invitations: `console` sends nothing (it appends them to ' +
        '`DATA_DIR/sms-outbox.jsonl`), `aliyun` (Aliyun SMS), `tencent` (Tencent Cloud SMS) or `webhook` (a signed ' +
        'POST to `SMS_WEBHOOK_URL`); a gateway that fails answers 503 and the attempt does not count against the ' +
        'rate limits (password-reset codes excepted: they go out after the answer, which must not tell whether the ' +
        'phone is registered, so a failure is only logged). The server does not start when a setting the chosen ' +
        'gateway needs is missing',
      shown: '`console`',
    },
  ),
  SMS_TIMEOUT_MS: int(
    5_000,
    'time one SMS gateway request may take; a connection failure or 5xx is retried once, a timeout is not (the SMS ' +
      'may have gone out)',
    { minimum: 100 },
  ),
  SMS_SIGN_NAME: optionalStr('`aliyun`, `tencent`: the approved SMS signature (签名) messages are sent under'),
  SMS_TEMPLATE_CODE: optionalStr(
    '`aliyun`, `tencent`: the verification code template for every purpose without its own below (Aliyun: ' +
      'variable `${code}`; Tencent: parameter {1} is the code)',
  ),
  SMS_TEMPLATE_REGISTER: optionalStr('the template of sign-up codes', '`SMS_TEMPLATE_CODE`'),
  SMS_TEMPLATE_RESET: optionalStr('the template of password reset codes', '`SMS_TEMPLATE_CODE`'),
  SMS_TEMPLATE_PHONE: optionalStr('the template of codes to a new phone of an account', '`SMS_TEMPLATE_CODE`'),
  SMS_TEMPLATE_VERIFY_OLD: optionalStr(
    "the template of codes to an account's current phone (changing it)",
    '`SMS_TEMPLATE_CODE`',
  ),
  SMS_TEMPLATE_INVITE: optionalStr(
    '`aliyun`, `tencent` (required): the team invitation template (Aliyun: variables `${team}` and `${link}`; ' +
      'Tencent: {1} the team, {2} the link)',
  ),
  ALIYUN_SMS_ACCESS_KEY_ID: optionalStr('`aliyun` (required): the AccessKey id'),
  ALIYUN_SMS_ACCESS_KEY_SECRET: optionalStr('`aliyun` (required): the AccessKey secret (never logged)'),
  ALIYUN_SMS_URL: str('https://dysmsapi.aliyuncs.com', "Aliyun SMS's endpoint (tests point it elsewhere)"),
  TENCENT_SMS_SECRET_ID: optionalStr('`tencent` (required): the API SecretId'),
  TENCENT_SMS_SECRET_KEY: optionalStr('`tencent` (required): the API SecretKey (never logged)'),
  TENCENT_SMS_APP_ID: optionalStr('`tencent` (required): the SMS application (SdkAppId)'),
  TENCENT_SMS_REGION: str('ap-guangzhou', "`tencent`: the region of the SMS application's API calls"),
  TENCENT_SMS_URL: str('https://sms.tencentcloudapi.com', "Tencent Cloud SMS's endpoint (tests point it elsewhere)"),
  SMS_WEBHOOK_URL: optionalStr(
    '`webhook` (required): receives a POST of JSON `{phone, purpose, code}` (purpose `register`, `reset`, `phone`, ' +
      '`verify_old`) or `{phone, purpose: "invite", team, link}`; any 2xx means sent',
  ),
  SMS_WEBHOOK_SECRET: optionalStr(
    '`webhook` (required): signs each POST: header `X-Timestamp` (Unix seconds) and `X-Signature: sha256=` + the ' +
      'hex HMAC-SHA256 of `X-Timestamp + "." + body` with this secret (the receiver recomputes it and refuses old ' +
      'timestamps); never logged',
  ),
  PUBLIC_URL: optionalStr(
    'origin users reach the workbench at, e.g. `https://proof.example.com`: where WeChat sends users back to (WeChat ' +
      'login and binding are off without it) and the links in SMS team invitations (`http://localhost:PORT` ' +
      'without it); never taken from a request header',
  ),
  TEAM_INVITE_DAYS: int(7, 'days an SMS team invitation stays valid', { minimum: 1, maximum: 90 }),
  TEAM_POOL_FALLBACK: Type.Boolean({
    default: true,
    description:
      "a team member's check that needs more than their own rights draws the rest from the team's packages " +
      '(`0`: only what admins allocated)',
    shown: '`1`',
  }),
  TEAM_DEFAULT_SEATS: int(20, 'seats of a team approved without a stated size, or created by the admin CLI', {
    minimum: 1,
    maximum: 100000,
  }),
  BASE_URL: str(
    '',
    'API origin the SPA calls, served at `/workbench/config.json` (one build runs anywhere)',
    'same origin',
  ),
  WX_URL: str('', 'WeChat login page (runtime config, like `BASE_URL`)', '(empty)'),
  BIND_WECHAT_URL: str('', 'WeChat binding page (runtime config)', '(empty)'),
  RESET_WECHAT_URL: str('', 'WeChat rebinding page (runtime config)', '(empty)'),
  SOCKET_URL: str('/ws', "the realtime socket's address (runtime config)"),
  BODY_LIMIT: int(10 * 1024 * 1024, 'largest accepted JSON request body in bytes (larger: 413)', {
    shown: '`10485760` (10 MB)',
  }),
  UPLOAD_LIMIT: int(100 * 1024 * 1024, 'largest accepted upload (multipart) in bytes', {
    shown: '`104857600` (100 MB)',
  }),
  REQUEST_TIMEOUT_MS: int(120_000, 'a request not received whole by then is dropped with 408 (slow-body attacks)', {
    minimum: 1000,
  }),
  SPA_DIR: str('dist/workbench', 'where the built front end is served from'),
  API_KEYS_NEED_APPROVAL: Type.Boolean({
    default: true,
    description:
      "API keys for the LanguageTool-compatible API only after an operator approved the user's /apiApply application " +
      '(`0`: every account may create one; operators always may)',
    shown: '`1`',
  }),
  TRUST_PROXY: optionalStr(
    "behind a reverse proxy, so rate limits see the client's address: `1` for a proxy on this machine (such as " +
      "deploy/nginx.conf), or the proxies' addresses or CIDRs, comma-separated (`10.0.0.5,10.0.1.0/24`). The " +
      'client is the last address the proxies appended to X-Forwarded-For; what a client wrote there itself is ' +
      'not believed',
  ),
  CHECK_WORKERS: optionalInt(
    'worker threads running the checking engine (they share one copy of the lexicons)',
    'cores, at most 4',
  ),
  ENGINE_IMAGE_DIR: optionalStr(
    'where the engine keeps its precompiled lexicons (built on first load, ≈70 MB; see `engine/README.md`)',
    '`engine/.image`',
  ),
  CHECK_CACHE_ENTRIES: int(20_000, 'paragraph results kept in the in-memory check cache (LRU)', { minimum: 1 }),
  CHECK_CACHE_MB: int(128, "the same cache's memory budget (estimated); whichever bound is reached first evicts", {
    minimum: 1,
  }),
  CHECK_RATE_MAX: int(
    120,
    'checks per user per window, for `check_text` and `/v2/check` each (more: 429); `0` turns it off',
  ),
  LT_ANON_RATE_MAX: int(
    30,
    '`/v2/check` calls without a bearer token per client address per window (counted before the API key is checked); ' +
      '`/v2/words*` calls have a budget of the same size',
  ),
  PASSWORD_HASH_COST: int(
    14,
    "scrypt's cost of new password hashes as a power of two (`14`: N = 16384, 16 MB per login; each step doubles " +
      'the time and memory of a login). A stored hash keeps its own cost, so a change applies as passwords are set',
    // the largest cost is 64 MB per login under way (domain/accounts/passwords.ts sizes scrypt's memory for it)
    { minimum: 10, maximum: 16 },
  ),
  LOGIN_IP_RATE_MAX: int(
    30,
    'login and password-reset attempts per client address per 10 minutes, whatever the phone (more: 429); ' +
      '`0` turns it off',
  ),
  SMS_IP_RATE_MAX: int(20, 'SMS codes per client address per hour, whatever the phone (more: 429); `0` turns it off'),
  CHECK_RATE_WINDOW_MS: int(60_000, 'the window of both check rate limits', { minimum: 1000 }),
  DOC_WORKERS: int(2, 'document jobs processed at the same time (their paragraphs share the checker pool)', {
    minimum: 1,
  }),
  SOFFICE_PATH: optionalStr(
    'LibreOffice, used to read .doc/.wps uploads (without it they are refused with a message saying so)',
    '`soffice` / `libreoffice` on the PATH',
  ),
  WEB_FETCH_ALLOW: optionalStr(
    'addresses the link check may fetch although private (an intranet): comma-separated CIDRs, e.g. ' +
      '`10.1.0.0/16,192.168.5.10/32`; loopback, link-local and metadata addresses are refused otherwise',
  ),
  WEB_FETCH_MAX_BYTES: int(5 * 1024 * 1024, 'largest web page the link check reads, in bytes (after decompression)', {
    minimum: 1024,
    shown: '`5242880` (5 MB)',
  }),
  WEB_FETCH_TIMEOUT_MS: int(15_000, 'time the link check gives one page, redirects included', { minimum: 100 }),
  WEB_FETCH_MAX_REDIRECTS: int(5, 'redirects the link check follows for one page', { maximum: 20 }),
  WEB_CRAWL_DELAY_MS: int(
    1_000,
    'least time between two requests to one site while a website check follows its links ' +
      '(a robots.txt Crawl-delay of up to 30 s asks for more)',
    { maximum: 60_000 },
  ),
  CJK_FONT_PATH: optionalStr(
    'a CJK font file for drawing PDF pages whose Chinese fonts are not embedded',
    'Noto CJK or WenQuanYi from the system when installed',
  ),
  PDF_MAX_PAGES: int(500, 'pages of one PDF the PDF check accepts', { minimum: 1 }),
  PDF_WORKERS: int(1, 'PDF checks each process runs at the same time (their pages share the heavy and checker pools)', {
    minimum: 1,
    maximum: 16,
  }),
  FFMPEG_PATH: optionalStr(
    'the ffmpeg binary that probes and converts audio and video uploads',
    'the one shipped in `@ffmpeg-installer/ffmpeg`',
  ),
  MEDIA_MAX_MINUTES: int(120, 'longest audio or video the speech check accepts, in minutes', { minimum: 1 }),
  MEDIA_TIMEOUT_MS: int(300_000, 'longest one ffmpeg run (a conversion, a subtitle extraction) may take', {
    minimum: 1000,
  }),
  MEDIA_OCR_MAX_FRAMES: int(
    2400,
    'frames of a video read by OCR for burned-in subtitles (2 a second up to this many; longer videos fewer a second)',
    { minimum: 10 },
  ),
  MEDIA_WORKERS: int(1, 'speech tasks (audio and video checks) each process runs at the same time', {
    minimum: 1,
    maximum: 16,
  }),
  ASR_URL: optionalStr(
    'an OpenAI-compatible speech recognition service (`POST /v1/audio/transcriptions` is called under it, e.g. ' +
      '`https://api.openai.com`); without it audio and video need a subtitle file or an embedded subtitle stream',
  ),
  ASR_API_KEY: optionalStr("the speech recognition service's API key (sent as a bearer token)"),
  ASR_MODEL: str('whisper-1', 'the speech recognition model asked for'),
  ASR_TIMEOUT_MS: int(600_000, 'longest one speech recognition request (10 minutes of audio) may take', {
    minimum: 1000,
  }),
  WECHAT_APPID: optionalStr(
    'WeChat Open Platform website app id: with WECHAT_SECRET and PUBLIC_URL, QR-code login and binding through ' +
      'WeChat (the login page and /user offer them; WX_URL, BIND_WECHAT_URL and RESET_WECHAT_URL default to this ' +
      "server's own)",
  ),
  WECHAT_SECRET: optionalStr("the app's secret (never logged)"),
  WECHAT_OPEN_URL: str('https://open.weixin.qq.com', "WeChat's authorisation pages (tests point it elsewhere)"),
  WECHAT_API_URL: str('https://api.weixin.qq.com', "WeChat's API (the code is exchanged there for the openid)"),
  AI_URL: optionalStr(
    'an OpenAI-compatible chat service for AI writing (streaming `POST /v1/chat/completions` is called under it, ' +
      'e.g. `https://api.openai.com` or a local vLLM / Ollama server); without it the AI writing page says how to ' +
      'configure one',
  ),
  AI_API_KEY: optionalStr("the chat service's API key (sent as a bearer token, never logged)"),
  AI_MODEL: str('gpt-4o-mini', 'the chat model asked for'),
  AI_IDLE_TIMEOUT_MS: int(30_000, 'longest wait for the chat service to start or go on writing before a run fails', {
    minimum: 100,
  }),
  AI_MAX_OUTPUT_CHARS: int(
    4_000,
    'characters one AI writing run may write (and reserves from right 512 at its start)',
    {
      minimum: 100,
    },
  ),
  COMPARE_MAX_PAGES: int(200, 'pages of each document a compare accepts', { minimum: 1 }),
  COMPARE_MAX_SIZE_MB: int(20, 'size of each file a compare accepts, in MB', { minimum: 1 }),
  FORMAT_TEMPLATES_DIR: optionalStr("the format check's templates", '`server/formats/format/templates`'),
  WORD_LIBRARIES_DIR: optionalStr('the word libraries users can add to their dictionary', '`server/word-libraries`'),
  HEAVY_WORKERS: optionalInt(
    'worker threads of the heavy pool: reading and writing documents, export, format check, compare',
    'cores, at most 2',
  ),
  HEAVY_QUEUE_MAX: int(16, 'heavy tasks that may wait for a worker; more are answered 503 with `Retry-After`'),
  HEAVY_TIMEOUT_MS: int(
    120_000,
    'longest a heavy task may run; longer: its worker is stopped and the call answers 413',
    {
      minimum: 1000,
    },
  ),
  HEAVY_HEAP_MB: int(768, 'V8 heap of each heavy worker; a document that needs more answers 413', { minimum: 64 }),
  HEAVY_OUTPUT_MAX: int(
    100 * 1024 * 1024,
    'largest result of a heavy task (bytes of a file, characters of text); larger: 413',
  ),
  HTML_MAX: int(
    4 * 1024 * 1024,
    "largest HTML (characters) accepted by `html2doc/stream` and the editor's save; larger: 413",
  ),
  INSTANCE_HEARTBEAT_MS: int(5_000, 'how often a server process says it is alive', { minimum: 100 }),
  SOCKET_SESSIONS_PER_USER: int(30, 'realtime sessions one account keeps; the oldest beyond it is told (4429)', {
    minimum: 1,
    maximum: 1000,
  }),
  JOB_MAX_ATTEMPTS: int(3, 'starts of a persisted job (document, PDF, image, audio/video, website) before it fails', {
    minimum: 1,
    maximum: 20,
  }),
  JOB_RETRY_MS: int(2_000, 'wait before a job whose run failed by a fault that may pass is retried (doubling after)', {
    minimum: 10,
  }),
  JOB_POLL_MS: int(1_000, 'how often a server process looks for jobs queued by another or coming due', {
    minimum: 50,
  }),
  IMAGE_WORKERS: int(2, 'image checks each process runs at the same time', { minimum: 1, maximum: 16 }),
  WEB_WORKERS: int(2, 'website checks each process runs at the same time (each reads one site at a polite pace)', {
    minimum: 1,
    maximum: 16,
  }),
  INSTANCE_STALE_MS: int(
    15_000,
    'after how long without a word a server process counts as dead (its checks refunded, its document jobs taken over)',
    { minimum: 300 },
  ),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    {
      default: 'info',
      description: 'Fastify/pino log level',
      shown: '`info`',
    },
  ),
  LOG_FORMAT: Type.Optional(
    Type.Union([Type.Literal('json'), Type.Literal('pretty')], {
      description:
        'log lines as JSON (production, collectors) or pretty; token, apiKey, password and code query values and the ' +
        'authorization header are always redacted',
      shown: '`pretty` in a development terminal, else `json`',
    }),
  ),
  WORKER_BUNDLE_DIR: optionalStr(
    'when the server runs from its TypeScript (the tests, a debugger): a directory of worker bundles built from the ' +
      'same sources by `scripts/server-build.mjs`, which start without a TypeScript loader',
    'workers load their TypeScript through tsx; the bundled server uses its own',
  ),
  METRICS_TOKEN: optionalStr(
    '`/metrics` (Prometheus) answers only with `Authorization: Bearer` and this token (401 otherwise); unset, it is ' +
      'open to anyone who reaches the server, so keep it off the public proxy then (deploy/nginx.conf)',
  ),
  LT_CORS_ORIGINS: str(
    '*',
    'origins browsers may call the LanguageTool-compatible `/v2/*` API from (editors, browser add-ons): `*` any, or ' +
      'comma-separated origins (`https://a.example,https://b.example`); those calls authenticate by header, never by ' +
      'cookie',
  ),
  CHECKER_FAULT_MARKER: optionalStr('tests only: a paragraph containing it fails in the checker (leave it unset)'),
});

export type Env = Static<typeof ENV_SCHEMA>;

const ENV_NAMES = Object.keys(ENV_SCHEMA.properties);
/** the last parse of process.env, by the raw values it read (services ask on their call paths) */
let parsed: { raw: string; env: Env } | null = null;

/**
 * The settings from the environment, each converted and checked against ENV_SCHEMA; every wrong value is named
 * in one error. Read when needed (tests change the environment between cases); the server reads them all at start.
 */
export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // reading the variables is cheap, converting and checking them is not: the same values give the same settings
  const key = source === process.env ? ENV_NAMES.map((n) => source[n] ?? '').join('\0') : null;
  if (key !== null && parsed?.raw === key) return parsed.env;
  const env = parseEnv(source);
  if (key !== null) parsed = { raw: key, env };
  return env;
}

/**
 * This server's address as browsers reach it, for every absolute link it makes: PUBLIC_URL without a trailing slash.
 * Never the request's Host or X-Forwarded-Host: a forged one would send links (and WeChat's code) to another site.
 * Unset, links sent outside any request (SMS invitations) point at `http://localhost:PORT`; WeChat, which redirects
 * the browser, is off instead (domain/accounts/wechat.ts wechatProvider()).
 */
export function publicOrigin(): string {
  return originOf(readEnv());
}

const originOf = (env: Env) => (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');

function parseEnv(source: NodeJS.ProcessEnv): Env {
  const raw: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, schema] of Object.entries(ENV_SCHEMA.properties)) {
    const value = source[name];
    if (value === undefined || value === '') continue;
    const kind = 'anyOf' in schema ? 'string' : schema.type;
    if (kind === 'integer') {
      if (!/^[0-9]+$/.test(value)) problems.push(`${name} must be a non-negative integer, got "${value}"`);
      else raw[name] = Number(value);
    } else if (kind === 'boolean') {
      if (!['1', 'true', '0', 'false'].includes(value))
        problems.push(`${name} must be 1, true, 0 or false, got "${value}"`);
      else raw[name] = value === '1' || value === 'true';
    } else raw[name] = value;
  }
  const env = Value.Default(ENV_SCHEMA, raw);
  for (const error of Value.Errors(ENV_SCHEMA, env)) {
    const name = error.path.split('/')[1] ?? error.path;
    if (!problems.some((p) => p.startsWith(`${name} `)))
      problems.push(`${name} ${error.message.toLowerCase()}, got "${source[name]}"`);
  }
  try {
    trustedProxies(source.TRUST_PROXY);
  } catch {
    problems.push(`TRUST_PROXY must be 1, or addresses and CIDRs separated by commas, got "${source.TRUST_PROXY}"`);
  }
  if (problems.length) throw new Error(`configuration: ${problems.join('; ')}`);
  if (!Value.Check(ENV_SCHEMA, env)) throw new Error('configuration: invalid');
  const sms = smsProblems(env);
  if (sms.length) throw new Error(`configuration: ${sms.join('; ')}`);
  return env;
}

/** The settings the chosen SMS gateway cannot work without: the server refuses to start without them. */
const SMS_REQUIRED: Record<SmsGatewayName, Array<keyof Env>> = {
  console: [],
  aliyun: ['ALIYUN_SMS_ACCESS_KEY_ID', 'ALIYUN_SMS_ACCESS_KEY_SECRET', 'SMS_SIGN_NAME', 'SMS_TEMPLATE_INVITE'],
  tencent: [
    'TENCENT_SMS_SECRET_ID',
    'TENCENT_SMS_SECRET_KEY',
    'TENCENT_SMS_APP_ID',
    'SMS_SIGN_NAME',
    'SMS_TEMPLATE_INVITE',
  ],
  webhook: ['SMS_WEBHOOK_URL', 'SMS_WEBHOOK_SECRET'],
};

function smsProblems(env: Env): string[] {
  const provider = env.SMS_PROVIDER as SmsGatewayName;
  const missing: string[] = SMS_REQUIRED[provider].filter((name) => !env[name]);
  if (provider === 'aliyun' || provider === 'tencent') {
    // every code purpose needs a template: its own or SMS_TEMPLATE_CODE
    const purposes = ['REGISTER', 'RESET', 'PHONE', 'VERIFY_OLD'] as const;
    const without = purposes.filter((p) => !env[`SMS_TEMPLATE_${p}`]);
    if (without.length && !env.SMS_TEMPLATE_CODE)
      missing.push(`SMS_TEMPLATE_CODE (or ${without.map((p) => `SMS_TEMPLATE_${p}`).join(', ')})`);
  }
  if (provider === 'webhook' && env.SMS_WEBHOOK_URL && !/^https?:\/\/[^/]/i.test(env.SMS_WEBHOOK_URL))
    return [`SMS_WEBHOOK_URL must be an http(s) URL, got "${env.SMS_WEBHOOK_URL}"`];
  return missing.length ? [`SMS_PROVIDER=${provider} needs ${missing.join(', ')}`] : [];
}

/** TRUST_PROXY as the addresses whose X-Forwarded-For entries are believed; false when unset, `0` or `false`. */
export function trustedProxies(value: string | undefined): false | string[] {
  const text = (value ?? '').trim().toLowerCase();
  if (['', '0', 'false'].includes(text)) return false;
  // A proxy on this machine: nginx in front of processes on 127.0.0.1 (deploy/nginx.conf).
  if (text === '1' || text === 'true') return ['loopback'];
  const entries = text.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => {
    if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return false;
    try {
      if (entry.includes('/')) ipaddr.parseCIDR(entry);
      else ipaddr.parse(entry);
      return false;
    } catch {
      return true;
    }
  });
  if (bad.length) throw new Error(`TRUST_PROXY: not an address or CIDR: ${bad.join(', ')}`);
  return entries;
}

/** LT_CORS_ORIGINS: '*' for any origin, else the listed origins without trailing slashes. */
function corsOrigins(value: string): '*' | string[] {
  const origins = value
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  return origins.length === 0 || origins.includes('*') ? '*' : origins;
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): ServerConfig {
  const env = readEnv(source);
  // the same rule as domain/accounts/wechat.ts wechatProvider(): WeChat's way back needs PUBLIC_URL
  const wechat = Boolean(env.WECHAT_APPID && env.WECHAT_SECRET && env.PUBLIC_URL);
  const apiBase = env.BASE_URL.replace(/\/+$/, '');
  return {
    port: env.PORT,
    host: env.HOST,
    dataDir: resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    adminPhone: env.ADMIN_PHONE,
    adminPassword: env.ADMIN_PASSWORD,
    smsProvider: env.SMS_PROVIDER,
    sms: {
      provider: env.SMS_PROVIDER as SmsGatewayName,
      timeoutMs: env.SMS_TIMEOUT_MS,
      signName: env.SMS_SIGN_NAME ?? '',
      templates: {
        register: env.SMS_TEMPLATE_REGISTER ?? env.SMS_TEMPLATE_CODE ?? '',
        reset: env.SMS_TEMPLATE_RESET ?? env.SMS_TEMPLATE_CODE ?? '',
        phone: env.SMS_TEMPLATE_PHONE ?? env.SMS_TEMPLATE_CODE ?? '',
        verify_old: env.SMS_TEMPLATE_VERIFY_OLD ?? env.SMS_TEMPLATE_CODE ?? '',
        invite: env.SMS_TEMPLATE_INVITE ?? '',
      },
      aliyun: {
        accessKeyId: env.ALIYUN_SMS_ACCESS_KEY_ID ?? '',
        accessKeySecret: env.ALIYUN_SMS_ACCESS_KEY_SECRET ?? '',
        url: env.ALIYUN_SMS_URL,
      },
      tencent: {
        secretId: env.TENCENT_SMS_SECRET_ID ?? '',
        secretKey: env.TENCENT_SMS_SECRET_KEY ?? '',
        appId: env.TENCENT_SMS_APP_ID ?? '',
        region: env.TENCENT_SMS_REGION,
        url: env.TENCENT_SMS_URL,
      },
      webhook: { url: env.SMS_WEBHOOK_URL ?? '', secret: env.SMS_WEBHOOK_SECRET ?? '' },
    },
    publicConfig: {
      // No trailing slash: the client appends '/user/...'. ('/' means same origin, like ''.)
      baseURL: env.BASE_URL.replace(/\/+$/, ''),
      // this server's own WeChat login when WeChat is configured and no other address is given
      wxURL: env.WX_URL || (wechat ? `${apiBase}/user/wechat/login` : ''),
      bindWechat: env.BIND_WECHAT_URL || (wechat ? `${apiBase}/user/wechat/bind` : ''),
      resetWechat: env.RESET_WECHAT_URL || (wechat ? `${apiBase}/user/wechat/unbind` : ''),
      socketURL: env.SOCKET_URL,
    },
    // Documents are uploaded as multipart; JSON bodies (check_text) stay well under 10 MB.
    bodyLimit: env.BODY_LIMIT,
    uploadLimit: env.UPLOAD_LIMIT,
    // long enough for the largest upload on a slow line, short enough that trickling bodies cannot pile up
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
    logLevel: env.LOG_LEVEL,
    trustProxy: trustedProxies(env.TRUST_PROXY),
    spaDir: resolve(env.SPA_DIR),
    checkRateLimit: {
      checkMax: env.CHECK_RATE_MAX,
      anonymousMax: env.LT_ANON_RATE_MAX,
      windowMs: env.CHECK_RATE_WINDOW_MS,
    },
    authRateLimit: { loginPerAddress: env.LOGIN_IP_RATE_MAX, smsPerAddress: env.SMS_IP_RATE_MAX },
    passwordHashCost: env.PASSWORD_HASH_COST,
    heavy: {
      workers: env.HEAVY_WORKERS ?? Math.min(2, availableParallelism()),
      queueMax: env.HEAVY_QUEUE_MAX,
      timeoutMs: env.HEAVY_TIMEOUT_MS,
      heapMb: env.HEAVY_HEAP_MB,
      outputMax: env.HEAVY_OUTPUT_MAX,
    },
    // A 500-page book is about 2 MB of HTML; more is an attempt to exhaust the converter.
    htmlMax: env.HTML_MAX,
    instance: { heartbeatMs: env.INSTANCE_HEARTBEAT_MS, staleMs: env.INSTANCE_STALE_MS },
    socketSessionsPerUser: env.SOCKET_SESSIONS_PER_USER,
    jobs: {
      concurrency: {
        document: env.DOC_WORKERS,
        pdf: env.PDF_WORKERS,
        image: env.IMAGE_WORKERS,
        speech: env.MEDIA_WORKERS,
        website: env.WEB_WORKERS,
      },
      maxAttempts: env.JOB_MAX_ATTEMPTS,
      retryMs: env.JOB_RETRY_MS,
      pollMs: env.JOB_POLL_MS,
    },
    web: {
      allow: (env.WEB_FETCH_ALLOW ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      maxBytes: env.WEB_FETCH_MAX_BYTES,
      timeoutMs: env.WEB_FETCH_TIMEOUT_MS,
      maxRedirects: env.WEB_FETCH_MAX_REDIRECTS,
      crawlDelayMs: env.WEB_CRAWL_DELAY_MS,
    },
    ai: {
      url: env.AI_URL,
      apiKey: env.AI_API_KEY,
      model: env.AI_MODEL,
      idleTimeoutMs: env.AI_IDLE_TIMEOUT_MS,
      maxOutputChars: env.AI_MAX_OUTPUT_CHARS,
    },
    checker: {
      workers: env.CHECK_WORKERS ?? Math.min(4, availableParallelism()),
      faultMarker: env.CHECKER_FAULT_MARKER,
      cacheEntries: env.CHECK_CACHE_ENTRIES,
      cacheBytes: env.CHECK_CACHE_MB * 1024 * 1024,
    },
    media: {
      maxMinutes: env.MEDIA_MAX_MINUTES,
      asr: { url: env.ASR_URL, apiKey: env.ASR_API_KEY, model: env.ASR_MODEL, timeoutMs: env.ASR_TIMEOUT_MS },
    },
    tools: {
      ffmpegPath: env.FFMPEG_PATH,
      sofficePath: env.SOFFICE_PATH,
      cjkFontPath: env.CJK_FONT_PATH,
      mediaTimeoutMs: env.MEDIA_TIMEOUT_MS,
      ocrMaxFrames: env.MEDIA_OCR_MAX_FRAMES,
      workerBundles: env.WORKER_BUNDLE_DIR,
    },
    team: {
      inviteDays: env.TEAM_INVITE_DAYS,
      poolFallback: env.TEAM_POOL_FALLBACK,
      defaultSeats: env.TEAM_DEFAULT_SEATS,
    },
    compare: { maxPages: env.COMPARE_MAX_PAGES, maxSizeMb: env.COMPARE_MAX_SIZE_MB },
    pdf: { maxPages: env.PDF_MAX_PAGES },
    apiKeysNeedApproval: env.API_KEYS_NEED_APPROVAL,
    publicUrl: env.PUBLIC_URL,
    origin: originOf(env),
    wechat: {
      appId: env.WECHAT_APPID,
      secret: env.WECHAT_SECRET,
      openUrl: env.WECHAT_OPEN_URL,
      apiUrl: env.WECHAT_API_URL,
    },
    metricsToken: env.METRICS_TOKEN,
    ltCorsOrigins: corsOrigins(env.LT_CORS_ORIGINS),
    paths: {
      formatTemplates: env.FORMAT_TEMPLATES_DIR,
      wordLibraries: env.WORD_LIBRARIES_DIR,
    },
  };
}

/** The README's configuration table, generated from ENV_SCHEMA (scripts/gen-config-docs.ts writes it). */
export function configTable(): string {
  const rows = ['| variable | default | meaning |', '|---|---|---|'];
  for (const [name, schema] of Object.entries(ENV_SCHEMA.properties)) {
    rows.push(`| \`${name}\` | ${String(schema.shown)} | ${schema.description ?? ''} |`);
  }
  return rows.join('\n');
}

// The one openapi-fetch client (spec §7 headers and tracking parameters) and `unwrap()`, which turns
// every failure into an ApiError after applying the error catalogue (spec §8) and raising events.
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from '../../openapi/schema';
import {
  ApiError,
  catalogue,
  isTextTooLong,
  Messages,
  QUOTA_EXHAUSTED_STATUS,
  SILENT_PATHS,
  TEXT_TOO_LONG_STATUS,
} from './errors';
import { notify } from './notify';
import { getDeviceId, getToken, getTrackingParams } from './storage';
import { rememberServerMessage } from './serverMessages';

export { ApiError, isApiError } from './errors';

/** Platform code sent as the `endpoint` header and socket query (web = 1). */
export const PLATFORM_CODE = '1';

/** Guide show/access are called without the device id (spec §7). */
const NO_DEVICE_ID_PATHS = new Set(['/wizard/v1/show', '/wizard/v1/access']);

/** The interface languages as Accept-Language tags: the server writes its data (names, texts) in the one sent. */
export const ACCEPT_LANGUAGE = { cn: 'zh-CN', en: 'en', hk: 'zh-HK' } as const;
let language: keyof typeof ACCEPT_LANGUAGE | null = null;

/** The interface language every call sends from now on (set before the screens refetch in it). */
export function setApiLanguage(locale: keyof typeof ACCEPT_LANGUAGE): void {
  language = locale;
}

export type FetchLike = (input: Request, init?: RequestInit) => Promise<Response>;

export interface ApiOptions {
  /** API base address from the runtime config; '' = same origin. */
  baseURL?: string;
  /** Replaces the global fetch (tests fake the transport here). */
  fetch?: FetchLike;
}

export function resolveBaseUrl(baseURL = ''): string {
  const trimmed = baseURL.replace(/\/+$/, '');
  if (/^https?:\/\//i.test(trimmed)) return trimmed;
  const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
  const base = origin && origin !== 'null' ? origin : 'http://localhost';
  return base + (trimmed && !trimmed.startsWith('/') ? `/${trimmed}` : trimmed);
}

/** Calls made without a session: a 401 there means wrong credentials, not an expired login. */
const CREDENTIAL_PATHS = new Set(['/user/login', '/user/register', '/user/sms_code', '/user/reset_pwd']);

/** Calls (by openapi-fetch's id) that brought their own bearer token: a link's, checked before it is stored. */
const ownTokenCalls = new Set<string>();

// Which call produced a response, so unwrap() can tell silent calls and session-less 401s.
interface CallInfo {
  path: string;
  /** a bearer token was sent, so a 401 means the login is no longer valid */
  withSession: boolean;
}
const callOfResponse = new WeakMap<Response, CallInfo>();

class NetworkError extends Error {
  constructor(
    readonly schemaPath: string,
    readonly cause: unknown,
  ) {
    super(Messages.network);
    this.name = 'NetworkError';
  }
}

/**
 * The headers every call carries (bearer token, device id, platform) and the tracking parameters: the middleware
 * below for the generated client, and uploads (sent with XMLHttpRequest for their progress) directly.
 */
export function withCallHeaders(request: Request, schemaPath: string): Request {
  const token = getToken();
  if (token && !request.headers.has('Authorization')) request.headers.set('Authorization', `Bearer ${token}`);
  if (!NO_DEVICE_ID_PATHS.has(schemaPath)) request.headers.set('cid', getDeviceId());
  request.headers.set('endpoint', PLATFORM_CODE);
  if (language) request.headers.set('Accept-Language', ACCEPT_LANGUAGE[language]);
  const tracking = getTrackingParams();
  if (tracking.length === 0) return request;
  const url = new URL(request.url);
  let changed = false;
  for (const [key, value] of tracking) {
    if (!url.searchParams.has(key)) {
      url.searchParams.set(key, value);
      changed = true;
    }
  }
  return changed ? new Request(url, request) : request;
}

export const headerMiddleware: Middleware = {
  onRequest: ({ request, schemaPath, id }) => {
    if (request.headers.has('Authorization')) ownTokenCalls.add(id);
    return withCallHeaders(request, schemaPath);
  },
  onResponse({ request, response, schemaPath, id }) {
    // another token's 401 says nothing about the stored login
    const ownToken = ownTokenCalls.delete(id);
    callOfResponse.set(response, {
      path: schemaPath,
      withSession: request.headers.has('Authorization') && !ownToken && !CREDENTIAL_PATHS.has(schemaPath),
    });
    return undefined;
  },
  onError({ error, schemaPath, id }) {
    ownTokenCalls.delete(id);
    return new NetworkError(schemaPath, error);
  },
};

export function createApiClient(options: ApiOptions = {}): Client<paths> {
  const client = createClient<paths>({
    baseUrl: resolveBaseUrl(options.baseURL),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  client.use(headerMiddleware);
  return client;
}

let current: Client<paths> = createApiClient();
let currentOptions: ApiOptions = {};

/** The shared client. It forwards to the instance made by the latest configureApi(). */
export const api: Client<paths> = new Proxy({} as Client<paths>, {
  get: (_target, key) => Reflect.get(current, key),
});

export function configureApi(options: ApiOptions): void {
  current = createApiClient(options);
  currentOptions = options;
}

/** The API base address and the injected transport (uploads with byte progress use XMLHttpRequest). */
export function apiTransport(): { baseUrl: string; fetch: FetchLike | null } {
  return { baseUrl: resolveBaseUrl(currentOptions.baseURL), fetch: currentOptions.fetch ?? null };
}

// ---- events ---------------------------------------------------------------------------------

type Listener<T> = (value: T) => void;
const unauthorizedListeners = new Set<Listener<void>>();
const quotaListeners = new Set<Listener<QuotaExhausted>>();

export interface QuotaExhausted {
  /** 1: the dialog stays until chosen; 2: it closes itself after 6 s (spec §2, §9). */
  kind: 1 | 2;
  message: string;
}

/** Session listens here: any 401 logs the user out. */
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => void unauthorizedListeners.delete(listener);
}

/** The quota dialog listens here. */
export function onQuotaExhausted(listener: (event: QuotaExhausted) => void): () => void {
  quotaListeners.add(listener);
  return () => void quotaListeners.delete(listener);
}

export const UNAUTHORIZED_MESSAGE_INTERVAL_MS = 3000;
let lastUnauthorizedNoticeAt = Number.NEGATIVE_INFINITY;

/** Spec §8: the 401 message shows at most once per 3 s; every 401 tells the session. */
export function reportUnauthorized(options: { silent?: boolean } = {}): void {
  const now = Date.now();
  if (!options.silent && now - lastUnauthorizedNoticeAt >= UNAUTHORIZED_MESSAGE_INTERVAL_MS) {
    lastUnauthorizedNoticeAt = now;
    notify({ status: 'error', title: Messages.unauthorized });
  }
  for (const listener of [...unauthorizedListeners]) listener();
}

/** Tests start each case with a fresh throttle. */
export function resetUnauthorizedThrottle(): void {
  lastUnauthorizedNoticeAt = Number.NEGATIVE_INFINITY;
}

// ---- unwrap ---------------------------------------------------------------------------------

export interface UnwrapOptions {
  /** Never show a message for this call (errors still throw and 401 still logs out). */
  silent?: boolean;
}

interface Envelope {
  code: number;
  msg?: string | null;
  /** the message's stable code and values (openapi/messages.ts): shown in the reader's language */
  msg_code?: unknown;
  msg_params?: unknown;
  result?: unknown;
}

/** The envelope's msg, its code remembered for whoever shows it. */
const serverText = (envelope: Envelope): string | null | undefined =>
  typeof envelope.msg === 'string'
    ? rememberServerMessage(envelope.msg.trim(), envelope.msg_code, envelope.msg_params)
    : envelope.msg;

function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && typeof (value as Envelope).code === 'number';
}

function fail(
  status: number,
  code: number,
  serverMsg: string | null | undefined,
  result: unknown,
  silent: boolean,
  withSession = true,
): never {
  const effective = status === 200 ? code : status;
  if (effective === 401 && withSession) {
    reportUnauthorized({ silent });
    throw new ApiError(status, code, Messages.unauthorized, result);
  }
  if (effective === QUOTA_EXHAUSTED_STATUS) {
    const message = catalogue(effective, serverMsg).message;
    const kindValue = (result as { kind?: unknown } | null)?.kind;
    const event: QuotaExhausted = { kind: kindValue === 2 ? 2 : 1, message };
    for (const listener of [...quotaListeners]) listener(event);
    throw new ApiError(status, code, message, result);
  }
  // over the plan's per-check limit: the screen that asked offers the first part or an upgrade, so no toast
  if (effective === TEXT_TOO_LONG_STATUS && isTextTooLong(result)) {
    throw new ApiError(status, code, catalogue(effective, serverMsg).message, result);
  }
  // A 401 without a session (wrong phone or password) is an ordinary failure with the server's msg.
  const entry =
    effective === 401 && serverMsg?.trim()
      ? { message: serverMsg.trim(), silent: false }
      : catalogue(effective, serverMsg);
  if (!silent && !entry.silent && entry.message) notify({ status: 'error', title: entry.message });
  throw new ApiError(status, code, entry.message, result);
}

/**
 * Resolves an openapi-fetch call to the envelope's `result` (or the raw body for binary calls),
 * or throws ApiError after the catalogue. A body `code` other than 200 inside HTTP 200 is an error.
 */
export async function unwrap<D, E = unknown>(
  pending: Promise<{ data?: D; error?: E; response: Response }>,
  options: UnwrapOptions = {},
): Promise<ResultOf<D>> {
  let outcome: { data?: D; error?: E; response: Response };
  try {
    outcome = await pending;
  } catch (error) {
    const path = error instanceof NetworkError ? error.schemaPath : '';
    fail(0, 0, null, null, Boolean(options.silent) || SILENT_PATHS.includes(path));
  }
  const { response } = outcome;
  const call = callOfResponse.get(response) ?? { path: '', withSession: true };
  const silent = Boolean(options.silent) || SILENT_PATHS.includes(call.path);
  if (!response.ok) {
    const body = outcome.error;
    const envelope = isEnvelope(body) ? body : null;
    fail(
      response.status,
      envelope?.code ?? response.status,
      envelope ? serverText(envelope) : undefined,
      envelope?.result ?? null,
      silent,
      call.withSession,
    );
  }
  const data = outcome.data;
  if (isEnvelope(data)) {
    if (data.code !== 200) fail(200, data.code, serverText(data), data.result ?? null, silent, call.withSession);
    return (data.result ?? null) as ResultOf<D>;
  }
  return data as ResultOf<D>;
}

/** The `result` of a JSON envelope, or the body itself for binary calls. */
export type ResultOf<D> = [D] extends [{ code: number; result?: infer R }] ? R : D;

import { renderMessage, type MessageParams, type ServerMessageCode } from '../openapi/messages';

/**
 * An error whose status and message are meant for the client (the shared envelope's code and msg, with the
 * message's stable code in msg_code and its values in msg_params); the error handler (plugins/errors.ts) writes
 * every one of them, with `result` when the answer carries data (402's kind). Throw them through the helpers
 * below, one per status of the spec's catalogue.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly msgCode: ServerMessageCode,
    readonly msgParams: MessageParams = {},
    /** headers the answer carries (Retry-After of a 503 or 429) */
    readonly headers: Record<string, string> = {},
    /** the envelope's result (null for most errors) */
    readonly result: ErrorResult = null,
  ) {
    super(renderMessage(msgCode, msgParams));
    this.name = 'AppError';
  }
}

/** What an error's envelope carries besides its message: a 402's dialog kind, a 413's limit and length. */
export type ErrorResult = { kind: 1 | 2 } | TextTooLong | null;

/** The text is longer than one check of the user's plan allows (`max`), `total` characters; not a spent quota. */
export interface TextTooLong {
  max: number;
  total: number;
}

/**
 * 402 with `result: {kind}` for the quota dialog: kind 1 opens it, kind 2 is the dialog that closes itself after
 * 6 s.
 */
export class QuotaError extends AppError {
  constructor(code: ServerMessageCode, params: MessageParams = {}, kind: 1 | 2 = 1) {
    super(402, code, params, {}, { kind });
    this.name = 'QuotaError';
  }
}

type Helper = (code: ServerMessageCode, params?: MessageParams) => AppError;
const withStatus =
  (status: number): Helper =>
  (code, params) =>
    new AppError(status, code, params);

export const badRequest = withStatus(400);
export const unauthorized = (code: ServerMessageCode = 'auth.expired') => new AppError(401, code);
export const paymentRequired = (code: ServerMessageCode, params?: MessageParams) => new QuotaError(code, params);
export const forbidden = withStatus(403);
export const notFound = withStatus(404);
export const conflict = withStatus(409);
export const gone = withStatus(410);
export const tooLarge = withStatus(413);
/**
 * 413 `check.too_long` with `result: {max, total}`: over the plan's per-check ceiling (rights 32, 64, 128). Not a 402:
 * the balance may be full, so the client offers the first part or an upgrade instead of the quota dialog.
 */
export const textTooLong = (max: number, total: number) =>
  new AppError(413, 'check.too_long', { max, total }, {}, { max, total });
export const unsupportedMediaType = withStatus(415);
export const internalError = withStatus(500);
export const notImplemented = withStatus(501);
export const unavailable = withStatus(503);
/** 503 with Retry-After: the heavy worker pool's queue is full. */
export const serviceBusy = (retryAfterSeconds: number) =>
  new AppError(503, 'server.busy', { seconds: retryAfterSeconds }, { 'retry-after': String(retryAfterSeconds) });
/**
 * 429 with Retry-After: every refusal for going too fast says when to try again (whole seconds, at least 1), so a
 * client or a script backs off for exactly that long instead of hammering.
 */
export const tooManyRequests = (
  retryAfterSeconds: number,
  code: ServerMessageCode = 'rate.too_many',
  params?: MessageParams,
) => new AppError(429, code, params, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

/** The shared envelope `{code, msg, result}`. */
export function envelope<T>(result: T, msg = 'success') {
  return { code: 200, msg, result };
}

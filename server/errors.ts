/**
 * An error whose status and message are meant for the client (the shared envelope's code and msg); the error
 * handler (plugins/errors.ts) writes every one of them, with `result` when the answer carries data (402's kind).
 * Throw them through the helpers below, one per status of the spec's catalogue.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** headers the answer carries (Retry-After of a 503 or 429) */
    readonly headers: Record<string, string> = {},
    /** the envelope's result (null for most errors) */
    readonly result: { kind: 1 | 2 } | null = null,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/**
 * 402 with `result: {kind}` for the quota dialog: kind 1 opens it, kind 2 is the dialog that closes itself after
 * 6 s.
 */
export class QuotaError extends AppError {
  constructor(message: string, kind: 1 | 2 = 1) {
    super(402, message, {}, { kind });
    this.name = 'QuotaError';
  }
}

export const badRequest = (msg: string) => new AppError(400, msg);
export const unauthorized = (msg = '登录已失效，请重新登录') => new AppError(401, msg);
export const paymentRequired = (msg: string, kind: 1 | 2 = 1) => new QuotaError(msg, kind);
export const forbidden = (msg: string) => new AppError(403, msg);
export const notFound = (msg: string) => new AppError(404, msg);
export const conflict = (msg: string) => new AppError(409, msg);
export const gone = (msg: string) => new AppError(410, msg);
export const tooLarge = (msg: string) => new AppError(413, msg);
export const unsupportedMediaType = (msg: string) => new AppError(415, msg);
export const internalError = (msg: string) => new AppError(500, msg);
export const notImplemented = (msg: string) => new AppError(501, msg);
/** 503 with Retry-After: the heavy worker pool's queue is full. */
export const serviceBusy = (retryAfterSeconds: number) =>
  new AppError(
    503,
    `服务器繁忙，请 ${retryAfterSeconds} 秒后再试 (the server is busy, retry in ${retryAfterSeconds} s)`,
    {
      'retry-after': String(retryAfterSeconds),
    },
  );
export const tooManyRequests = (msg = '请求过于频繁，请稍后再试') => new AppError(429, msg);

/** The shared envelope `{code, msg, result}`. */
export function envelope<T>(result: T, msg = 'success') {
  return { code: 200, msg, result };
}

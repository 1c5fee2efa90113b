/** An error whose status and message are meant for the client (the shared envelope's code and msg). */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** headers the answer carries (Retry-After of a 503 or 429) */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (msg: string) => new AppError(400, msg);
export const unauthorized = (msg = '登录已失效，请重新登录') => new AppError(401, msg);
export const notFound = (msg: string) => new AppError(404, msg);
export const conflict = (msg: string) => new AppError(409, msg);
/** 503 with Retry-After: the heavy worker pool's queue is full. */
export const serviceBusy = (retryAfterSeconds: number) =>
  new AppError(503, `服务器繁忙，请 ${retryAfterSeconds} 秒后再试 (the server is busy, retry in ${retryAfterSeconds} s)`, {
    'retry-after': String(retryAfterSeconds),
  });
export const tooManyRequests = (msg = '请求过于频繁，请稍后再试') => new AppError(429, msg);

/** The shared envelope `{code, msg, result}`. */
export function envelope<T>(result: T, msg = 'success') {
  return { code: 200, msg, result };
}

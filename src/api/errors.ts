// Spec §8, the error catalogue: which message a failed call shows, if any.

export const Messages = {
  network: '网络连接失败',
  badRequest: '请求失败',
  methodNotAllowed: '请求方式不被允许',
  uploadFailed: '文档上传失败',
  system: '系统异常',
  unauthorized: '登录已失效，请重新登录',
} as const;

/** Calls whose errors are never shown to the user (spec §8). */
export const SILENT_PATHS: readonly string[] = [
  '/enterprise/v1/share_dic_in_use',
  '/misscut/v1/click',
  '/proofread/result/collect/receive',
];

/** HTTP status (or body code) the server uses when a quota is exhausted; `result.kind` picks the dialog. */
export const QUOTA_EXHAUSTED_STATUS = 402;

/** HTTP status of a text longer than one check of the user's plan allows (`check.too_long`, result `{max, total}`). */
export const TEXT_TOO_LONG_STATUS = 413;

/** The plan's per-check limit and the text's length, both in characters (non-white-space code points). */
export interface TextTooLong {
  max: number;
  total: number;
}

/** The result of a 413 `check.too_long`. */
export function isTextTooLong(value: unknown): value is TextTooLong {
  const v = value as Partial<TextTooLong> | null;
  return typeof v === 'object' && v !== null && typeof v.max === 'number' && typeof v.total === 'number';
}

/** A failed call, after the catalogue: `status` is the HTTP status (0 = no response), `code` the envelope code. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: number;
  readonly result: unknown;
  constructor(status: number, code: number, message: string, result: unknown = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.result = result;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

export interface CatalogueEntry {
  /** The text to show; '' means nothing is shown. */
  message: string;
  /** Passes silently: no message at all, whatever the server said. */
  silent: boolean;
}

/**
 * The catalogue row for a failure. `code` is the status (HTTP, or the envelope code when the HTTP
 * status was 200); `serverMsg` is preferred when present, except where the spec fixes the text (401)
 * or asks for nothing (406 empty message, 410 silent).
 */
export function catalogue(code: number, serverMsg?: string | null): CatalogueEntry {
  const msg = typeof serverMsg === 'string' ? serverMsg.trim() : '';
  switch (code) {
    case 401:
      return { message: Messages.unauthorized, silent: false };
    case 406:
      return { message: '', silent: false };
    case 410:
      return { message: '', silent: true };
  }
  if (msg) return { message: msg, silent: false };
  switch (code) {
    case 0:
    case 404:
      return { message: Messages.network, silent: false };
    case 400:
      return { message: Messages.badRequest, silent: false };
    case 405:
      return { message: Messages.methodNotAllowed, silent: false };
    case 413:
      return { message: Messages.uploadFailed, silent: false };
    default:
      return { message: Messages.system, silent: false };
  }
}

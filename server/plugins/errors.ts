import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorResult } from '../errors';
import { countProviderError } from '../metrics';
import { renderMessage, type MessageParams, type ServerMessageCode } from '../../openapi/messages';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** "body.phone must be string" from Ajv's error; one issue is enough for a person to fix the call. */
export function describeValidation(issues: ValidationIssue[], context?: string): { field: string; problem: string } {
  const issue = issues[0] ?? {};
  const part = PART_NAMES[context ?? ''] ?? context ?? 'request';
  const path = (issue.instancePath ?? '').split('/').filter(Boolean);
  let message = issue.message ?? 'is invalid';
  if (issue.keyword === 'required' && issue.params?.missingProperty) {
    path.push(String(issue.params.missingProperty));
    message = 'is required';
  } else if (issue.keyword === 'additionalProperties' && issue.params?.additionalProperty) {
    path.push(String(issue.params.additionalProperty));
    message = 'is not allowed';
  } else if (issue.keyword === 'enum' && Array.isArray(issue.params?.allowedValues)) {
    message = `must be one of ${issue.params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  return { field: [part, ...path].join('.'), problem: message };
}

const CLIENT_ERRORS: Record<string, [number, ServerMessageCode]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'request.malformed_json'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'request.empty_body'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'request.body_too_large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'request.unsupported_type'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'request.bad_length'],
  FST_REQ_FILE_TOO_LARGE: [413, 'upload.file_too_large'],
  FST_PARTS_LIMIT: [413, 'upload.too_many_parts'],
  FST_FILES_LIMIT: [413, 'upload.too_many_files'],
  FST_FIELDS_LIMIT: [413, 'upload.too_many_fields'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [400, 'upload.not_multipart'],
};

/**
 * busboy (under @fastify/multipart) rejects a malformed multipart body with plain Errors that carry no code: no
 * boundary, a boundary too long to search for, a body or part that ends early. They come from reading what the
 * client sent, so they are its mistake, not ours.
 */
const MULTIPART_SYNTAX = new RegExp(
  [
    '^Multipart: Boundary not found',
    '^Unexpected end of multipart data',
    '^\\w+ terminated early due to unexpected end of multipart data',
    '^The needle cannot ',
  ].join('|'),
);

/** Errors of the file system under DATA_DIR (full, read-only, failing disk), counted for /metrics. */
const STORAGE_FAULTS = new Set(['EIO', 'ENOSPC', 'EROFS', 'EDQUOT', 'EACCES', 'EPERM', 'EMFILE', 'ENFILE']);

/** The error envelope: `msg` in the source language, `msg_code` and `msg_params` for the client's own language. */
export const errorBody = (
  code: number,
  msgCode: ServerMessageCode,
  params: MessageParams = {},
  result: ErrorResult = null,
) => ({
  code,
  msg: renderMessage(msgCode, params),
  msg_code: msgCode,
  ...(Object.keys(params).length ? { msg_params: params } : {}),
  result,
});

const send = (
  reply: FastifyReply,
  code: number,
  msgCode: ServerMessageCode,
  params: MessageParams = {},
  result: ErrorResult = null,
) =>
  reply
    .code(code)
    .type('application/json; charset=utf-8')
    .send(errorBody(code, msgCode, params, result));

/** One error handler for the whole API: every failure is the `{code, msg, result: null}` envelope. */
export default fp(
  async (app) => {
    app.setErrorHandler(
      (error: FastifyError & { errors?: unknown[] }, request: FastifyRequest, reply: FastifyReply) => {
        if (error.validation)
          return send(reply, 400, 'request.invalid', describeValidation(error.validation, error.validationContext));
        if (error instanceof AppError)
          return send(reply.headers(error.headers), error.statusCode, error.msgCode, error.msgParams, error.result);
        const known = error.code ? CLIENT_ERRORS[error.code] : undefined;
        if (known) return send(reply, known[0], known[1]);
        if (!error.statusCode && request.isMultipart?.() && MULTIPART_SYNTAX.test(error.message ?? '')) {
          return send(reply, 400, 'upload.not_multipart');
        }
        const status = error.statusCode ?? 500;
        if (status === 401) {
          // fastify-openapi-glue wraps the bearerAuth failure; its inner error carries our message.
          const inner = error.errors?.find((e): e is AppError => e instanceof AppError);
          return send(reply, 401, inner?.msgCode ?? 'auth.expired');
        }
        // a plugin's own 429 (none of ours: they are AppErrors with their Retry-After) still says when to retry
        if (status === 429)
          return send(reply.header('retry-after', reply.getHeader('retry-after') ?? '60'), 429, 'rate.too_many');
        // another 4xx thrown by a plugin: the client's mistake, worded by the catalogue row of its status
        if (status >= 400 && status < 500)
          return send(reply, status, status === 413 ? 'request.body_too_large' : 'request.invalid', {
            field: 'request',
            problem: error.message,
          });
        request.log.error({ err: error }, 'request failed');
        if (STORAGE_FAULTS.has(error.code)) countProviderError('storage');
        return send(reply, 500, 'server.internal');
      },
    );
    app.setNotFoundHandler((request, reply) =>
      send(reply, 404, 'request.no_route', { method: request.method, path: request.url.split('?')[0] }),
    );
  },
  { name: 'errors' },
);

import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** "body.phone: must be string" from Ajv's error; one issue is enough for a person to fix the call. */
export function describeValidation(issues: ValidationIssue[], context?: string): string {
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
  return `请求参数错误 (invalid request): ${[part, ...path].join('.')} ${message}`;
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, '请求体不是有效的 JSON (malformed JSON body)'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, '请求体为空 (empty JSON body)'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, '请求体过大 (request body too large)'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, '不支持的内容类型 (unsupported content type)'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, '请求长度不正确 (invalid content length)'],
  FST_REQ_FILE_TOO_LARGE: [413, '文件过大 (file too large)'],
  FST_PARTS_LIMIT: [413, '上传的部分过多 (too many parts)'],
  FST_FILES_LIMIT: [413, '上传的文件过多 (too many files)'],
  FST_FIELDS_LIMIT: [413, '上传的字段过多 (too many fields)'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [400, '不是有效的 multipart 请求 (not a multipart request)'],
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

const send = (reply: FastifyReply, code: number, msg: string, result: { kind: 1 | 2 } | null = null) =>
  reply.code(code).type('application/json; charset=utf-8').send({ code, msg, result });

/** One error handler for the whole API: every failure is the `{code, msg, result: null}` envelope. */
export default fp(
  async (app) => {
    app.setErrorHandler(
      (error: FastifyError & { errors?: unknown[] }, request: FastifyRequest, reply: FastifyReply) => {
        if (error.validation) return send(reply, 400, describeValidation(error.validation, error.validationContext));
        if (error instanceof AppError)
          return send(reply.headers(error.headers), error.statusCode, error.message, error.result);
        const known = error.code ? CLIENT_ERRORS[error.code] : undefined;
        if (known) return send(reply, known[0], known[1]);
        if (!error.statusCode && request.isMultipart?.() && MULTIPART_SYNTAX.test(error.message ?? '')) {
          return send(reply, 400, '不是有效的 multipart 请求 (malformed multipart body)');
        }
        const status = error.statusCode ?? 500;
        if (status === 401) {
          // fastify-openapi-glue wraps the bearerAuth failure; its inner error carries our message.
          const inner = error.errors?.find((e): e is AppError => e instanceof AppError);
          return send(reply, 401, inner?.message ?? '登录已失效，请重新登录');
        }
        if (status === 429) return send(reply, 429, '请求过于频繁，请稍后再试 (too many requests)');
        if (status >= 400 && status < 500) return send(reply, status, error.message);
        request.log.error({ err: error }, 'request failed');
        return send(reply, 500, '系统异常 (internal error)');
      },
    );
    app.setNotFoundHandler((request, reply) =>
      send(reply, 404, `接口不存在 (no route ${request.method} ${request.url.split('?')[0]})`),
    );
  },
  { name: 'errors' },
);

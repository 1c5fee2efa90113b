import fp from 'fastify-plugin';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { AppError } from '../errors';

/**
 * Request validation for the OpenAPI 3.1 schemas (JSON Schema 2020-12). Bodies are validated
 * strictly ("1" is not a number); query strings, path params and headers arrive as text and are
 * coerced to the declared types.
 */
function makeAjv(coerceTypes: boolean | 'array') {
  const ajv = new Ajv2020({ strict: false, allErrors: false, coerceTypes, useDefaults: true, removeAdditional: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  // OpenAPI-only keywords the contract may carry.
  for (const keyword of ['example', 'discriminator', 'xml', 'externalDocs']) {
    if (!ajv.getKeyword(keyword)) ajv.addKeyword(keyword);
  }
  return ajv;
}

export default fp(
  async (app) => {
    const strict = makeAjv(false);
    const coercing = makeAjv('array');
    app.setValidatorCompiler(({ schema, httpPart }) => {
      // fastify-openapi-glue adds a shared placeholder $id to schemas with recursion; refs stay root-relative.
      const { $id: _ignored, ...rest } = schema as Record<string, unknown>;
      return (httpPart === 'body' ? strict : coercing).compile(rest);
    });

    // Fastify validates a body only against the schema of its own media type, so a body sent as
    // text/plain to a JSON call would reach the handler unchecked: refuse types the call does not take.
    app.addHook('preValidation', async (request) => {
      const body = request.routeOptions.schema?.body as { content?: Record<string, unknown> } | undefined;
      if (!body?.content) return;
      const accepted = Object.keys(body.content);
      const type = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      if (!type) {
        if (request.body === undefined) throw new AppError(400, `请求体不能为空 (request body required: ${accepted.join(' or ')})`);
        return;
      }
      if (!accepted.includes(type)) throw new AppError(415, `不支持的内容类型 (this call takes ${accepted.join(' or ')}, not ${type})`);
    });
  },
  { name: 'validation' },
);

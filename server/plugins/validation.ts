import fp from 'fastify-plugin';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { badRequest, unsupportedMediaType } from '../errors';

/**
 * Request validation for the OpenAPI 3.1 schemas (JSON Schema 2020-12). Bodies are validated
 * strictly ("1" is not a number); query strings, path params and headers arrive as text and are
 * coerced to the declared types.
 */
function makeAjv(coerceTypes: boolean | 'array') {
  const ajv = new Ajv2020({ strict: false, allErrors: false, coerceTypes, useDefaults: true, removeAdditional: true });
  addFormats(ajv);
  // OpenAPI-only keywords the contract may carry.
  for (const keyword of ['example', 'discriminator', 'xml', 'externalDocs']) {
    if (!ajv.getKeyword(keyword)) ajv.addKeyword(keyword);
  }
  return ajv;
}

// Shared by every app in the process (tests build many): the same schema compiles once.
const strict = makeAjv(false);
const coercing = makeAjv('array');
const compiled = new Map<string, ValidateFunction>();

export default fp(
  async (app) => {
    app.setValidatorCompiler(({ schema, httpPart }) => {
      // fastify-openapi-glue adds a shared placeholder $id to schemas with recursion; refs stay root-relative.
      const { $id: _ignored, ...rest } = schema as Record<string, unknown>;
      const ajv = httpPart === 'body' ? strict : coercing;
      const key = `${httpPart === 'body' ? 'b' : 'c'}${JSON.stringify(rest)}`;
      let validate = compiled.get(key);
      if (!validate) compiled.set(key, (validate = ajv.compile(rest)));
      return validate;
    });

    // Fastify validates a body only against the schema of its own media type, so a body sent as
    // text/plain to a JSON call would reach the handler unchecked: refuse types the call does not take.
    app.addHook('preValidation', async (request) => {
      const body = request.routeOptions.schema?.body as { content?: Record<string, unknown> } | undefined;
      if (!body?.content) return;
      const accepted = Object.keys(body.content);
      const type = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      if (!type) {
        if (request.body === undefined) throw badRequest('request.body_required', { accepted: accepted.join(' / ') });
        return;
      }
      if (!accepted.includes(type))
        throw unsupportedMediaType('request.wrong_type', { accepted: accepted.join(' / '), type });
    });
  },
  { name: 'validation' },
);

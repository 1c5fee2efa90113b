import { fileURLToPath } from 'node:url';
import fp from 'fastify-plugin';
import openapiGlue, { type FastifyOpenapiGlueOptions } from 'fastify-openapi-glue';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { operations } from '../routes';
import type { Operation } from '../routes/types';

export const DEFAULT_SPEC = fileURLToPath(new URL('../../openapi/workbench.yaml', import.meta.url));

export const NOT_AVAILABLE_MSG = '该功能尚未开放 (feature not available yet)';

const notAvailable = async (_request: FastifyRequest, reply: FastifyReply) =>
  reply.code(501).send({ code: 501, msg: NOT_AVAILABLE_MSG, result: null });

// Answered in onRequest: a call that does not exist yet says so whatever its input or token.
const notAvailableRoute = { onRequest: notAvailable, handler: notAvailable };

/** Routes and request validation straight from openapi/workbench.yaml. */
export default fp(
  async (app, opts: { specification?: string; operations?: Record<string, Operation> }) => {
    const handlers = opts.operations ?? operations;
    await app.register(openapiGlue, {
      specification: opts.specification ?? DEFAULT_SPEC,
      operationResolver: ((operationId: string) => handlers[operationId] ?? notAvailableRoute) as FastifyOpenapiGlueOptions['operationResolver'],
      securityHandlers: {
        // Secured operations: a live bearer token or 401 (the error handler writes the envelope).
        bearerAuth: async (request: FastifyRequest) => {
          await app.authenticate(request);
        },
      },
    });
  },
  { name: 'openapi', dependencies: ['auth', 'errors', 'validation'] },
);

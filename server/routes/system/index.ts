import { timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyRequest } from 'fastify';
import { pingDatabase } from '../../db/repos/health';
import { envelope, unauthorized, unavailable } from '../../errors';
import type { Operations } from '../types';

const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export const systemOperations: Operations = {
  /** Runtime configuration for the SPA: plain JSON, no envelope (so one build runs anywhere). */
  getWorkbenchConfigJson: async (request, reply) => {
    reply.header('cache-control', 'no-cache');
    return request.server.config.publicConfig;
  },

  getHealth: async (request) => {
    await pingDatabase(request.server.db);
    return envelope({ status: 'ok', database: request.server.dialect, version }, 'ok');
  },

  /** Readiness for a load balancer: 503 naming what does not work yet (or any more). */
  getReady: async (request, reply) => {
    const checks = await request.server.readiness();
    const missing = Object.entries(checks)
      .filter(([, ok]) => !ok)
      .map(([name]) => name);
    reply.header('cache-control', 'no-store');
    if (missing.length > 0) throw unavailable('server.not_ready', { missing: missing.join(', ') });
    return envelope({ status: 'ready' as const, checks }, 'ok');
  },

  getMetrics: async (request, reply) => {
    const { metricsToken } = request.server.config;
    if (metricsToken && !bearerIs(request, metricsToken)) throw unauthorized('auth.required');
    const registry = request.server.metrics;
    reply.header('cache-control', 'no-store').type(registry.contentType);
    return registry.metrics();
  },

  /** The contract as JSON, for code generators and API tools (the YAML in the repository is the source). */
  getOpenapiJson: async (request, reply) => {
    reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8');
    return (contractJson ??= JSON.stringify(request.server.swagger()));
  },

  // served by @fastify/swagger-ui (plugins/api-docs.ts); the contract marks it x-no-fastify-config, so this is
  // never routed and only says the call is implemented
  getDocs: async (_request, reply) => reply.redirect('/docs/', 302),
};

let contractJson: string | undefined;

function bearerIs(request: FastifyRequest, token: string): boolean {
  const header = request.headers.authorization ?? '';
  const given = Buffer.from(header.startsWith('Bearer ') ? header.slice(7) : '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

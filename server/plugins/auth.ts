import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../errors';
import { resolveToken } from '../services/tokens';

/** `Authorization: Bearer <token>` (a bare token is accepted too). */
export function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match ? match[1] : header.trim();
}

export default fp(
  async (app) => {
    app.decorateRequest('auth', null);
    app.decorate('authenticate', async (request: FastifyRequest) => {
      const token = bearerToken(request);
      if (!token) throw unauthorized('auth.required');
      const auth = await resolveToken(app.db, token);
      if (!auth) throw unauthorized();
      request.auth = auth;
      return auth;
    });
  },
  { name: 'auth', dependencies: ['db'] },
);

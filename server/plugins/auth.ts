import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../errors';
import { bearerToken, resolveToken } from '../domain/accounts/tokens';

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

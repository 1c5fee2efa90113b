import fp from 'fastify-plugin';
import cors from '@fastify/cors';

/**
 * CORS on the LanguageTool-compatible API (/v2/*) only: editors and browser add-ons call it from their own origins.
 * It authenticates by header (bearer token, username + apiKey), never by cookie, so any origin may call it unless
 * LT_CORS_ORIGINS lists some; credentials are never allowed. Every other path stays same-origin.
 */
export default fp(
  async (app) => {
    const origin = app.config.ltCorsOrigins;
    await app.register(cors, {
      delegator: (request, callback) => {
        if (!request.url.startsWith('/v2/')) return callback(null, { origin: false });
        callback(null, {
          origin,
          methods: ['GET', 'POST'],
          credentials: false,
          exposedHeaders: ['retry-after', 'x-request-id'],
          // browsers ask again after ten minutes, not before each check
          maxAge: 600,
        });
      },
    });
  },
  { name: 'cors' },
);

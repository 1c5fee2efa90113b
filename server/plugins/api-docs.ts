import { dirname } from 'node:path';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { DEFAULT_SPEC } from './openapi';

/**
 * The contract where users look: the reference page at /docs (Swagger UI, its scripts and styles served from here
 * so the CSP's script-src 'self' holds), and the contract itself at /openapi.json (routes/system), both from
 * openapi/workbench.yaml as written, not rebuilt from the routes.
 */
export default fp(
  async (app) => {
    await app.register(swagger, {
      mode: 'static',
      specification: { path: DEFAULT_SPEC, baseDir: dirname(DEFAULT_SPEC) },
    });
    await app.register(swaggerUi, {
      routePrefix: '/docs',
      // no "try it out" against another server, and no badge fetched from the validator's site
      uiConfig: { validatorUrl: null, deepLinking: true, docExpansion: 'none' },
      theme: { title: 'Proofreading workbench API' },
    });
  },
  { name: 'api-docs' },
);

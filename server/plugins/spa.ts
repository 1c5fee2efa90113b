import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './errors';

const NOT_BUILT = `<!doctype html><html lang="zh-CN"><meta charset="utf-8"><title>Workbench not built</title>
<body style="font-family:sans-serif;max-width:40em;margin:4em auto">
<h1>The workbench front end is not built yet</h1>
<p>Run <code>npm run build</code> (or <code>npm start</code>, which builds it when missing), then reload this page.</p>
</body></html>`;

/**
 * The built SPA under /workbench/: files from dist/workbench, and index.html for every deep route
 * (/workbench/dictionary, /workbench/user?status=1) so the client router takes over.
 */
async function spaRoutes(app: FastifyInstance, opts: { root: string }) {
  const indexFile = join(opts.root, 'index.html');
  const sendIndex = async (reply: FastifyReply) => {
    reply.header('cache-control', 'no-cache');
    if (!existsSync(indexFile)) return reply.code(200).type('text/html; charset=utf-8').send(NOT_BUILT);
    return reply.type('text/html; charset=utf-8').send(await readFile(indexFile));
  };

  if (existsSync(opts.root)) {
    const assets = join(opts.root, 'assets') + sep;
    await app.register(fastifyStatic, {
      root: opts.root,
      prefix: '/',
      index: false,
      wildcard: true,
      decorateReply: false,
      cacheControl: false,
      // Vite fingerprints everything under assets/, so those can be cached for good.
      setHeaders: (res, path) =>
        res.setHeader('cache-control', path.startsWith(assets) ? 'public, max-age=31536000, immutable' : 'no-cache'),
    });
  }
  app.get('/', { prefixTrailingSlash: 'slash' }, async (_request, reply) => sendIndex(reply));
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0];
    // A missing file (has an extension) is a real 404; anything else is a client-side route.
    if ((request.method === 'GET' || request.method === 'HEAD') && !extname(path)) return sendIndex(reply);
    return reply.code(404).send(errorBody(404, 'request.file_missing', { path }));
  });
}

export default fp(
  async (app) => {
    // Both keep the query: links such as /?token=... or /workbench?bd_vid=... carry login and tracking data.
    const toWorkbench = async (request: FastifyRequest, reply: FastifyReply) => {
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      return reply.redirect(`/workbench/${query}`, 302);
    };
    app.get('/', toWorkbench);
    app.get('/workbench', toWorkbench);
    await app.register(spaRoutes, { prefix: '/workbench', root: app.config.spaDir });
  },
  { name: 'spa' },
);

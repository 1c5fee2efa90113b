import fp from 'fastify-plugin';
import helmet from 'helmet';

/**
 * The origins a configured absolute BASE_URL or SOCKET_URL points at, in both their http(s) and ws(s) forms (the
 * SPA turns http into ws for the socket); relative values ('', '/ws') are the page's own origin, already 'self'.
 */
export function connectOrigins(urls: string[]): string[] {
  const origins = new Set<string>();
  for (const value of urls) {
    if (!/^(https?|wss?):\/\//i.test(value)) continue;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      continue;
    }
    const secure = url.protocol === 'https:' || url.protocol === 'wss:';
    origins.add(`${secure ? 'https' : 'http'}://${url.host}`);
    origins.add(`${secure ? 'wss' : 'ws'}://${url.host}`);
  }
  return [...origins];
}

/**
 * Security headers on every response (SPA, static assets, API, downloads, errors) through helmet.
 *
 * The Content-Security-Policy is built for the SPA in dist/workbench: its scripts are files of our own origin (the
 * theme is set by public/theme-init.js, not an inline script), so script-src needs no 'unsafe-inline'. Styles do:
 * Chakra UI (emotion) injects <style> elements at run time and the index.html served when the SPA is not built
 * carries a style attribute. Images include data: (pictures inside uploaded documents, the favicon) and blob:
 * (the avatar and downloads are shown from object URLs). Audio and video previews play the user's own file from a
 * blob: URL (media-src; nothing else: no other origin's media). The API, /workbench/config.json and the /ws socket are
 * same-origin ('self' covers ws: and wss: to the same host), plus the origins of an absolute BASE_URL / SOCKET_URL.
 *
 * helmet itself, made once: @fastify/helmet built a new helmet (and parsed the whole policy again) for every request.
 */
export default fp(
  async (app) => {
    const { baseURL, socketURL } = app.config.publicConfig;
    const setHeaders = helmet({
      contentSecurityPolicy: {
        // Every directive is listed here, so helmet adds none of its defaults (its upgrade-insecure-requests
        // would break a plain-http deployment reached by address, e.g. http://192.168.1.5:3000).
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          scriptSrcAttr: ["'none'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'", 'data:'],
          mediaSrc: ["'self'", 'blob:'],
          connectSrc: ["'self'", ...connectOrigins([baseURL, socketURL])],
          objectSrc: ["'none'"],
          frameAncestors: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
        },
      },
      // The same as frame-ancestors 'none', for browsers that predate it.
      xFrameOptions: { action: 'deny' },
      // Links may carry a token in their query (/?token=...): never send the address to another site.
      referrerPolicy: { policy: 'no-referrer' },
      // Not includeSubDomains: the workbench may be one host of a domain whose other hosts are not on HTTPS.
      strictTransportSecurity: { maxAge: 15_552_000, includeSubDomains: false },
    });
    app.addHook('onRequest', (request, reply, done) => {
      setHeaders(request.raw, reply.raw, (error) => done(error instanceof Error ? error : undefined));
    });
  },
  { name: 'security-headers' },
);

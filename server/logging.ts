import type { FastifyServerOptions } from 'fastify';

/**
 * Query parameters that carry credentials: the socket's bearer token, API keys, passwords, SMS codes, share ids.
 * No route reads most of them from the query, but a misbehaving client may put them there: they are never logged.
 */
const SECRET_PARAMS = new Set([
  'token',
  // team invitation codes: a link's code admits its phone, a team's code lets anyone apply
  'sms_invitation_code',
  'invitation_code',
  'access_token',
  'apikey',
  'api_key',
  'api-key',
  'x-api-key',
  'key',
  'secret',
  'auth',
  'authorization',
  'bearer',
  'password',
  'old_password',
  'new_password',
  'newpassword',
  'pwd',
  'passwd',
  'code',
  'old_code',
  'sms_code',
  'verify_code',
  // a share id is a read key to a document
  'share_id',
  // WeChat: a binding ticket and an authorisation state stay valid when a rate limit refuses the request that
  // carries them, and a login code is exchanged for a session
  'ticket',
  'state',
  'wechat_code',
]);

/** A URL with the value of every credential-bearing query parameter replaced, for logs. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // a malformed name is logged as it came
      }
      return eq >= 0 && SECRET_PARAMS.has(decoded.toLowerCase()) ? `${name}=[REDACTED]` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

interface RequestLike {
  method?: string;
  url?: string;
  ip?: string;
  hostname?: string;
  socket?: { remotePort?: number };
}

/** Paths pino censors wherever a log line carries them (headers, bodies, and errors that quote them). */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  '*.password',
  '*.old_password',
  '*.new_password',
  '*.token',
  '*.apiKey',
  '*.api_key',
  'body.password',
  'body.code',
];

/**
 * The server's logger: JSON lines in production (for collectors), pretty and coloured in a development terminal;
 * either way a request's URL has its secret parameters redacted and the authorization header is censored.
 */
export function loggerOptions(level: string, env: NodeJS.ProcessEnv = process.env): FastifyServerOptions['logger'] {
  const pretty = env.LOG_FORMAT ? env.LOG_FORMAT === 'pretty' : env.NODE_ENV !== 'production' && process.stdout.isTTY;
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
    serializers: {
      req: (req: RequestLike) => ({
        method: req.method,
        url: redactUrl(req.url ?? ''),
        host: req.hostname,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
    ...(pretty && {
      transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } },
    }),
  };
}

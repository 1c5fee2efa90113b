import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import ipaddr from 'ipaddr.js';
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

/** proxy-addr's names for address ranges, as TRUST_PROXY may use them */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Whether an address is in one of TRUST_PROXY's entries (names, addresses, CIDRs). */
export function proxyMatcher(trusted: false | string[]): (address: string | undefined) => boolean {
  if (!trusted) return () => false;
  const ranges: Range[] = trusted.flatMap((entry) =>
    (NAMED_RANGES[entry] ?? [entry]).map((cidr): Range => {
      if (cidr.includes('/')) return ipaddr.parseCIDR(cidr);
      const address = ipaddr.parse(cidr);
      return [address, address.kind() === 'ipv4' ? 32 : 128];
    }),
  );
  return (address) => {
    if (!address || !ipaddr.isValid(address)) return false;
    let parsed = ipaddr.parse(address);
    if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
      parsed = (parsed as ipaddr.IPv6).toIPv4Address();
    return ranges.some(([base, bits]) => base.kind() === parsed.kind() && parsed.match(base, bits));
  };
}

/** What genReqId reads of a request. */
export interface RequestIdSource {
  headers: IncomingHttpHeaders;
  socket: { remoteAddress?: string };
}

/** A request id a proxy may hand on: short, and nothing that could forge a log line. */
const REQUEST_ID = /^[\w.:@/+=-]{1,128}$/;

/**
 * Fastify's genReqId: the `x-request-id` a trusted proxy (TRUST_PROXY) sent, so one id follows the request through
 * the proxy's logs and ours; otherwise a new one (a client's own header is not believed: it could tie its requests
 * to another's in the logs). Every log line of the request carries it as `reqId`; every answer as `x-request-id`.
 */
export function requestIds(trusted: false | string[]): (req: RequestIdSource) => string {
  const fromProxy = proxyMatcher(trusted);
  return (req) => {
    const given = req.headers['x-request-id'];
    if (typeof given === 'string' && REQUEST_ID.test(given) && fromProxy(req.socket.remoteAddress)) return given;
    return randomUUID();
  };
}

/**
 * Fetching a user's link on the server, guarded: http and https only, the host resolved once and every address
 * checked (private, loopback, link-local, metadata and other special ranges refused unless WEB_FETCH_ALLOW lists
 * them), the connection made to the address that was checked (no second lookup to rebind), redirects followed by
 * hand and each hop checked again, and limits on time, size (after decompression) and content type.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import ipaddr from 'ipaddr.js';
import type { MessageParams, ServerMessageCode } from '../../../openapi/messages';

/** Why a page could not be fetched: a catalogue code and its values. */
export class FetchRefused extends Error {
  constructor(
    readonly code: ServerMessageCode,
    readonly params: MessageParams = {},
  ) {
    super(code);
    this.name = 'FetchRefused';
  }
}

export interface FetchOptions {
  /** CIDRs fetched although not public (WEB_FETCH_ALLOW). */
  allow?: readonly string[];
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  /** Media types accepted, e.g. text/html; anything else is refused. */
  accept: readonly string[];
  userAgent?: string;
  /** Stops the fetch (the check was stopped): the request is dropped and the fetch rejects. */
  signal?: AbortSignal;
  /** Name resolution (tests give their own); the system resolver by default. */
  resolve?: (host: string) => Promise<string[]>;
}

export interface FetchedPage {
  /** The address the page came from, after redirects. */
  url: string;
  status: number;
  mediaType: string;
  /** The charset the server named, if any. */
  charset: string | null;
  body: Buffer;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
export const USER_AGENT = 'ProofreadingWorkbench/1.0 (+link check)';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

function parseAllow(allow: readonly string[] = []): Range[] {
  const ranges: Range[] = [];
  for (const cidr of allow) {
    const text = cidr.trim();
    if (!text) continue;
    try {
      ranges.push(
        text.includes('/')
          ? ipaddr.parseCIDR(text)
          : [ipaddr.parse(text), ipaddr.parse(text).kind() === 'ipv4' ? 32 : 128],
      );
    } catch {
      // a malformed entry allows nothing
    }
  }
  return ranges;
}

/** Whether the address may be fetched: public unicast, or inside an allowed range. */
export function addressAllowed(address: string, allow: readonly string[] = []): boolean {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return false;
  }
  // ::ffff:10.0.0.1 is 10.0.0.1
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  for (const [net, bits] of parseAllow(allow)) if (ip.kind() === net.kind() && ip.match(net, bits)) return true;
  return ip.range() === 'unicast';
}

const systemResolve = async (host: string) => (await dnsLookup(host, { all: true })).map((a) => a.address);

/** The checked address to connect to for a URL's host (the first that may be fetched), or a refusal. */
async function checkedAddress(url: URL, options: FetchOptions): Promise<string> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await (options.resolve ?? systemResolve)(host);
    } catch {
      throw new FetchRefused('web.unknown_host', { host });
    }
  }
  if (addresses.length === 0) throw new FetchRefused('web.unknown_host', { host });
  // every address of the name must be allowed: a name that also points inward is refused as a whole
  if (!addresses.every((a) => addressAllowed(a, options.allow)))
    throw new FetchRefused('web.private_address', { host });
  return addresses[0];
}

/** A URL a user gave: absolute http(s), no credentials in it. */
export function parsePageUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new FetchRefused('web.bad_url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchRefused('web.bad_scheme');
  if (url.username || url.password) throw new FetchRefused('web.bad_url');
  url.hash = '';
  return url;
}

interface Hop {
  status: number;
  location: string | null;
  mediaType: string;
  charset: string | null;
  body: Buffer;
}

function mediaTypeOf(header: string | undefined): { mediaType: string; charset: string | null } {
  const [type, ...params] = (header ?? '').split(';');
  const charset = params.map((p) => /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p)?.[1]).find(Boolean) ?? null;
  return { mediaType: type.trim().toLowerCase(), charset: charset ? charset.toLowerCase() : null };
}

/** One request to a checked address; the body is read only for an accepted type, within the size limit. */
function request(url: URL, address: string, options: FetchOptions, deadline: number): Promise<Hop> {
  return new Promise((resolve, reject) => {
    const lookup: LookupFunction = (_host, opts, done) => {
      const family = isIP(address);
      if (opts.all) done(null, [{ address, family }]);
      else done(null, address, family);
    };
    const client = url.protocol === 'https:' ? https : http;
    const left = deadline - Date.now();
    if (left <= 0) return reject(new FetchRefused('web.timeout'));
    const req = client.request(url, {
      method: 'GET',
      lookup,
      headers: {
        'user-agent': options.userAgent ?? USER_AGENT,
        accept: `${options.accept.join(', ')};q=1, */*;q=0.1`,
        'accept-encoding': 'gzip, deflate, br',
      },
    });
    let settled = false;
    const settle = (error: unknown, hop?: Hop) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (hop) return resolve(hop);
      // whatever is still open (request, response, decompressor) is dropped with the answer
      req.destroy();
      reject(error instanceof FetchRefused ? error : new FetchRefused('web.fetch_failed', { host: url.hostname }));
    };
    const timer = setTimeout(() => settle(new FetchRefused('web.timeout')), left);
    // a stopped check drops its request at once
    function onAbort() {
      settle(new FetchRefused('web.fetch_failed', { host: url.hostname }));
    }
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const tooLarge = () => new FetchRefused('web.too_large', { mb: Math.round(options.maxBytes / 1048576) || 1 });
    req.on('error', (error) => settle(error));
    req.on('response', (res) => {
      res.on('error', (error) => settle(error));
      const status = res.statusCode ?? 0;
      const { mediaType, charset } = mediaTypeOf(res.headers['content-type']);
      const location = typeof res.headers.location === 'string' ? res.headers.location : null;
      if (REDIRECTS.has(status) || status >= 400 || !options.accept.includes(mediaType)) {
        res.resume();
        settle(null, { status, location, mediaType, charset, body: Buffer.alloc(0) });
        req.destroy();
        return;
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > options.maxBytes) return settle(tooLarge());
      const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
      const decoded =
        encoding === 'gzip' || encoding === 'x-gzip'
          ? res.pipe(createGunzip())
          : encoding === 'deflate'
            ? res.pipe(createInflate())
            : encoding === 'br'
              ? res.pipe(createBrotliDecompress())
              : res;
      const chunks: Buffer[] = [];
      let size = 0;
      decoded.on('data', (chunk: Buffer) => {
        if (settled) return;
        size += chunk.length;
        // counted after decompression: a small compressed page cannot inflate past the limit
        if (size > options.maxBytes) {
          settle(tooLarge());
          if (decoded !== res) decoded.destroy();
          return;
        }
        chunks.push(chunk);
      });
      decoded.on('error', (error) => settle(error));
      decoded.on('end', () => settle(null, { status, location, mediaType, charset, body: Buffer.concat(chunks) }));
    });
    req.end();
  });
}

/** Fetches a page under the guard; throws FetchRefused with the reason. */
export async function fetchPage(address: string | URL, options: FetchOptions): Promise<FetchedPage> {
  let url = typeof address === 'string' ? parsePageUrl(address) : address;
  const deadline = Date.now() + options.timeoutMs;
  for (let hops = 0; ; hops++) {
    const hop = await request(url, await checkedAddress(url, options), options, deadline);
    if (REDIRECTS.has(hop.status) && hop.location) {
      if (hops >= options.maxRedirects) throw new FetchRefused('web.too_many_redirects', { max: options.maxRedirects });
      // every hop is a new URL, checked like the first (a public page may redirect inward)
      url = parsePageUrl(new URL(hop.location, url).href);
      continue;
    }
    if (hop.status >= 400 || hop.status < 200) throw new FetchRefused('web.http_status', { status: hop.status });
    if (!options.accept.includes(hop.mediaType))
      throw new FetchRefused('web.not_html', { type: hop.mediaType || 'unknown' });
    return { url: url.href, status: hop.status, mediaType: hop.mediaType, charset: hop.charset, body: hop.body };
  }
}

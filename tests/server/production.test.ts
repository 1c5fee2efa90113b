import { rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkerPool } from '../../server/workers/checker/pool';
import { proxyMatcher, requestIds, type RequestIdSource } from '../../server/logging';
import { CLIENT_HEADERS, startTestApp, type TestApp } from './helpers';

// What operators and integrators reach besides the product: readiness, metrics, the contract and its reference
// page, CORS on the LanguageTool-compatible API, and the request id that ties an answer to its log lines.

describe('readiness, metrics and the API description', () => {
  let t: TestApp;
  const lines: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    t = await startTestApp({ logger: { level: 'info', stream }, config: { ltCorsOrigins: '*' } });
  });
  afterAll(async () => t?.close());

  it('answers /ready 200 once the checker has its lexicons, naming every part checked', async () => {
    await checkerPool().ready();
    const res = await t.app.inject({ method: 'GET', url: '/ready' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result).toEqual({
      status: 'ready',
      checks: { database: true, bus: true, storage: true, checker: true, running: true },
    });
  }, 120_000);

  it('answers /ready 503 with what is missing when the storage cannot be written', async () => {
    const other = await startTestApp();
    try {
      rmSync(other.dataDir, { recursive: true, force: true });
      const res = await other.app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 503, msg_code: 'server.not_ready', msg_params: { missing: 'storage' } });
    } finally {
      await other.close();
    }
  });

  it('serves Prometheus metrics: request durations by route, pools, jobs, sockets, provider errors', async () => {
    await t.app.inject({ method: 'GET', url: '/health' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/health",status_code="200"\} 1/);
    for (const name of [
      'workbench_checks_total',
      'workbench_checked_characters_total',
      'workbench_pool_workers{pool="checker"}',
      'workbench_pool_busy{pool="heavy"}',
      'workbench_pool_queued{pool="checker"}',
      'workbench_jobs_queued{kind="document"} 0',
      'workbench_jobs_oldest_queued_seconds{kind="pdf"} 0',
      'workbench_socket_connections 0',
      'workbench_provider_errors_total{provider="sms"}',
    ])
      expect(text).toContain(name);
  });

  it('protects /metrics with METRICS_TOKEN when it is set', async () => {
    const guarded = await startTestApp({ config: { metricsToken: 'scrape-secret' } });
    try {
      const none = await guarded.app.inject({ method: 'GET', url: '/metrics' });
      expect(none.statusCode).toBe(401);
      const wrong = await guarded.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer scrape-secreT' },
      });
      expect(wrong.statusCode).toBe(401);
      const right = await guarded.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer scrape-secret' },
      });
      expect(right.statusCode).toBe(200);
      expect(right.body).toContain('http_request_duration_seconds');
    } finally {
      await guarded.close();
    }
  });

  it('serves the contract at /openapi.json', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/v2/check'].post.operationId).toBe('postV2Check');
    expect(doc.paths['/ready'].get.operationId).toBe('getReady');
  });

  it('serves the reference page at /docs with its scripts from this server, inside the CSP', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    const scripts = [...page.body.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      expect(src).not.toMatch(/^(https?:)?\/\//);
      const script = await t.app.inject({ method: 'GET', url: new URL(src, 'http://x/docs/').pathname });
      expect(script.statusCode, src).toBe(200);
    }
    expect(page.body).not.toMatch(/<script>[^<]/);
    const bare = await t.app.inject({ method: 'GET', url: '/docs' });
    expect([200, 302]).toContain(bare.statusCode);
    const json = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(json.json().paths['/v2/check']).toBeDefined();
  });

  it('answers a CORS preflight for /v2/check from another origin, and only for /v2', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/v2/check',
      headers: {
        origin: 'https://editor.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('POST');
    expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
    const check = await t.app.inject({
      method: 'POST',
      url: '/v2/check',
      headers: { origin: 'https://editor.example', 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'text=%E6%B5%8B%E8%AF%95&language=zh-CN',
    });
    expect(check.headers['access-control-allow-origin']).toBe('*');
    const elsewhere = await t.app.inject({
      method: 'OPTIONS',
      url: '/user/login',
      headers: { origin: 'https://editor.example', 'access-control-request-method': 'POST' },
    });
    expect(elsewhere.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('allows only the LT_CORS_ORIGINS origins when they are set', async () => {
    const listed = await startTestApp({ config: { ltCorsOrigins: ['https://editor.example'] } });
    try {
      const preflight = (origin: string) =>
        listed.app.inject({
          method: 'OPTIONS',
          url: '/v2/check',
          headers: { origin, 'access-control-request-method': 'POST' },
        });
      expect((await preflight('https://editor.example')).headers['access-control-allow-origin']).toBe(
        'https://editor.example',
      );
      expect((await preflight('https://evil.example')).headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await listed.close();
    }
  });

  it('puts a request id on every answer, errors included, and on the log lines of the request', async () => {
    lines.length = 0;
    const res = await t.app.inject({ method: 'GET', url: '/no/such/call?x=1', headers: CLIENT_HEADERS });
    expect(res.statusCode).toBe(404);
    const id = res.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const mine = lines.filter((line) => line.reqId === id);
    expect(mine.length).toBeGreaterThanOrEqual(2);
    // a client's own id is not believed (no trusted proxy here)
    const forged = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'abc-123' } });
    expect(forged.headers['x-request-id']).not.toBe('abc-123');
  });
});

describe('request ids from a trusted proxy', () => {
  const fake = (remoteAddress: string, id?: string): RequestIdSource => ({
    headers: id ? { 'x-request-id': id } : {},
    socket: { remoteAddress },
  });

  it("takes the proxy's id, not a client's, and never one that could forge a log line", () => {
    const ids = requestIds(['loopback', '10.0.0.0/8']);
    expect(ids(fake('127.0.0.1', 'edge-42'))).toBe('edge-42');
    expect(ids(fake('::ffff:10.1.2.3', 'edge-43'))).toBe('edge-43');
    expect(ids(fake('203.0.113.9', 'edge-44'))).not.toBe('edge-44');
    expect(ids(fake('127.0.0.1', 'bad\nid'))).not.toBe('bad\nid');
    expect(ids(fake('127.0.0.1'))).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIds(false)(fake('127.0.0.1', 'edge-45'))).not.toBe('edge-45');
  });

  it('matches proxy-addr names, addresses and CIDRs', () => {
    const match = proxyMatcher(['uniquelocal', '203.0.113.7']);
    expect(match('192.168.1.5')).toBe(true);
    expect(match('203.0.113.7')).toBe(true);
    expect(match('203.0.113.8')).toBe(false);
    expect(match('127.0.0.1')).toBe(false);
    expect(match(undefined)).toBe(false);
  });
});

// Security headers (helmet) on everything the server answers: the SPA and its files, the page shown when the SPA is
// not built, the API (JSON, errors, downloads), and a Content-Security-Policy strict enough to mean something.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectOrigins } from '../../server/plugins/security-headers';
import { recordDownload } from '../../server/domain/accounts/downloads';
import { call, register, startTestApp, type TestApp } from './helpers';

const INDEX = '<!doctype html><html><head><script src="/workbench/theme-init.js"></script></head><body></body></html>';

let t: TestApp;
let spaDir: string;
let token: string;
beforeAll(async () => {
  spaDir = mkdtempSync(join(tmpdir(), 'wb-headers-'));
  mkdirSync(join(spaDir, 'assets'));
  writeFileSync(join(spaDir, 'index.html'), INDEX);
  writeFileSync(join(spaDir, 'theme-init.js'), 'void 0;');
  writeFileSync(join(spaDir, 'assets', 'app-1.js'), 'console.log(1)');
  t = await startTestApp({ config: { spaDir } });
  token = await register(t, '13522229921');
});
afterAll(async () => {
  await t.close();
  rmSync(spaDir, { recursive: true, force: true });
});

/** The policy as directive -> sources. */
function policy(res: LightMyRequestResponse): Map<string, string[]> {
  const header = res.headers['content-security-policy'];
  expect(typeof header, 'content-security-policy').toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name, sources]),
  );
}

function expectSecurityHeaders(res: LightMyRequestResponse) {
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['x-frame-options']).toBe('DENY');
  const csp = policy(res);
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('script-src')).toEqual(["'self'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('base-uri')).toEqual(["'self'"]);
  expect(csp.get('form-action')).toEqual(["'self'"]);
  // nothing anywhere lets scripts run from inline code, eval or any origin
  for (const [name, sources] of csp) {
    if (name.startsWith('script-src') || name === 'default-src') {
      expect(sources, name).not.toContain("'unsafe-inline'");
      expect(sources, name).not.toContain("'unsafe-eval'");
      expect(sources, name).not.toContain('*');
    }
  }
  // a plain-http deployment reached by address must keep working
  expect(csp.has('upgrade-insecure-requests')).toBe(false);
}

describe('security headers', () => {
  it('on the SPA: index.html for every route, its files, the theme script', async () => {
    const files = ['/workbench/theme-init.js', '/workbench/assets/app-1.js'];
    for (const url of ['/workbench/', '/workbench/login', '/workbench/document/3', ...files]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expectSecurityHeaders(res);
    }
    // what the SPA needs: Chakra's run-time <style> elements, pictures of documents (data:), the avatar (blob:),
    // the API and the /ws socket on the same origin
    const csp = policy(await t.app.inject({ method: 'GET', url: '/workbench/' }));
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
  });

  it('on the page shown when the SPA is not built', async () => {
    const bare = await startTestApp();
    try {
      const res = await bare.app.inject({ method: 'GET', url: '/workbench/' });
      expect(res.body).toContain('not built');
      expectSecurityHeaders(res);
    } finally {
      await bare.close();
    }
  });

  it('on API answers, errors, redirects and downloads', async () => {
    expectSecurityHeaders((await call(t.app, 'GET', '/user/user_info', undefined, token)).res);
    expectSecurityHeaders((await call(t.app, 'GET', '/user/user_info')).res);
    expectSecurityHeaders((await call(t.app, 'POST', '/user/login', { phone: 'x' })).res);
    expectSecurityHeaders((await call(t.app, 'GET', '/workbench/missing.js')).res);
    expectSecurityHeaders((await call(t.app, 'GET', '/workbench/config.json')).res);
    expectSecurityHeaders((await call(t.app, 'GET', '/')).res);
    const uid = (await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result.uid;
    const html = { name: 'a.html', mime: 'text/html; charset=utf-8', data: '<script>alert(1)</script>' };
    const row = await recordDownload(t.app.db, t.dataDir, uid, html);
    const file = await call(t.app, 'GET', `/user/download/file?id=${row.id}`, undefined, token);
    expect(file.status).toBe(200);
    expectSecurityHeaders(file.res);
    const csv = await call(t.app, 'GET', '/dict/v1/export_words?format=csv', undefined, token);
    expect(csv.status).toBe(200);
    expectSecurityHeaders(csv.res);
  });

  it('lets the SPA reach an API or socket configured on another origin', async () => {
    expect(connectOrigins(['', '/ws'])).toEqual([]);
    expect(connectOrigins(['https://api.example.com', 'wss://rt.example.com:8443/ws'])).toEqual([
      'https://api.example.com',
      'wss://api.example.com',
      'https://rt.example.com:8443',
      'wss://rt.example.com:8443',
    ]);
    expect(connectOrigins(['http://10.0.0.2:3000/'])).toEqual(['http://10.0.0.2:3000', 'ws://10.0.0.2:3000']);
    expect(connectOrigins(['javascript:alert(1)', 'https://'])).toEqual([]);
    const urls = { baseURL: 'https://api.example.com', socketURL: 'wss://rt.example.com/ws' };
    const publicConfig = { ...urls, wxURL: '', bindWechat: '', resetWechat: '' };
    const split = await startTestApp({ config: { publicConfig } });
    try {
      const csp = policy(await split.app.inject({ method: 'GET', url: '/workbench/' }));
      expect(csp.get('connect-src')).toEqual([
        "'self'",
        'https://api.example.com',
        'wss://api.example.com',
        'https://rt.example.com',
        'wss://rt.example.com',
      ]);
    } finally {
      await split.close();
    }
  });
});

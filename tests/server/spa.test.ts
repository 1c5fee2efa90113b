import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers';

const INDEX =
  '<!doctype html><html><head><script type="module" ' +
  'src="/workbench/assets/app-abc123.js"></script></head><body><div ' +
  'id="root"></div></body></html>';

const BIG_JS = `export const words = ${JSON.stringify(Array.from({ length: 2000 }, (_, i) => `词语${i}`))};`;

let t: TestApp;
let spaDir: string;
beforeAll(async () => {
  spaDir = mkdtempSync(join(tmpdir(), 'wb-spa-'));
  mkdirSync(join(spaDir, 'assets'));
  writeFileSync(join(spaDir, 'index.html'), INDEX);
  writeFileSync(join(spaDir, 'assets', 'app-abc123.js'), 'console.log("app")');
  writeFileSync(join(spaDir, 'assets', 'big-123.js'), BIG_JS);
  writeFileSync(join(spaDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  t = await startTestApp({ config: { spaDir } });
});
afterAll(async () => {
  await t.close();
  rmSync(spaDir, { recursive: true, force: true });
});

const get = (url: string) => t.app.inject({ method: 'GET', url });

describe('the SPA under /workbench/', () => {
  it('/ redirects to /workbench/ keeping the query', async () => {
    const res = await get('/');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/workbench/');
    expect((await get('/?token=abc&bd_vid=1')).headers.location).toBe('/workbench/?token=abc&bd_vid=1');
  });

  it('/workbench redirects to /workbench/ keeping the query', async () => {
    const res = await get('/workbench?token=abc');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/workbench/?token=abc');
  });

  it('serves index.html at /workbench/ and for deep routes', async () => {
    for (const url of [
      '/workbench/',
      '/workbench/dictionary',
      '/workbench/user?status=1',
      '/workbench/team/members/3',
      '/workbench/login?login_resp_code=1',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toBe(INDEX);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves built files, fingerprinted assets cached for good', async () => {
    const js = await get('/workbench/assets/app-abc123.js');
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.body).toBe('console.log("app")');
    expect(js.headers['cache-control']).toContain('immutable');
    const icon = await get('/workbench/favicon.svg');
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('a missing file is a 404, not the app', async () => {
    const res = await get('/workbench/assets/missing-999.js');
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe(404);
  });

  it('config.json comes from the route, not a file', async () => {
    const res = await get('/workbench/config.json');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveProperty('socketURL', '/ws');
  });
});

describe('before the front end is built', () => {
  it('/workbench/ says to run npm run build', async () => {
    const bare = await startTestApp();
    for (const url of ['/workbench/', '/workbench/dictionary']) {
      const res = await bare.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('npm run build');
    }
    await bare.close();
  });
});

describe('compression', () => {
  it('compresses large responses for clients that accept it', async () => {
    const big = await t.app.inject({
      method: 'GET',
      url: '/workbench/assets/big-123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(big.statusCode).toBe(200);
    expect(big.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(big.rawPayload).toString()).toBe(BIG_JS);
    const plain = await t.app.inject({ method: 'GET', url: '/workbench/assets/big-123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG_JS);
  });
});

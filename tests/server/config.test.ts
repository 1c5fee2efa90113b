// The one configuration module: every variable validated at start, the README's table generated from it, and no
// server code reading the environment behind its back.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV_SCHEMA, configTable, loadConfig, readEnv } from '../../server/config';

describe('configuration', () => {
  it('gives every variable its default and converts the ones set', () => {
    const env = readEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.TRUST_PROXY).toBeUndefined();
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(env.CHECK_WORKERS).toBeUndefined();
    expect(env.LOG_LEVEL).toBe('info');
    const set = readEnv({
      PORT: '8080',
      TRUST_PROXY: 'true',
      CHECK_WORKERS: '3',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
    });
    expect(set).toMatchObject({
      PORT: 8080,
      TRUST_PROXY: 'true',
      CHECK_WORKERS: 3,
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
    });
    // a proxy on this machine, or the proxies by address; never every address
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toEqual(['loopback']);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5, 10.0.1.0/24' }).trustProxy).toEqual(['10.0.0.5', '10.0.1.0/24']);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    // empty counts as unset, as a shell's `X= npm start` means
    expect(readEnv({ PORT: '' }).PORT).toBe(3000);
  });

  it('refuses malformed and out-of-range values, naming each of them at once', () => {
    for (const [name, value] of [
      ['PORT', 'abc'],
      ['PORT', '1.5'],
      ['PORT', '-1'],
      ['PORT', '70000'],
      ['BODY_LIMIT', '1e6'],
      ['REQUEST_TIMEOUT_MS', '10'],
      ['CHECK_WORKERS', '0'],
      ['TRUST_PROXY', 'yes'],
      ['TRUST_PROXY', '10.0.0.0/99'],
      ['LOG_LEVEL', 'verbose'],
      ['LOG_FORMAT', 'xml'],
      ['SMS_PROVIDER', 'twilio'],
    ]) {
      expect(() => readEnv({ [name]: value }), `${name}=${value}`).toThrow(
        new RegExp(`${name}.*${value.replace('.', '\\.')}`),
      );
    }
    expect(() => loadConfig({ PORT: 'x', HEAVY_HEAP_MB: '8' })).toThrow(/PORT.*; HEAVY_HEAP_MB/);
  });

  it('documents every variable in the README, in the generated table', () => {
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('<!-- config:start -->'), readme.indexOf('<!-- config:end -->'));
    expect(section.trim()).toBe(`<!-- config:start -->\n${configTable()}`);
    for (const [name, schema] of Object.entries(ENV_SCHEMA.properties)) {
      expect(schema.description, name).toBeTruthy();
      expect(schema.shown, name).toBeTruthy();
    }
  });

  it('is the only place the server reads its settings from the environment', () => {
    const declared = new Set(Object.keys(ENV_SCHEMA.properties));
    // the system's own variables, not settings
    const system = new Set(['PATH', 'NODE_ENV']);
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const path = join(dir, entry);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.(ts|mjs)$/.test(entry) && path !== join('server', 'config.ts')) {
          for (const m of readFileSync(path, 'utf8').matchAll(/process\.env\.([A-Z_][A-Z0-9_]*)/g))
            found.push(`${path}: ${m[1]}`);
        }
      }
    };
    walk('server');
    expect(found.filter((f) => !system.has(f.split(': ')[1]))).toEqual([]);
    // the engine's own variables that the server's operators may set are declared too
    for (const m of readFileSync('engine/index.ts', 'utf8').matchAll(/process\.env\.(ENGINE_IMAGE_DIR)/g)) {
      expect(declared.has(m[1])).toBe(true);
    }
  });
});

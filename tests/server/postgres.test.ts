import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, CLIENT_HEADERS, call, lastSmsCode, login, multipart, startTestApp, tinyPng, type TestApp } from './helpers';

/** Debian's `postgresql` package puts its binaries here; CI installs it. */
function findPgBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  for (const version of readdirSync(root).sort().reverse()) {
    const bin = join(root, version, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'))) return bin;
  }
  return null;
}

const PG_BIN = findPgBin();
if (!PG_BIN) console.warn('PostgreSQL tests skipped: install the Debian package `postgresql` (initdb/pg_ctl under /usr/lib/postgresql/*/bin).');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** A throwaway cluster in a temp dir (PostgreSQL refuses to run as root, so root runs it as `postgres`). */
class Cluster {
  dir = mkdtempSync(join(tmpdir(), 'wb-pg-'));
  port = 0;
  private asUser: string[] = [];

  async start(): Promise<string> {
    if (userInfo().uid === 0) {
      const pgUser = (() => {
        try {
          return Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
        } catch {
          return 65534;
        }
      })();
      chownSync(this.dir, pgUser, pgUser);
      chmodSync(this.dir, 0o700);
      this.asUser = ['runuser', '-u', pgUser === 65534 ? 'nobody' : 'postgres', '--'];
    }
    this.port = await freePort();
    const data = join(this.dir, 'data');
    this.run(join(PG_BIN!, 'initdb'), ['-D', data, '-U', 'workbench', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale', 'C']);
    this.run(join(PG_BIN!, 'pg_ctl'), [
      '-D', data, '-l', join(this.dir, 'log'), '-w', '-t', '30', 'start',
      '-o', `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`,
    ]);
    return `postgres://workbench@127.0.0.1:${this.port}/postgres`;
  }

  stop(): void {
    try {
      this.run(join(PG_BIN!, 'pg_ctl'), ['-D', join(this.dir, 'data'), '-m', 'immediate', '-w', 'stop']);
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
    }
  }

  private run(cmd: string, args: string[]) {
    const [bin, ...rest] = [...this.asUser, cmd, ...args];
    execFileSync(bin, rest, { stdio: 'pipe', cwd: this.dir });
  }
}

describe.skipIf(!PG_BIN)('on PostgreSQL (DATABASE_URL)', () => {
  const cluster = new Cluster();
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    url = await cluster.start();
    t = await startTestApp({ databaseUrl: url });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    cluster.stop();
  });

  it('migrates, creates the root account and reports postgres', async () => {
    const health = await call(t.app, 'GET', '/health');
    expect(health.json.result.database).toBe('postgres');
    const token = await login(t.app, ADMIN.phone, ADMIN.password);
    expect((await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result).toMatchObject({ uid: 1, role: 'root' });
  });

  it('runs the user flow: register, login_id, password, logout, cancellation', async () => {
    await call(t.app, 'POST', '/user/sms_code', { phone: '13600000001', purpose: 'register' });
    const reg = await call(t.app, 'POST', '/user/register', { phone: '13600000001', code: lastSmsCode(t.dataDir, '13600000001'), password: 'secret123' });
    expect(reg.status).toBe(200);
    const token = reg.json.result.token;
    expect((await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result).toMatchObject({ phone: '13600000001', role: 'free', uid: 2 });
    expect((await call(t.app, 'PUT', '/user/login_id', { login_id: 'pg_user' }, token)).status).toBe(200);
    const png = tinyPng();
    const form = multipart('file', 'me.png', 'image/png', png);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/user/portrait',
      headers: { ...CLIENT_HEADERS, authorization: `Bearer ${token}`, 'content-type': form.contentType },
      payload: form.payload,
    });
    expect(uploaded.statusCode).toBe(200);
    expect((await call(t.app, 'GET', '/user/portrait', undefined, token)).res.rawPayload.equals(png)).toBe(true);
    expect((await call(t.app, 'PUT', '/user/pwd', { old_password: 'secret123', new_password: 'secret456' }, token)).status).toBe(200);
    const second = await login(t.app, '13600000001', 'secret456');
    expect((await call(t.app, 'POST', '/user/logout', undefined, second)).status).toBe(200);
    expect((await call(t.app, 'GET', '/user/user_info', undefined, second)).status).toBe(401);
    expect((await call(t.app, 'POST', '/user/cancellation', { password: 'secret456' }, token)).status).toBe(200);
    expect((await call(t.app, 'POST', '/user/login', { phone: '13600000001', password: 'secret456' })).status).toBe(401);
  });

  it('a restart keeps the data and does not re-apply migrations', async () => {
    const again = await startTestApp({ databaseUrl: url });
    const token = await login(again.app, ADMIN.phone, ADMIN.password);
    expect((await call(again.app, 'GET', '/user/user_info', undefined, token)).json.result.role).toBe('root');
    const roots = await again.app.db.selectFrom('users').select('uid').where('role', '=', 'root').execute();
    expect(roots).toHaveLength(1);
    await again.close();
  });
});

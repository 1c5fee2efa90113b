import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, register, startTestApp, type TestApp } from './helpers';
import { checkerPool } from '../../server/services/checker/pool';
import { addGrant, consumeRight, rightBalance } from '../../server/services/rights';

// The rights, dictionary and LanguageTool calls on PostgreSQL (the cluster helper is the one of postgres.test.ts).
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

describe.skipIf(!PG_BIN)('rights, dictionary and /v2 on PostgreSQL', () => {
  const cluster = new Cluster();
  let t: TestApp;
  let token: string;
  let uid: number;
  beforeAll(async () => {
    const url = await cluster.start();
    t = await startTestApp({ databaseUrl: url });
    await checkerPool().ready();
    token = await register(t, '13900000041');
    uid = (await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result.uid;
  }, 90_000);
  afterAll(async () => {
    await t?.close();
    cluster.stop();
  });

  it('gives the defaults and never overspends under concurrency', async () => {
    expect((await call(t.app, 'GET', '/user/check_words_num', undefined, token)).json.result).toEqual({ words_num: 20000, max_text: 5000, num_desc: '20000字' });
    await consumeRight(t.app.db, uid, 1, 19_000, 'setup');
    const attempts = await Promise.allSettled(Array.from({ length: 30 }, () => consumeRight(t.app.db, uid, 1, 70, 'race')));
    const won = attempts.filter((a) => a.status === 'fulfilled').length;
    expect(won).toBe(Math.floor(1000 / 70));
    expect(await rightBalance(t.app.db, uid, 1)).toBe(1000 - won * 70);
  });

  it('runs the dictionary calls', async () => {
    const added = await call(t.app, 'POST', '/dict/v1/add_one', { word: '萍果', type: 5, correct: '苹果' }, token);
    expect(added.status).toBe(200);
    expect((await call(t.app, 'POST', '/dict/v1/add_one', { word: '萍果', type: 5, correct: '苹果' }, token)).status).toBe(409);
    const list = await call(t.app, 'GET', `/dict/v1/get_list?keyword=${encodeURIComponent('萍')}`, undefined, token);
    expect(list.json.result).toMatchObject({ total: 1, list: [{ word: '萍果', type: 5, correct: '苹果' }] });
    expect((await call(t.app, 'POST', '/dict/v1/delete_many', { ids: [added.json.result.id] }, token)).json.result).toEqual({ count: 1 });
  });

  it('checks through /v2/check with an API key and manages allowed words', async () => {
    expect(await addGrant(t.app.db, uid, 1, 1000, 'test:more')).toBe(true);
    const key = (await call(t.app, 'POST', '/user/api_key', undefined, token)).json.result;
    const form = (url: string, fields: Record<string, string>) =>
      t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ ...fields, username: key.username, apiKey: key.api_key }).toString() });
    const text = '我们明天讨论这个问提。';
    const res = await form('/v2/check', { text, language: 'zh-CN' });
    expect(res.statusCode).toBe(200);
    expect(res.json().matches.some((m: { offset: number; length: number }) => text.slice(m.offset, m.offset + m.length) === '提')).toBe(true);
    expect((await form('/v2/words/add', { word: '问提' })).json()).toEqual({ added: true });
    const again = await form('/v2/check', { text, language: 'zh-CN' });
    expect(again.json().matches).toEqual([]);
  });
});

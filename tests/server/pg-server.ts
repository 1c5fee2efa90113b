/** A throwaway PostgreSQL server for the storage tests (Debian's initdb/pg_ctl; CI installs `postgresql`). */
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../server/bench/processes';

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

export const PG_BIN = findPgBin();
if (!PG_BIN)
  console.warn(
    'PostgreSQL tests skipped: install the Debian package `postgresql` ' +
      '(initdb/pg_ctl under /usr/lib/postgresql/*/bin).',
  );

/** A throwaway PostgreSQL server in a temp dir (PostgreSQL refuses to run as root, so root runs it as `postgres`). */
export class PgServer {
  dir = mkdtempSync(join(tmpdir(), 'wb-pg-'));
  port = 0;
  private asUser: string[] = [];

  /** Starts the server; returns the URL of its `postgres` database (the one new databases are created from). */
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
    this.run(join(PG_BIN!, 'initdb'), [
      '-D',
      data,
      '-U',
      'workbench',
      '-A',
      'trust',
      '--no-sync',
      '-E',
      'UTF8',
      '--locale',
      'C',
    ]);
    this.run(join(PG_BIN!, 'pg_ctl'), [
      '-D',
      data,
      '-l',
      join(this.dir, 'log'),
      '-w',
      '-t',
      '30',
      'start',
      '-o',
      // the suites of three test workers, their app instances and server processes each hold a pool
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off ` +
        '-c max_connections=300',
    ]);
    return `postgres://workbench@127.0.0.1:${this.port}/postgres`;
  }

  /** Stops the server (its connections are closed, as in a real restart) and starts it again on the same port. */
  restart(): void {
    this.run(join(PG_BIN!, 'pg_ctl'), [
      '-D',
      join(this.dir, 'data'),
      // without a log file the server would write to this call's pipe and keep it open
      '-l',
      join(this.dir, 'log'),
      '-m',
      'fast',
      '-w',
      '-t',
      '30',
      'restart',
    ]);
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

let databases = 0;

/**
 * A database of its own in a PostgreSQL server: created empty by start(), dropped with its connections by stop().
 * Given no server URL it starts a server of its own (and stops it with the database). Free of vitest, so the
 * server benchmark can use it too (tests use pg-cluster.ts, which takes the run's shared server).
 */
export class PgDatabase {
  private name = `wb_${process.pid}_${++databases}_${Date.now().toString(36)}`;
  private own: PgServer | null = null;
  private admin = '';

  constructor(private readonly server: string | null = null) {}

  async start(): Promise<string> {
    let server = this.server;
    if (!server) {
      this.own = new PgServer();
      server = await this.own.start();
    }
    this.admin = server;
    await this.sql(`create database ${this.name}`);
    return server.replace(/\/postgres$/, `/${this.name}`);
  }

  async stop(): Promise<void> {
    try {
      if (this.admin) await this.sql(`drop database if exists ${this.name} with (force)`);
    } finally {
      this.own?.stop();
    }
  }

  private async sql(statement: string) {
    const client = new pg.Client({ connectionString: this.admin });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  }
}

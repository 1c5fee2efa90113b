/**
 * PostgreSQL for the storage tests: one throwaway server per test run, started by the node project's global setup
 * (tests/server/pg-global-setup.ts), and a fresh database in it for each suite.
 */
import pg from 'pg';
import { inject } from 'vitest';
import { PgServer } from './pg-server';

export { PG_BIN } from './pg-server';

let databases = 0;

/**
 * A database of its own for one suite, in the run's PostgreSQL server: created empty by start(), dropped with its
 * connections by stop(). A suite run outside the node project (no server provided) gets a server of its own.
 */
export class Cluster {
  private name = `wb_${process.pid}_${++databases}_${Date.now().toString(36)}`;
  private own: PgServer | null = null;
  private admin = '';

  async start(): Promise<string> {
    let server = inject('pgServer') ?? null;
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

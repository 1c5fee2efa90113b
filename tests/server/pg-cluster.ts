/**
 * PostgreSQL for the storage tests: one throwaway server per test run, started by the node project's global setup
 * (tests/server/pg-global-setup.ts), and a fresh database in it for each suite.
 */
import { inject } from 'vitest';
import { PgDatabase } from './pg-server';

export { PG_BIN } from './pg-server';

/**
 * A database of its own for one suite, in the run's PostgreSQL server: created empty by start(), dropped with its
 * connections by stop(). A suite run outside the node project (no server provided) gets a server of its own.
 */
export class Cluster extends PgDatabase {
  constructor() {
    super(inject('pgServer') ?? null);
  }
}

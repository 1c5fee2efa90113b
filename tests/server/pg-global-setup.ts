// One PostgreSQL server for the whole test run, shared by the files that need one (each suite creates its own
// database in it: tests/server/pg-cluster.ts); started only when Debian's PostgreSQL is installed. The run's worker
// pools start bundled workers (worker-bundle.ts).
import type { TestProject } from 'vitest/node';
import { PG_BIN, PgServer } from './pg-server';
import { useWorkerBundle } from './worker-bundle';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The URL of the run's PostgreSQL server (its `postgres` database), or null without PostgreSQL. */
    pgServer: string | null;
  }
}

export default async function setup(project: TestProject) {
  await useWorkerBundle();
  if (!PG_BIN) {
    project.provide('pgServer', null);
    return;
  }
  const server = new PgServer();
  project.provide('pgServer', await server.start());
  return () => server.stop();
}

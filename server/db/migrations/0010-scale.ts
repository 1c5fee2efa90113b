import type { Kysely, Migration } from 'kysely';

/**
 * What lets several server processes share one database, and lets money survive a crash:
 *
 * - `server_instances`: each running process and when it was last seen (a heartbeat); a process not seen for a
 *   while is dead, and whatever it held is released or taken over by the others.
 * - `check_reservations`: the characters a text check took when it started, until it finishes; a check whose
 *   process died is refunded in full (it never delivered its whole result).
 * - `documents.owner`: the process running a document job, claimed with `FOR UPDATE SKIP LOCKED` so each job
 *   runs once; a dead owner's jobs go back to the queue.
 * - `socket_sessions`: which process holds which socket session, so a check submitted to one process may name
 *   a session connected to another (its messages travel by NOTIFY).
 * - `rate_limits`: the counters of the abuse limits when they must be shared between processes.
 */
export const scaleMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('server_instances')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('seen_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('check_reservations')
      .addColumn('check_id', 'text', (c) => c.primaryKey())
      .addColumn('uid', 'integer', (c) => c.notNull())
      .addColumn('instance', 'text', (c) => c.notNull())
      .addColumn('consumption', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('check_reservations_instance').on('check_reservations').column('instance').execute();
    await db.schema.alterTable('documents').addColumn('owner', 'text').execute();
    await db.schema
      .createTable('socket_sessions')
      .addColumn('session_id', 'text', (c) => c.primaryKey())
      .addColumn('uid', 'integer', (c) => c.notNull())
      .addColumn('instance', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('socket_sessions_uid').on('socket_sessions').column('uid').execute();
    await db.schema
      .createTable('rate_limits')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addColumn('reset_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<any>) {
    for (const table of ['rate_limits', 'socket_sessions', 'check_reservations', 'server_instances']) {
      await db.schema.dropTable(table).execute();
    }
    await db.schema.alterTable('documents').dropColumn('owner').execute();
  },
};

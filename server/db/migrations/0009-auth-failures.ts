import type { Kysely, Migration } from 'kysely';

export const authFailuresMigration: Migration = {
  // Wrong passwords per login phone or account and the lock they lead to (domain/accounts/lockout.ts); in the
  // database so every process sees one count and a restart lifts no lock.
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('auth_failures')
      .addColumn('subject', 'text', (c) => c.primaryKey())
      .addColumn('failures', 'integer', (c) => c.notNull())
      .addColumn('window_started_at', 'text', (c) => c.notNull())
      .addColumn('locked_until', 'text')
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('auth_failures').execute();
  },
};

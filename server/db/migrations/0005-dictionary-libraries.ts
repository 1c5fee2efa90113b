import type { Kysely, Migration } from 'kysely';

export const dictionaryLibrariesMigration: Migration = {
  async up(db: Kysely<any>) {
    // Built-in word libraries a user applies to their checks (ids of server/word-libraries/*.tsv).
    await db.schema
      .createTable('user_word_libraries')
      .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
      .addColumn('library_id', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('user_word_libraries_pk', ['uid', 'library_id'])
      .execute();
    // The rows that failed in the user's last dictionary import (one record per user, replaced by each import).
    await db.schema
      .createTable('dict_import_failures')
      .addColumn('uid', 'integer', (c) => c.primaryKey().references('users.uid').onDelete('cascade'))
      .addColumn('filename', 'text', (c) => c.notNull())
      .addColumn('rows', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<any>) {
    for (const table of ['dict_import_failures', 'user_word_libraries']) await db.schema.dropTable(table).execute();
  },
};

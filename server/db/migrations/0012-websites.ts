import type { Kysely, Migration } from 'kysely';
import type { IdColumn } from './columns';

export function websitesMigration(id: IdColumn): Migration {
  return {
    // Link proofreading: a user's websites and their last check; a URL once per user.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('websites')
        .addColumn('id', id.type, id.build)
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('depth', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('page_limit', 'integer', (c) => c.notNull().defaultTo(10))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('idle'))
        .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('error', 'text')
        .addColumn('error_code', 'text')
        .addColumn('error_params', 'text')
        .addColumn('owner', 'text')
        .addColumn('charge', 'text')
        .addColumn('last_result', 'text')
        .addColumn('last_checked_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('websites_uid_url').on('websites').columns(['uid', 'url']).unique().execute();
      await db.schema.createIndex('websites_status').on('websites').column('status').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('websites').execute();
    },
  };
}

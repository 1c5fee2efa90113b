import type { Kysely, Migration } from 'kysely';
import type { IdColumn } from './columns';

export function imageTasksMigration(id: IdColumn): Migration {
  return {
    // Image checks: the task's state and result (the image itself is read once, in memory, and not kept).
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('image_tasks')
        .addColumn('id', id.type, id.build)
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('height', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('text', 'text')
        .addColumn('issues', 'text')
        .addColumn('unsure', 'text')
        .addColumn('error', 'text')
        .addColumn('error_code', 'text')
        .addColumn('error_params', 'text')
        .addColumn('owner', 'text')
        .addColumn('charge', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('image_tasks_uid_id').on('image_tasks').columns(['uid', 'id']).execute();
      await db.schema.createIndex('image_tasks_status').on('image_tasks').column('status').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('image_tasks').execute();
    },
  };
}

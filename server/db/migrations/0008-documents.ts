import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../schema';
import type { IdColumn } from './columns';

export function documentsMigration(dialect: DialectName, id: IdColumn): Migration {
  return {
    // Documents: one row per uploaded document and its job state; the uploaded file apart, so
    // listing never reads blobs. `charge` is the JSON of the upload's right-256 consumption (refunds after a
    // restart).
    async up(db: Kysely<any>) {
      const blob = dialect === 'postgres' ? sql`bytea` : sql`blob`;
      await db.schema
        .createTable('documents')
        .addColumn('id', id.type, id.build)
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('file_type', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('error', 'text')
        .addColumn('word_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('issue_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('check_mode', 'integer', (c) => c.notNull().defaultTo(3))
        .addColumn('check_options', 'integer', (c) => c.notNull())
        .addColumn('lang', 'text', (c) => c.notNull().defaultTo('cn'))
        .addColumn('html', 'text')
        .addColumn('text', 'text')
        .addColumn('issues', 'text')
        .addColumn('fixes', 'text')
        .addColumn('ignored', 'text')
        .addColumn('edited', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('share_id', 'text', (c) => c.unique())
        .addColumn('charge', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('documents_uid_id').on('documents').columns(['uid', 'id']).execute();
      await db.schema.createIndex('documents_status').on('documents').column('status').execute();
      await db.schema
        .createTable('document_files')
        .addColumn('document_id', 'integer', (c) => c.primaryKey().references('documents.id').onDelete('cascade'))
        .addColumn('data', blob, (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<any>) {
      for (const table of ['document_files', 'documents']) await db.schema.dropTable(table).execute();
    },
  };
}

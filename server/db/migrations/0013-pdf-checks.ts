import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../schema';
import type { IdColumn } from './columns';

export function pdfChecksMigration(dialect: DialectName, id: IdColumn): Migration {
  return {
    // PDF proofreading: one row per upload and its job, the file apart (listing never reads blobs), and a row per
    // checked page (text, findings with boxes, the rendered image once asked for).
    async up(db: Kysely<any>) {
      const blob = dialect === 'postgres' ? sql`bytea` : sql`blob`;
      await db.schema
        .createTable('pdf_checks')
        .addColumn('id', id.type, id.build)
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('page_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('pages_done', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('issue_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('error', 'text')
        .addColumn('error_code', 'text')
        .addColumn('error_params', 'text')
        .addColumn('owner', 'text')
        .addColumn('charge', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('pdf_checks_uid_id').on('pdf_checks').columns(['uid', 'id']).execute();
      await db.schema.createIndex('pdf_checks_status').on('pdf_checks').column('status').execute();
      await db.schema
        .createTable('pdf_files')
        .addColumn('pdf_id', 'integer', (c) => c.primaryKey().references('pdf_checks.id').onDelete('cascade'))
        .addColumn('data', blob, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('pdf_pages')
        .addColumn('pdf_id', 'integer', (c) => c.notNull().references('pdf_checks.id').onDelete('cascade'))
        .addColumn('page', 'integer', (c) => c.notNull())
        .addColumn('width', 'real', (c) => c.notNull())
        .addColumn('height', 'real', (c) => c.notNull())
        .addColumn('ocr', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('issues', 'text', (c) => c.notNull())
        .addColumn('image', blob)
        .addPrimaryKeyConstraint('pdf_pages_pk', ['pdf_id', 'page'])
        .execute();
    },
    async down(db: Kysely<any>) {
      for (const table of ['pdf_pages', 'pdf_files', 'pdf_checks']) await db.schema.dropTable(table).execute();
    },
  };
}

import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../schema';
import type { IdColumn } from './columns';

export function speechTasksMigration(dialect: DialectName, id: IdColumn): Migration {
  return {
    // Audio and video proofreading: one row per upload and its job, the files apart (the upload until the task
    // ends, the mp3 for playback), and a row per checked transcript segment.
    async up(db: Kysely<any>) {
      const blob = dialect === 'postgres' ? sql`bytea` : sql`blob`;
      await db.schema
        .createTable('speech_tasks')
        .addColumn('id', id.type, id.build)
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('duration_ms', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('minutes', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('probe', 'text')
        .addColumn('transcript_source', 'text')
        .addColumn('has_mp3', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('segment_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('issue_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('error', 'text')
        .addColumn('error_code', 'text')
        .addColumn('error_params', 'text')
        .addColumn('owner', 'text')
        .addColumn('charge', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('speech_tasks_uid_id').on('speech_tasks').columns(['uid', 'id']).execute();
      await db.schema.createIndex('speech_tasks_status').on('speech_tasks').column('status').execute();
      await db.schema
        .createTable('speech_files')
        .addColumn('task_id', 'integer', (c) => c.primaryKey().references('speech_tasks.id').onDelete('cascade'))
        .addColumn('source', blob)
        .addColumn('subtitle', 'text')
        .addColumn('mp3', blob)
        .execute();
      await db.schema
        .createTable('speech_segments')
        .addColumn('task_id', 'integer', (c) => c.notNull().references('speech_tasks.id').onDelete('cascade'))
        .addColumn('idx', 'integer', (c) => c.notNull())
        .addColumn('start_ms', 'integer', (c) => c.notNull())
        .addColumn('end_ms', 'integer', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('issues', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('speech_segments_pk', ['task_id', 'idx'])
        .execute();
    },
    async down(db: Kysely<any>) {
      for (const table of ['speech_segments', 'speech_files', 'speech_tasks'])
        await db.schema.dropTable(table).execute();
    },
  };
}

import { sql, type Kysely, type Migration } from 'kysely';
import type { IdColumn } from './columns';

/**
 * Moves the unfinished rows of a kind's table (`status` queued or running) into `jobs`, waiting to be claimed
 * afresh, with the charge they hold; the kind's row stays where the routes read it, as the job's input and result.
 */
export async function moveUnfinishedJobs(db: Kysely<any>, table: string, kind: string): Promise<void> {
  const rows = await db.selectFrom(table).selectAll().where('status', 'in', ['queued', 'running']).execute();
  const now = new Date().toISOString();
  for (const row of rows) {
    await db
      .insertInto('jobs')
      .values({
        kind,
        ref: Number(row.id),
        uid: Number(row.uid),
        state: 'queued',
        progress: Number(row.progress ?? 0),
        attempts: Number(row.attempts ?? 0),
        charge: row.charge,
        charge_state: row.charge ? 'reserved' : 'none',
        owner: null,
        run_after: now,
        error_code: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
}

/**
 * Moves a kind's unfinished rows into `jobs` and drops the columns that held their queue state there (the kind's
 * jobs now run on the job runner).
 */
export function kindToJobsMigration(table: string, kind: string, columns: string[]): Migration {
  return {
    async up(db: Kysely<any>) {
      await moveUnfinishedJobs(db, table, kind);
      for (const column of columns) await db.schema.alterTable(table).dropColumn(column).execute();
    },
    async down(db: Kysely<any>) {
      for (const column of columns) await db.schema.alterTable(table).addColumn(column, 'text').execute();
      await db.deleteFrom('jobs').where('kind', '=', kind).execute();
    },
  };
}

/**
 * Image checks move to the job store, and their image is kept (`image_files`) until the check is done, so a check
 * taken up by another process can read it again. Unfinished tasks of before had theirs in memory only: their jobs
 * end as interrupted, refunded, when claimed.
 */
export function imageJobsMigration(dialect: 'sqlite' | 'postgres'): Migration {
  const moved = kindToJobsMigration('image_tasks', 'image', ['owner', 'charge']);
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('image_files')
        .addColumn('task_id', 'integer', (c) => c.primaryKey().references('image_tasks.id').onDelete('cascade'))
        .addColumn('data', dialect === 'postgres' ? sql`bytea` : sql`blob`, (c) => c.notNull())
        .execute();
      await moved.up(db);
    },
    async down(db: Kysely<any>) {
      await moved.down!(db);
      await db.schema.dropTable('image_files').execute();
    },
  };
}

/**
 * One store for the persisted jobs of every kind (server/jobs): `jobs` holds the queue state, attempts, charge and
 * the process running each. Document jobs move there first: their unfinished rows become jobs, and the columns that
 * held their queue state (`owner`, `charge`, `attempts`) go.
 */
export function jobsMigration(id: IdColumn): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('jobs')
        .addColumn('id', id.type, id.build)
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('ref', 'integer', (c) => c.notNull())
        .addColumn('uid', 'integer', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('charge', 'text')
        .addColumn('charge_state', 'text', (c) => c.notNull().defaultTo('none'))
        .addColumn('owner', 'text')
        .addColumn('run_after', 'text', (c) => c.notNull())
        .addColumn('error_code', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('jobs_kind_ref').unique().on('jobs').columns(['kind', 'ref']).execute();
      await db.schema.createIndex('jobs_state_kind').on('jobs').columns(['state', 'kind']).execute();
      await moveUnfinishedJobs(db, 'documents', 'document');
      for (const column of ['owner', 'charge', 'attempts']) {
        await db.schema.alterTable('documents').dropColumn(column).execute();
      }
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('documents').addColumn('owner', 'text').execute();
      await db.schema.alterTable('documents').addColumn('charge', 'text').execute();
      await db.schema
        .alterTable('documents')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.dropTable('jobs').execute();
    },
  };
}

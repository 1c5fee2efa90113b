import { sql } from 'kysely';
import type { Db } from '..';
import type { DialectName, DocumentsTable } from '../schema';

/**
 * Documents as jobs of the document queue (services/documents/jobs.ts): a job is a `documents` row with status
 * queued or running, and `owner` is the server process (services/instance.ts) that has claimed it.
 */

/** The ids of the jobs no process has claimed. */
export async function findUnclaimedJobIds(db: Db): Promise<number[]> {
  const rows = await db
    .selectFrom('documents')
    .select('id')
    .where('status', 'in', ['queued', 'running'])
    .where('owner', 'is', null)
    .execute();
  return rows.map((r) => r.id);
}

/** The job's status and owner, if the document exists. */
export async function findJobState(db: Db, id: number): Promise<Pick<DocumentsTable, 'status' | 'owner'> | undefined> {
  return db.selectFrom('documents').select(['status', 'owner']).where('id', '=', id).executeTakeFirst();
}

/**
 * Makes `owner` the owner of the oldest unclaimed job; its id, or null when there is none. On PostgreSQL
 * `FOR UPDATE SKIP LOCKED` lets processes claim side by side without waiting on each other and without two taking
 * one job; SQLite serialises writers, which does the same.
 */
export async function claimOldestJob(db: Db, owner: string, dialect: DialectName): Promise<number | null> {
  const lock = dialect === 'postgres' ? sql`FOR UPDATE SKIP LOCKED` : sql``;
  const result = await sql<{ id: number }>`
    UPDATE documents SET owner = ${owner}
    WHERE id = (
      SELECT id FROM documents WHERE status IN ('queued', 'running') AND owner IS NULL ORDER BY id LIMIT 1 ${lock}
    ) AND owner IS NULL
    RETURNING id`.execute(db);
  const row = result.rows[0];
  return row ? Number(row.id) : null;
}

/** Gives the job up if `owner` still holds it (the row is anybody's again). */
export async function releaseJob(db: Db, id: number, owner: string): Promise<void> {
  await db.updateTable('documents').set({ owner: null }).where('id', '=', id).where('owner', '=', owner).execute();
}

/** Gives up every job `owner` holds, leaving their status as it is. */
export async function releaseJobsOf(db: Db, owner: string): Promise<void> {
  await db.updateTable('documents').set({ owner: null }).where('owner', '=', owner).execute();
}

/** Puts back in the queue the unfinished jobs owned by a process not in `alive`; returns how many. */
export async function requeueJobsOfGone(db: Db, alive: string[]): Promise<number> {
  const res = await db
    .updateTable('documents')
    .set({ owner: null, status: 'queued' })
    .where('status', 'in', ['queued', 'running'])
    .where('owner', 'is not', null)
    .where('owner', 'not in', alive)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Takes one back from `attempts` of those jobs among `ids` that are running and have started at least once. */
export async function uncountAttempts(db: Db, ids: number[]): Promise<void> {
  await db
    .updateTable('documents')
    .set((eb) => ({ attempts: eb('attempts', '-', 1) }))
    .where('id', 'in', ids)
    .where('status', '=', 'running')
    .where('attempts', '>', 0)
    .execute();
}

/**
 * Stores the finished job's findings if it is still running under `owner`; whether it was (a cancel from another
 * process has the last word).
 */
export async function finishJob(
  db: Db,
  id: number,
  owner: string,
  result: { issues: string; issue_count: number; updated_at: string },
): Promise<boolean> {
  const res = await db
    .updateTable('documents')
    .set({
      status: 'done',
      progress: 100,
      issues: result.issues,
      issue_count: result.issue_count,
      charge: null,
      updated_at: result.updated_at,
    })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .where('owner', '=', owner)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * Clears the job's charge if it is still `charge`; whether this call cleared it (of two racing calls, only one
 * does, and only that one refunds).
 */
export async function clearCharge(db: Db, id: number, charge: string): Promise<boolean> {
  const res = await db
    .updateTable('documents')
    .set({ charge: null })
    .where('id', '=', id)
    .where('charge', '=', charge)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

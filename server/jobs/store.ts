import { sql, type Selectable, type UpdateObject } from 'kysely';
import { nowIso, type Db } from '../db';
import type { ChargeState, Database, DialectName, JobKind, JobsTable, JobState } from '../db/schema';
import type { RightReason } from '../domain/rights/reasons';
import { refundRight, type Consumption } from '../domain/rights/ledger';

/**
 * The one job store: a row of `jobs` per job of any kind, holding its queue state, progress, attempts, charge and
 * the process running it. The kind's own row (`ref`) holds its input and result, where the routes read them.
 */

export type JobRecord = Selectable<JobsTable>;
export type { JobKind, JobState };

const UNFINISHED = ['queued', 'running'] as const;

/** A new job, queued; `charge` is the JSON of the consumption its upload reserved (inside the upload's transaction). */
export async function insertJob(
  db: Db,
  values: { kind: JobKind; ref: number; uid: number; charge?: string | null },
): Promise<void> {
  const now = nowIso();
  await db
    .insertInto('jobs')
    .values({
      kind: values.kind,
      ref: values.ref,
      uid: values.uid,
      state: 'queued',
      progress: 0,
      attempts: 0,
      charge: values.charge ?? null,
      charge_state: values.charge ? 'reserved' : 'none',
      owner: null,
      run_after: now,
      error_code: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

/** Queues the kind's row again from the start (new content), charging nothing more; creates the job if none is. */
export async function requeueJob(db: Db, kind: JobKind, ref: number, uid: number): Promise<void> {
  const now = nowIso();
  await db
    .insertInto('jobs')
    .values({
      kind,
      ref,
      uid,
      state: 'queued',
      progress: 0,
      attempts: 0,
      charge: null,
      charge_state: 'none',
      owner: null,
      run_after: now,
      error_code: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.columns(['kind', 'ref']).doUpdateSet({
        state: 'queued',
        progress: 0,
        attempts: 0,
        owner: null,
        run_after: now,
        error_code: null,
        updated_at: now,
      }),
    )
    .execute();
}

/**
 * Queues a new run of the kind's row that is charged by its run (a website check: by the text its pages hold), not
 * at upload: the job starts with no charge; creates the job if none is.
 */
export async function submitJob(db: Db, kind: JobKind, ref: number, uid: number): Promise<void> {
  await requeueJob(db, kind, ref, uid);
  await db
    .updateTable('jobs')
    .set({ charge: null, charge_state: 'none' })
    .where('kind', '=', kind)
    .where('ref', '=', ref)
    // a charge whose refund was cut short is not lost: the new run takes it over
    .where('charge_state', '!=', 'reserved')
    .execute();
}

/**
 * Records the charge of a job `owner` runs that had none (taken while it runs, in the consumption's transaction);
 * false once it no longer runs it, or if it was charged already: the caller rolls the consumption back.
 */
export async function reserveJobCharge(db: Db, id: number, owner: string, charge: string): Promise<boolean> {
  return updateRunning(db, id, owner, { charge, charge_state: 'reserved' }, 'none');
}

/** How many jobs of a kind the user has queued or running. */
export async function countUnfinishedJobs(db: Db, kind: JobKind, uid: number): Promise<number> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('kind', '=', kind)
    .where('uid', '=', uid)
    .where('state', 'in', UNFINISHED)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findJob(db: Db, kind: JobKind, ref: number): Promise<JobRecord | undefined> {
  return db.selectFrom('jobs').selectAll().where('kind', '=', kind).where('ref', '=', ref).executeTakeFirst();
}

export async function findJobById(db: Db, id: number): Promise<JobRecord | undefined> {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function deleteJob(db: Db, kind: JobKind, ref: number): Promise<void> {
  await db.deleteFrom('jobs').where('kind', '=', kind).where('ref', '=', ref).execute();
}

/**
 * Makes `owner` the runner of the oldest queued job of `kind` that is due, counting the start; the job, or undefined.
 * On PostgreSQL `FOR UPDATE SKIP LOCKED` lets processes claim side by side, never one job twice; SQLite serialises
 * writers, which does the same.
 */
export async function claimJob(
  db: Db,
  kind: JobKind,
  owner: string,
  dialect: DialectName,
): Promise<JobRecord | undefined> {
  const lock = dialect === 'postgres' ? sql`FOR UPDATE SKIP LOCKED` : sql``;
  const now = nowIso();
  const result = await sql<JobRecord>`
    UPDATE jobs SET owner = ${owner}, state = 'running', attempts = attempts + 1, updated_at = ${now}
    WHERE id = (
      SELECT id FROM jobs
      WHERE kind = ${kind} AND state = 'queued' AND owner IS NULL AND run_after <= ${now}
      ORDER BY id LIMIT 1 ${lock}
    ) AND owner IS NULL AND state = 'queued'
    RETURNING *`.execute(db);
  return result.rows[0];
}

/** Writes the progress of a job `owner` runs; false once it no longer does (cancelled, taken over). */
export async function setJobProgress(db: Db, id: number, owner: string, progress: number): Promise<boolean> {
  return updateRunning(db, id, owner, { progress });
}

/** Writes a job `owner` runs (with `charge`, only while its charge is in that state); false once it no longer runs. */
async function updateRunning(
  db: Db,
  id: number,
  owner: string,
  values: UpdateObject<Database, 'jobs'>,
  charge?: ChargeState,
): Promise<boolean> {
  let query = db
    .updateTable('jobs')
    .set({ ...values, updated_at: nowIso() })
    .where('id', '=', id)
    .where('owner', '=', owner)
    .where('state', '=', 'running');
  if (charge !== undefined) query = query.where('charge_state', '=', charge);
  const res = await query.executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Ends a job `owner` runs as done, its charge spent for good; false once it no longer runs it. */
export async function finishJob(db: Db, id: number, owner: string): Promise<boolean> {
  return updateRunning(db, id, owner, {
    state: 'done',
    progress: 100,
    owner: null,
    charge_state: sql<ChargeState>`CASE charge_state WHEN 'reserved' THEN 'committed' ELSE charge_state END`,
  });
}

/** Puts a job `owner` runs back in the queue, not claimed before `runAfter` (a retry); false if it no longer runs. */
export async function retryJob(db: Db, id: number, owner: string, runAfter: string): Promise<boolean> {
  return updateRunning(db, id, owner, { state: 'queued', owner: null, run_after: runAfter });
}

/**
 * Ends an unfinished job as failed or cancelled; with `owner`, only while that process runs it. False when it had
 * ended (of a cancel and a failure racing, one wins).
 */
export async function endJob(
  db: Db,
  id: number,
  state: 'failed' | 'cancelled',
  errorCode: string,
  owner?: string,
): Promise<boolean> {
  let query = db
    .updateTable('jobs')
    .set({ state, owner: null, error_code: errorCode, updated_at: nowIso() })
    .where('id', '=', id)
    .where('state', 'in', UNFINISHED);
  if (owner !== undefined) query = query.where('owner', '=', owner);
  const res = await query.executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Queues a failed or cancelled job again (an operator's retry); false if it was not ended so. */
export async function reopenJob(db: Db, id: number): Promise<boolean> {
  const now = nowIso();
  const res = await db
    .updateTable('jobs')
    .set({ state: 'queued', owner: null, attempts: 0, progress: 0, error_code: null, run_after: now, updated_at: now })
    .where('id', '=', id)
    .where('state', 'in', ['failed', 'cancelled'])
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

class AlreadyRefunded extends Error {}

/**
 * Gives back a job's reserved charge, once: the row's move from reserved to refunded is in the refund's transaction,
 * so of two processes refunding the same job only one does. Returns what was refunded.
 */
export async function refundJobCharge(db: Db, id: number, reason: RightReason): Promise<number> {
  const row = await db.selectFrom('jobs').select(['charge', 'charge_state']).where('id', '=', id).executeTakeFirst();
  if (!row?.charge || row.charge_state !== 'reserved') return 0;
  const consumption = JSON.parse(row.charge) as Consumption;
  const settle = async (trx: Db) => {
    const res = await trx
      .updateTable('jobs')
      .set({ charge_state: 'refunded' })
      .where('id', '=', id)
      .where('charge_state', '=', 'reserved')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw new AlreadyRefunded();
  };
  try {
    return await refundRight(db, consumption, consumption.amount, reason, settle);
  } catch (error) {
    if (error instanceof AlreadyRefunded) return 0;
    throw error;
  }
}

/**
 * Gives back the jobs `owner` runs (a graceful stop): queued for whoever runs next, the start not held against them.
 */
export async function releaseJobsOf(db: Db, owner: string): Promise<void> {
  await db
    .updateTable('jobs')
    .set((eb) => ({
      state: 'queued',
      owner: null,
      attempts: eb
        .case()
        .when('attempts', '>', 0)
        .then(eb('attempts', '-', 1))
        .else(0)
        .end(),
      updated_at: nowIso(),
    }))
    .where('owner', '=', owner)
    .where('state', '=', 'running')
    .execute();
}

/** Puts back in the queue the jobs run by processes not in `alive` (the start counts); returns how many. */
export async function requeueJobsOfGone(db: Db, alive: string[]): Promise<number> {
  let query = db
    .updateTable('jobs')
    .set({ state: 'queued', owner: null, updated_at: nowIso() })
    .where('state', '=', 'running')
    .where('owner', 'is not', null);
  if (alive.length) query = query.where('owner', 'not in', alive);
  const res = await query.executeTakeFirst();
  return Number(res.numUpdatedRows);
}

export interface QueueOverview {
  counts: Array<{ kind: JobKind; state: JobState; count: number }>;
  oldestQueuedAt: string | null;
  running: JobRecord[];
  failures: JobRecord[];
}

/** What operators see of the queue: counts by kind and state, the oldest waiting job, running jobs, failures. */
export async function queueOverview(db: Db, failures = 20): Promise<QueueOverview> {
  const counts = await db
    .selectFrom('jobs')
    .select(['kind', 'state', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy(['kind', 'state'])
    .orderBy('kind')
    .orderBy('state')
    .execute();
  const oldest = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.min('created_at').as('at'))
    .where('state', '=', 'queued')
    .executeTakeFirst();
  const running = await db.selectFrom('jobs').selectAll().where('state', '=', 'running').orderBy('id').execute();
  const failed = await db
    .selectFrom('jobs')
    .selectAll()
    .where('state', '=', 'failed')
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(failures)
    .execute();
  return {
    counts: counts.map((c) => ({ kind: c.kind, state: c.state, count: Number(c.count) })),
    oldestQueuedAt: (oldest?.at as string | null | undefined) ?? null,
    running,
    failures: failed,
  };
}

/** The kinds that have a queued job due now. */
export async function findDueKinds(db: Db): Promise<JobKind[]> {
  const rows = await db
    .selectFrom('jobs')
    .select('kind')
    .distinct()
    .where('state', '=', 'queued')
    .where('owner', 'is', null)
    .where('run_after', '<=', nowIso())
    .execute();
  return rows.map((r) => r.kind);
}

/** Jobs that ended failed or cancelled with their charge still reserved (the refund was cut short). */
export async function findUnrefundedEnded(db: Db): Promise<JobRecord[]> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('state', 'in', ['failed', 'cancelled'])
    .where('charge_state', '=', 'reserved')
    .execute();
}

/**
 * Whether `owner` still runs the kind's job `ref`, recording its progress if given: a kind's write of its row under
 * way checks it in the same transaction, so a job cancelled or taken over writes nothing more.
 */
export async function holdsJob(db: Db, kind: JobKind, ref: number, owner: string, progress?: number): Promise<boolean> {
  const res = await db
    .updateTable('jobs')
    .set({ ...(progress === undefined ? {} : { progress }), updated_at: nowIso() })
    .where('kind', '=', kind)
    .where('ref', '=', ref)
    .where('owner', '=', owner)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

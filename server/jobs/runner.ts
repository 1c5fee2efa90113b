import type { FastifyInstance } from 'fastify';
import { isServerMessageCode, renderMessage, type MessageParams, type ServerMessageCode } from '../../openapi/messages';
import { RIGHT_REASONS, type RightReason } from '../domain/rights/reasons';
import type { Db } from '../db';
import { AppError } from '../errors';
import { checkService } from '../workers/checker/jobs';
import {
  claimJob,
  deleteJob,
  endJob,
  findDueKinds,
  findJob,
  findJobById,
  findUnrefundedEnded,
  finishJob,
  refundJobCharge,
  releaseJobsOf,
  reopenJob,
  requeueJob,
  retryJob,
  setJobProgress,
  type JobKind,
  type JobRecord,
} from './store';

/** Set when a job must stop (cancel, delete, new content, server stop); `onAbort` stops what it waits on. */
export interface JobSignal {
  aborted: boolean;
  onAbort?: () => void;
}

/** What a failed or cancelled job tells its owner: a message of the catalogue. */
export interface FailureReason {
  code: ServerMessageCode;
  params?: MessageParams;
}

/** A failure said to the job's owner; final (not retried): the input is at fault, not the moment. */
export class JobFailure extends Error {
  constructor(
    readonly code: ServerMessageCode,
    readonly params: MessageParams = {},
  ) {
    super(renderMessage(code, params));
  }
}

export interface JobContext {
  app: FastifyInstance;
  job: JobRecord;
  signal: JobSignal;
  /** least time between two progress messages of a job */
  progressIntervalMs: number;
  /** Records the job's progress; false once this process no longer runs it (cancelled elsewhere): stop then. */
  progress(percent: number): Promise<boolean>;
}

/** How a job's result is kept: `store` in the transaction that ends the job as done, then `announce`. */
export interface JobResult {
  store(trx: Db): Promise<void>;
  announce(): Promise<void>;
}

/** One kind of job: read its input, do the work in the pools, store the result (server/jobs/kinds). */
export interface JobHandler {
  kind: JobKind;
  /** the job's work; its result, or null when it stopped early (aborted, or its row is gone) */
  run(ctx: JobContext): Promise<JobResult | null>;
  /** writes the kind's row of a job that failed or was cancelled (also from the admin CLI, without a server) */
  endRow(db: Db, job: JobRecord, state: 'failed' | 'cancelled', reason: FailureReason): Promise<void>;
  /** tells the job's owner that it failed or was cancelled */
  tellEnded(app: FastifyInstance, job: JobRecord, state: 'failed' | 'cancelled', reason: FailureReason): Promise<void>;
}

/**
 * A kind's message (openapi/messages.ts) for `failed` (a fault with no message of its own, retried until the attempts
 * ran out), `interrupted` (every start died with its process) or `cancelled` (an operator's cancel): `<kind>.<what>`.
 */
export function kindMessage(kind: JobKind, what: 'failed' | 'interrupted' | 'cancelled'): ServerMessageCode {
  const code = `${kind}.${what}`;
  if (!isServerMessageCode(code)) throw new Error(`job kind ${kind} has no message ${code}`);
  return code;
}

/** The ledger's reason of a kind's refund (domain/rights/reasons.ts): `<kind>.failed_refund` / `.cancelled_refund`. */
export function refundReason(kind: JobKind, state: 'failed' | 'cancelled'): RightReason {
  const code = `${kind}.${state}_refund`;
  if (!Object.hasOwn(RIGHT_REASONS, code)) throw new Error(`job kind ${kind} has no refund reason ${code}`);
  return code;
}

/** What a kind's row keeps of why its job ended: the message, its code and its values (JSON, null without). */
export function endedColumns(reason: FailureReason) {
  const params = reason.params ?? {};
  return {
    error: renderMessage(reason.code, params),
    error_code: reason.code,
    error_params: Object.keys(params).length > 0 ? JSON.stringify(params) : null,
  };
}

/** What the socket tells of why a job ended: the message, its code and its values (left out without). */
export function endedFields(reason: FailureReason) {
  const params = reason.params ?? {};
  return {
    error: renderMessage(reason.code, params),
    error_code: reason.code,
    ...(Object.keys(params).length > 0 && { error_params: params }),
  };
}

/** The checker pool group of a job's units: an aborted job's are cancelled there. */
export const checkerGroup = (job: Pick<JobRecord, 'kind' | 'ref'>) => `${job.kind}:${Number(job.ref)}`;

export interface JobRunnerOptions {
  /** jobs of a kind one process runs at the same time (default: from the config) */
  concurrency?: Partial<Record<JobKind, number>>;
  /** least time between two progress messages of a job (default 250 ms) */
  progressIntervalMs?: number;
}

interface Active {
  job: JobRecord;
  signal: JobSignal;
  done: Promise<void>;
}

const keyOf = (kind: JobKind, ref: number) => `${kind}:${ref}`;

/** A failure that may pass (a worker crash, a provider's timeout or 5xx) is retried; one about the input is not. */
const isFinal = (error: unknown) =>
  error instanceof JobFailure || (error instanceof AppError && error.statusCode < 500);

/**
 * The one job runner: claims due jobs of every registered kind from the store while the kind has room in this
 * process, runs the kind's handler, and ends the job as done (result stored, charge committed), retried later (a
 * fault that may pass, until `maxAttempts` starts), failed or cancelled (charge refunded once). A job of a dead
 * process goes back to the queue (the instance sweep) and is taken up by whichever process has room.
 */
export class JobRunner {
  private readonly handlers = new Map<JobKind, JobHandler>();
  private readonly active = new Map<string, Active>();
  private closing = false;
  private filling: Promise<void> | null = null;
  private refill = false;
  private poll: NodeJS.Timeout | null = null;
  /** least time between two progress messages of a job (a test may change it) */
  progressIntervalMs: number;

  constructor(
    private readonly app: FastifyInstance,
    private readonly options: JobRunnerOptions = {},
  ) {
    this.progressIntervalMs = options.progressIntervalMs ?? 250;
  }

  register(handler: JobHandler): void {
    // a kind without its messages fails at start, not when a job of it ends
    for (const what of ['failed', 'interrupted', 'cancelled'] as const) kindMessage(handler.kind, what);
    for (const state of ['failed', 'cancelled'] as const) refundReason(handler.kind, state);
    this.handlers.set(handler.kind, handler);
  }

  concurrency(kind: JobKind): number {
    return Math.max(1, this.options.concurrency?.[kind] ?? this.app.config.jobs.concurrency[kind]);
  }

  /** Starts claiming (server ready); a slow poll catches jobs queued elsewhere and retries coming due. */
  async start(): Promise<void> {
    this.app.instance.onRequeued = () => this.fill();
    this.poll = setInterval(() => this.fill(), this.app.config.jobs.pollMs);
    this.poll.unref();
    this.fill();
    await this.filling;
  }

  /** A job was queued: claim work, here or in whichever process has room. */
  enqueue(): void {
    if (this.closing) return;
    this.app.realtime.cluster?.publish({ kind: 'jobs' });
    this.fill();
  }

  /** Queues the kind's row again from the start (new content), after stopping it here. */
  async requeue(kind: JobKind, ref: number, uid: number): Promise<void> {
    await this.abort(kind, ref);
    await requeueJob(this.app.db, kind, ref, uid);
    this.enqueue();
  }

  isActive(kind: JobKind, ref: number): boolean {
    return this.active.has(keyOf(kind, ref));
  }

  /**
   * Waits (at most `ms`) while the job runs in this process or waits to be claimed; a job another process runs is
   * not waited for.
   */
  async idle(kind: JobKind, ref: number, ms: number): Promise<void> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const job = await findJob(this.app.db, kind, ref);
      if (!job || (job.state !== 'queued' && job.state !== 'running')) return;
      if (job.owner !== null && job.owner !== this.app.instance.id) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Stops the job here and waits until it no longer writes. */
  async abort(kind: JobKind, ref: number): Promise<void> {
    const active = this.active.get(keyOf(kind, ref));
    if (!active) return;
    active.signal.aborted = true;
    active.signal.onAbort?.();
    checkService(this.app).cancelGroup(checkerGroup({ kind, ref }));
    await active.done;
  }

  /** The owner cancels: the job stops, ends as cancelled and its charge is refunded; false if it had ended. */
  async cancel(kind: JobKind, ref: number, reason: FailureReason): Promise<boolean> {
    await this.abort(kind, ref);
    const job = await findJob(this.app.db, kind, ref);
    return job ? this.end(job, 'cancelled', reason) : false;
  }

  /** The kind's row is being deleted: the job stops, an unfinished one is refunded (`reason`), the job goes. */
  async remove(kind: JobKind, ref: number, reason: string): Promise<void> {
    await this.abort(kind, ref);
    const job = await findJob(this.app.db, kind, ref);
    if (!job) return;
    if (job.state === 'queued' || job.state === 'running') await refundJobCharge(this.app.db, job.id, reason);
    await deleteJob(this.app.db, kind, ref);
  }

  /** An operator cancels a job by its id; false if it had ended. */
  async cancelById(id: number): Promise<boolean> {
    const job = await findJobById(this.app.db, id);
    const handler = job && this.handlers.get(job.kind);
    if (!job || !handler) return false;
    return this.cancel(job.kind, job.ref, { code: kindMessage(job.kind, 'cancelled') });
  }

  /** An operator queues a failed or cancelled job again (charging nothing more); false if it was not ended so. */
  async retryById(id: number): Promise<boolean> {
    if (!(await reopenJob(this.app.db, id))) return false;
    this.enqueue();
    return true;
  }

  /** Refunds jobs that ended while their refund was cut short (the process died in between). */
  async refundEnded(): Promise<void> {
    for (const job of await findUnrefundedEnded(this.app.db)) {
      const handler = this.handlers.get(job.kind);
      if (!handler) continue;
      await refundJobCharge(
        this.app.db,
        job.id,
        refundReason(job.kind, job.state === 'cancelled' ? 'cancelled' : 'failed'),
      );
    }
  }

  /** Server stop: running jobs stop where they are and go back to the queue for whoever runs next. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.poll) clearInterval(this.poll);
    await this.filling;
    const running = [...this.active.values()];
    await Promise.all(running.map((a) => this.abort(a.job.kind, a.job.ref)));
    await releaseJobsOf(this.app.db, this.app.instance.id).catch((error) =>
      this.app.log.warn({ err: error }, 'jobs not released'),
    );
  }

  /** Claims due jobs while this process has room (one claim loop at a time; a call during it runs it again). */
  fill(): void {
    if (this.closing) return;
    if (this.filling) {
      this.refill = true;
      return;
    }
    this.filling = (async () => {
      do {
        this.refill = false;
        const due = await findDueKinds(this.app.db).catch((error) => {
          this.app.log.warn({ err: error }, 'job queue not read');
          return [];
        });
        for (const kind of due) {
          if (!this.handlers.has(kind)) continue;
          while (!this.closing && this.runningOf(kind) < this.concurrency(kind)) {
            const job = await claimJob(this.app.db, kind, this.app.instance.id, this.app.dialect).catch((error) => {
              this.app.log.warn({ err: error, kind }, 'job not claimed');
              return undefined;
            });
            if (!job) break;
            this.launch(job);
          }
        }
      } while (this.refill && !this.closing);
    })().finally(() => {
      this.filling = null;
    });
  }

  private runningOf(kind: JobKind): number {
    let n = 0;
    for (const a of this.active.values()) if (a.job.kind === kind) n++;
    return n;
  }

  private launch(job: JobRecord): void {
    const key = keyOf(job.kind, job.ref);
    const active: Active = { job, signal: { aborted: false }, done: Promise.resolve() };
    this.active.set(key, active);
    active.done = this.run(active)
      .catch((error) => this.app.log.error({ err: error, kind: job.kind, ref: job.ref }, 'job crashed'))
      .finally(() => {
        this.active.delete(key);
        this.fill();
      });
  }

  private async run({ job, signal }: Active): Promise<void> {
    const handler = this.handlers.get(job.kind)!;
    const { db, instance, config } = this.app;
    // started this often without ending (each start a process died in): it would kill the next one too
    if (Number(job.attempts) > config.jobs.maxAttempts) {
      await this.end(job, 'failed', { code: kindMessage(job.kind, 'interrupted') }, instance.id);
      return;
    }
    const ctx: JobContext = {
      app: this.app,
      job,
      signal,
      progressIntervalMs: this.progressIntervalMs,
      progress: async (percent) => {
        if (await setJobProgress(db, job.id, instance.id, percent)) return true;
        signal.aborted = true;
        signal.onAbort?.();
        checkService(this.app).cancelGroup(checkerGroup(job));
        return false;
      },
    };
    try {
      const result = await handler.run(ctx);
      if (signal.aborted) return;
      let finished = false;
      await db.transaction().execute(async (trx) => {
        finished = await finishJob(trx, job.id, instance.id);
        if (finished && result) await result.store(trx);
      });
      if (finished && result) await result.announce();
    } catch (error) {
      if (signal.aborted) return;
      if (isFinal(error)) {
        const reason =
          error instanceof JobFailure
            ? { code: error.code, params: error.params }
            : { code: (error as AppError).msgCode, params: (error as AppError).msgParams };
        await this.end(job, 'failed', reason, instance.id);
        return;
      }
      this.app.log.error({ err: error, kind: job.kind, ref: job.ref, attempt: job.attempts }, 'job failed');
      if (Number(job.attempts) >= config.jobs.maxAttempts) {
        await this.end(job, 'failed', { code: kindMessage(job.kind, 'failed') }, instance.id);
        return;
      }
      const wait = config.jobs.retryMs * 2 ** (Number(job.attempts) - 1);
      await retryJob(db, job.id, instance.id, new Date(Date.now() + wait).toISOString());
    }
  }

  /** Ends an unfinished job (failed or cancelled), writes its row, tells its owner, refunds its charge once. */
  private async end(
    job: JobRecord,
    state: 'failed' | 'cancelled',
    reason: FailureReason,
    owner?: string,
  ): Promise<boolean> {
    const handler = this.handlers.get(job.kind);
    if (!handler) return false;
    if (!(await endStoredJob(this.app.db, handler, job, state, reason, owner))) return false;
    await handler.tellEnded(this.app, job, state, reason);
    return true;
  }
}

/**
 * Ends an unfinished job (with `owner`, only while that process runs it), writes its kind's row and refunds its
 * charge once; false when it had ended. A process still running it finds out at its next write and stops.
 */
export async function endStoredJob(
  db: Db,
  handler: JobHandler,
  job: JobRecord,
  state: 'failed' | 'cancelled',
  reason: FailureReason,
  owner?: string,
): Promise<boolean> {
  if (!(await endJob(db, job.id, state, reason.code, owner))) return false;
  await handler.endRow(db, job, state, reason);
  await refundJobCharge(db, job.id, refundReason(job.kind, state));
  return true;
}

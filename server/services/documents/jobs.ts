import { recordCheck } from '../team-metrics';
import type { FastifyInstance } from 'fastify';
import type { DocumentFlagData } from '../../../openapi/socket-protocol';
import { nowIso } from '../../db';
import {
  claimOldestJob,
  clearCharge,
  findJobState,
  findUnclaimedJobIds,
  finishJob,
  releaseJob,
  uncountAttempts,
} from '../../db/repos/document-jobs';
import { findDocument, findDocumentFile, updateDocument, type DocumentRecord } from '../../db/repos/documents';
import { AppError } from '../../errors';
import { checkService, splitUnits } from '../checker/jobs';
import { countChars, refundStoredCharge, rightBalance } from '../rights';
import { openIssues, type Fix, type Ignored, type StoredIssue } from './content';
import { wordCount } from './load';
import type { UploadKind } from './read';
import { readEnv } from '../../config';
import type { DocumentsTable } from '../../db/schema';
import { renderMessage, type MessageParams, type ServerMessageCode } from '../../../openapi/messages';

const parse = <T>(json: string | null, fallback: T): T => (json ? (JSON.parse(json) as T) : fallback);
export const issuesOf = (row: { issues: string | null }) => parse<StoredIssue[]>(row.issues, []);
export const fixesOf = (row: { fixes: string | null }) => parse<Fix[]>(row.fixes, []);
export const ignoredOf = (row: { ignored: string | null }) => parse<Ignored[]>(row.ignored, []);

/** A job that crashed the process this often is failed instead of being resumed again. */
const MAX_ATTEMPTS = 3;
/** Progress given to reading the file; checking the paragraphs takes the rest. */
const READ_SHARE = 5;
/** One unit failing in the checker is tried once more before the job fails. */
const UNIT_RETRIES = 1;

export interface DocumentQueueOptions {
  /** documents processed at the same time (DOC_WORKERS, default 2); their paragraphs share the checker pool */
  concurrency?: number;
  /** least time between two progress messages of a job (default 250 ms) */
  progressIntervalMs?: number;
}

interface Active {
  id: number;
  aborted: boolean;
  done: Promise<void>;
  /** stops the reader worker while the file is being read */
  onAbort?: () => void;
}

/** Failure that ends a job with a readable message (and refunds the upload). */
/** Why a job cannot go on, said to its owner: a message of the catalogue. */
class JobFailure extends Error {
  constructor(
    readonly code: ServerMessageCode,
    readonly params: MessageParams = {},
  ) {
    super(renderMessage(code, params));
  }
}

/** What a failed or cancelled job tells its owner. */
export interface FailureReason {
  code: ServerMessageCode;
  params?: MessageParams;
}

/**
 * The document worker queue: jobs are rows of `documents` (status queued / running); the queue takes them in
 * id order, `concurrency` at a time, reads the file, checks its paragraphs in the shared checker pool with
 * the owner's dictionaries, stores the findings and reports progress on the socket (`type 2 cmd 1`) to every
 * session of the owner. Whatever is queued or running when the server stops is taken up again by `resume()`.
 */
export class DocumentQueue {
  private active = new Map<number, Active>();
  private closing = false;
  private filling: Promise<void> | null = null;
  private refill = false;
  private poll: NodeJS.Timeout | null = null;
  readonly concurrency: number;
  readonly progressIntervalMs: number;

  constructor(
    private readonly app: FastifyInstance,
    options: DocumentQueueOptions = {},
  ) {
    this.concurrency = Math.max(1, options.concurrency ?? readEnv().DOC_WORKERS);
    this.progressIntervalMs = options.progressIntervalMs ?? 250;
  }

  /** Takes up unfinished jobs (server start). Returns how many wait to be claimed. */
  async resume(): Promise<number> {
    const waiting = await findUnclaimedJobIds(this.app.db);
    if (waiting.length) this.app.log.info({ jobs: waiting.length }, 'document jobs resumed');
    this.app.instance.onRequeued = () => this.fill();
    // Other processes may queue jobs too: they announce them on the cluster bus, and a slow poll catches the rest.
    if (this.app.dialect === 'postgres') {
      this.poll = setInterval(() => this.fill(), 2_000);
      this.poll.unref();
    }
    this.fill();
    await this.filling;
    return waiting.length;
  }

  /** A job was queued (upload, new content): claim work, here or in whichever process has room. */
  enqueue(_id: number): void {
    if (this.closing) return;
    this.app.realtime.cluster?.publish({ kind: 'documents' });
    this.fill();
  }

  isActive(id: number): boolean {
    return this.active.has(id);
  }

  /**
   * Waits (at most `ms`) while the document's job runs in this process or waits to be claimed; a job another
   * process runs is not waited for (the caller answers that the check is still running).
   */
  async idle(id: number, ms: number): Promise<void> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const row = await findJobState(this.app.db, id);
      if (!row || (row.status !== 'queued' && row.status !== 'running')) return;
      if (row.owner !== null && row.owner !== this.app.instance.id) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Stops a job (cancel, delete, new content) and waits until it no longer writes. */
  async abort(id: number): Promise<void> {
    const job = this.active.get(id);
    if (!job) return;
    job.aborted = true;
    job.onAbort?.();
    checkService(this.app).cancelGroup(group(id));
    await job.done;
  }

  /**
   * Server stop: running jobs stop where they are and stay `running` in the database (taken up again by the next
   * process). A stop like this is not held against the job (`attempts` counts starts that never ended, e.g. a
   * crash).
   */
  async close(): Promise<void> {
    this.closing = true;
    if (this.poll) clearInterval(this.poll);
    await this.filling;
    const ids = [...this.active.keys()];
    await Promise.all(ids.map((id) => this.abort(id)));
    if (ids.length) {
      await uncountAttempts(this.app.db, ids).catch((error) =>
        this.app.log.warn({ err: error }, 'document attempts not reset'),
      );
    }
  }

  /** Claims jobs while this process has room (one claim loop at a time; a call during it runs it again). */
  fill(): void {
    if (this.closing) return;
    if (this.filling) {
      this.refill = true;
      return;
    }
    this.filling = (async () => {
      do {
        this.refill = false;
        while (!this.closing && this.active.size < this.concurrency) {
          const id = await this.claim().catch((error) => {
            this.app.log.warn({ err: error }, 'document job not claimed');
            return null;
          });
          if (id === null) break;
          this.start(id);
        }
      } while (this.refill && !this.closing);
    })().finally(() => {
      this.filling = null;
    });
  }

  /** The oldest unclaimed job, now owned by this process (processes claim side by side, never one job twice). */
  private async claim(): Promise<number | null> {
    return claimOldestJob(this.app.db, this.app.instance.id, this.app.dialect);
  }

  private start(id: number): void {
    const job: Active = { id, aborted: false, done: Promise.resolve() };
    this.active.set(id, job);
    job.done = this.run(job)
      .catch((error) => this.app.log.error({ err: error, document: id }, 'document job crashed'))
      .finally(async () => {
        // Finished: the row is anybody's again. An aborted job's row is left to whoever aborted it (a cancel makes it
        // final, new content queues it afresh with no owner), so it is not claimed again here in between.
        if (!this.closing && !job.aborted) {
          await releaseJob(this.app.db, id, this.app.instance.id).catch((error) =>
            this.app.log.warn({ err: error, document: id }, 'document job not released'),
          );
        }
        this.active.delete(id);
        this.fill();
      });
  }

  private flag(uid: number, data: DocumentFlagData): void {
    this.app.realtime.sendToUser(uid, { type: 2, cmd: 1, status: 200, data });
  }

  private async update(id: number, values: Partial<Omit<DocumentsTable, 'id'>>): Promise<void> {
    await updateDocument(this.app.db, id, { ...values, updated_at: nowIso() });
  }

  private async run(job: Active): Promise<void> {
    const { db } = this.app;
    const row = await findDocument(db, job.id);
    if (!row || (row.status !== 'queued' && row.status !== 'running') || job.aborted) return;
    const uid = Number(row.uid);
    const attempts = Number(row.attempts) + 1;
    await this.update(job.id, {
      status: 'running',
      progress: 0,
      error: null,
      error_code: null,
      error_params: null,
      attempts,
    });
    this.flag(uid, { id: job.id, status: 'running', progress: 0, issue_count: 0 });
    try {
      if (attempts > MAX_ATTEMPTS) throw new JobFailure('document.interrupted');
      let text = row.text;
      if (row.html === null || text === null) {
        const file = await findDocumentFile(db, job.id);
        if (!file) throw new JobFailure('document.file_lost');
        const content = await this.app.heavy.run(
          'read',
          { filename: row.name, data: file, kind: row.file_type as UploadKind },
          { background: true, signal: job },
        );
        if (job.aborted) return;
        if (!content.text.trim()) throw new JobFailure('document.no_text');
        const chars = countChars(content.text);
        const max = await rightBalance(db, uid, 64);
        if (chars > max) throw new JobFailure('document.too_many_chars', { chars, max });
        text = content.text;
        await this.update(job.id, { html: content.html, text, word_count: wordCount(text) });
      }
      const issues = await this.check(job, uid, row, text);
      if (!issues || job.aborted) return;
      const open = openIssues(issues, ignoredOf(row));
      // only while still this process's running job: a cancel from another process has the last word
      const finished = await finishJob(this.app.db, job.id, this.app.instance.id, {
        issues: JSON.stringify(issues),
        issue_count: open.length,
        updated_at: nowIso(),
      });
      if (!finished) return;
      await recordCheck(db, { uid, kind: 'document', chars: countChars(text), issues: open }).catch((err: unknown) =>
        this.app.log.error({ err, document: job.id }, 'document check not recorded for metrics'),
      );
      const units = splitUnits(text).length;
      this.flag(uid, {
        id: job.id,
        status: 'done',
        progress: 100,
        issue_count: open.length,
        paragraphs_done: units,
        paragraphs: units,
      });
    } catch (error) {
      if (job.aborted) return;
      let reason: FailureReason = { code: 'document.failed' };
      if (error instanceof JobFailure) reason = { code: error.code, params: error.params };
      else if (error instanceof AppError) reason = { code: error.msgCode, params: error.msgParams };
      else this.app.log.error({ err: error, document: job.id }, 'document job failed');
      await this.fail(job.id, uid, reason);
    }
  }

  /** Marks a job failed (or cancelled), refunds its upload and tells the owner. */
  async fail(id: number, uid: number, reason: FailureReason, status: 'failed' | 'cancelled' = 'failed'): Promise<void> {
    const row = await findDocument(this.app.db, id);
    if (!row) return;
    const params = reason.params ?? {};
    const hasParams = Object.keys(params).length > 0;
    const error = renderMessage(reason.code, params);
    const error_params = hasParams ? JSON.stringify(params) : null;
    await this.update(id, { status, error, error_code: reason.code, error_params, progress: 0 });
    await refundStoredCharge(
      this.app.db,
      row.charge,
      (charge) => clearCharge(this.app.db, id, charge),
      status === 'cancelled' ? '文档校对取消退回' : '文档校对失败退回',
    );
    const coded = { error_code: reason.code, ...(hasParams ? { error_params: params } : {}) };
    this.flag(uid, { id, status, progress: 0, issue_count: 0, error, ...coded });
  }

  /** Checks every unit of the text (cache first), reporting progress; null when aborted. */
  private async check(job: Active, uid: number, row: DocumentRecord, text: string): Promise<StoredIssue[] | null> {
    const service = checkService(this.app);
    const prepared = await service.prepare(
      uid,
      Number(row.check_mode) === 4 ? 4 : 3,
      Number(row.check_options),
      row.lang === 'hk' ? 'hk' : 'cn',
    );
    const units = splitUnits(text);
    const total = units.length;
    let done = 0;
    let found = 0;
    // the text is read: say so at once, with the number of paragraphs to check
    this.flag(uid, {
      id: job.id,
      status: 'running',
      progress: READ_SHARE,
      issue_count: 0,
      paragraphs_done: 0,
      paragraphs: total,
    });
    await this.update(job.id, { progress: READ_SHARE });
    let lastSent = Date.now();
    let lastProgress = READ_SHARE;
    // progress writes are chained so none lands after the final state
    let progressWrite: Promise<void> = Promise.resolve();
    const results = await Promise.all(
      units.map(async (unit) => {
        let issues: StoredIssue[] | null = null;
        for (let attempt = 0; issues === null; attempt++) {
          try {
            issues = await service.checkUnit(prepared, unit, group(job.id));
          } catch (error) {
            if (job.aborted) return [];
            if (attempt >= UNIT_RETRIES) {
              this.app.log.warn({ err: error, document: job.id, paragraph: unit.index }, 'paragraph not checked');
              throw new JobFailure('document.paragraph_failed', { paragraph: unit.index + 1 });
            }
          }
        }
        done++;
        found += issues.length;
        const progress = Math.min(99, READ_SHARE + Math.floor((done / total) * (100 - READ_SHARE)));
        const now = Date.now();
        if (!job.aborted && progress > lastProgress && now - lastSent >= this.progressIntervalMs) {
          lastSent = now;
          lastProgress = progress;
          this.flag(uid, {
            id: job.id,
            status: 'running',
            progress,
            issue_count: found,
            paragraphs_done: done,
            paragraphs: total,
          });
          progressWrite = progressWrite.then(() => this.update(job.id, { progress })).catch(() => {});
        }
        return issues.map((i) => ({ ...i, start: i.start + unit.offset, end: i.end + unit.offset }));
      }),
    ).catch(async (error) => {
      service.cancelGroup(group(job.id));
      await progressWrite;
      throw error;
    });
    await progressWrite;
    if (job.aborted) return null;
    return results.flat().sort((a, b) => a.start - b.start || a.end - b.end);
  }
}

const group = (id: number) => `doc:${id}`;

/**
 * PDF checks: an uploaded PDF (right 4 charged at upload) is read in batches of pages in the heavy pool (text with a
 * box per character), its pages' text is checked in the shared checker pool with the owner's dictionaries, and the
 * pages are stored with their findings and boxes a batch at a time (check-pages.ts); progress goes to every session
 * of the owner (socket type 2 cmd 7). A check can be cancelled; a failed, cancelled or interrupted check gives the
 * upload back.
 *
 * Checks run in the process that took the upload (`owner`), `concurrency` at a time, the rest waiting in order. A
 * process that stops ends its checks as interrupted (refunded); one that crashed has them ended by another's sweep.
 */
import type { FastifyInstance } from 'fastify';
import {
  isServerMessageCode,
  renderMessage,
  type MessageParams,
  type ServerMessageCode,
} from '../../../openapi/messages';
import type { PdfProgressData } from '../../../openapi/socket-protocol';
import type { components } from '../../../openapi/schema';
import { nowIso } from '../../db';
import {
  clearPdfCharge,
  findPdfCheck,
  findPdfChecksOfGone,
  findPdfFile,
  updateRunningPdfCheck,
  type PdfCheckRecord,
} from '../../db/repos/pdf-checks';
import { AppError, conflict } from '../../errors';
import { checkService } from '../checker/jobs';
import { refundStoredCharge } from '../rights';
import { recordCheck } from '../team-metrics';
import type { PdfPageText } from './pdfjs';
import { readEnv } from '../../config';
import { checkPdfPages } from './check-pages';

export type PdfSummary = components['schemas']['PdfSummary'];
type Issue = components['schemas']['Issue'];
export type PdfIssue = Issue & { rects: number[][] };

export class CheckFailure extends Error {
  constructor(
    readonly code: ServerMessageCode,
    readonly params: MessageParams = {},
  ) {
    super(renderMessage(code, params));
  }
}

interface Active {
  id: number;
  uid: number;
  aborted: boolean;
  done: Promise<void>;
  onAbort?: () => void;
}

const parse = <T>(json: string | null): T | null => (json ? (JSON.parse(json) as T) : null);

export function pdfSummary(row: PdfCheckRecord): PdfSummary {
  const params = parse<MessageParams>(row.error_params);
  return {
    id: Number(row.id),
    name: row.name,
    size: Number(row.size),
    status: row.status,
    progress: Number(row.progress),
    page_count: Number(row.page_count),
    pages_done: Number(row.pages_done),
    issue_count: Number(row.issue_count),
    created_at: row.created_at,
    ...(row.error !== null && { error: row.error }),
    ...(row.error_code !== null && isServerMessageCode(row.error_code) && { error_code: row.error_code }),
    ...(params && { error_params: params }),
  };
}

/**
 * The boxes of the characters `start`..`end` of a page, merged along each line ([x, y, width, height] in points,
 * top-left origin).
 */
export function rectsOf(page: Pick<PdfPageText, 'boxes'>, start: number, end: number): number[][] {
  const rects: number[][] = [];
  for (let i = start; i < end; i++) {
    const [x, y, w, h] = page.boxes.slice(i * 4, i * 4 + 4);
    if (!w || !h) continue;
    const last = rects.at(-1);
    // the next character of the same line extends the box
    if (last && Math.abs(last[1] - y) < h / 2 && Math.abs(last[0] + last[2] - x) < h) {
      const right = Math.max(last[0] + last[2], x + w);
      last[2] = right - last[0];
      last[3] = Math.max(last[3], h);
    } else rects.push([x, y, w, h].map((v) => Math.round(v * 100) / 100));
  }
  return rects.map((r) => r.map((v) => Math.round(v * 100) / 100));
}

/** Characters OCR read with a confidence (0-100) below this are 识别存疑: never reported as typos on their own. */
export const UNSURE_BELOW = 60;

/**
 * The [start, end) ranges of UTF-16 units of OCR text whose confidence is below UNSURE_BELOW. A line most of whose
 * characters are unsure is unsure as a whole: it is noise read as text (specks, stamps, pictures), and the few
 * characters tesseract is sure of there (quotes, commas) would otherwise give findings of their own.
 */
export function unsureRanges(text: string, confidences: number[], below = UNSURE_BELOW): Array<[number, number]> {
  const unsure = confidences.map((c) => c < below);
  let start = 0;
  for (const line of text.split('\n')) {
    const units: number[] = [];
    for (let i = 0; i < line.length; i++) if (line[i].trim()) units.push(start + i);
    if (units.filter((i) => unsure[i]).length * 2 > units.length) for (const i of units) unsure[i] = true;
    start += line.length + 1;
  }
  const ranges: Array<[number, number]> = [];
  unsure.forEach((u, i) => {
    if (!u || !text[i].trim()) return;
    const last = ranges.at(-1);
    // spaces inside an unsure stretch do not split it
    if (last && !text.slice(last[1], i).trim()) last[1] = i + 1;
    else ranges.push([i, i + 1]);
  });
  return ranges;
}

/** Whether every character of `text` but spaces is in an unsure range. */
export function allUnsure(text: string, unsure: Array<[number, number]>): boolean {
  let at = 0;
  for (const [start, end] of unsure) {
    if (text.slice(at, start).trim()) return false;
    at = end;
  }
  return !text.slice(at).trim();
}

/**
 * The findings that touch no unsure character. OCR noise is the main source of false alarms on scans: a finding on
 * a character the OCR misread would blame the author for the scanner's mistake.
 */
export function withoutUnsure<T extends { start: number; end: number }>(
  issues: T[],
  unsure: Array<[number, number]>,
): T[] {
  // a finding with no characters (a missing one) is judged by the character it stands before
  return issues.filter((i) => !unsure.some(([a, b]) => a < Math.max(i.end, i.start + 1) && i.start < b));
}

export class PdfChecks {
  private active = new Map<number, Active>();
  private waiting: Array<{ id: number; uid: number }> = [];
  private closing = false;
  readonly concurrency: number;
  /** least time between two progress messages of a check */
  progressIntervalMs = 250;

  constructor(private readonly app: FastifyInstance) {
    this.concurrency = Math.max(1, readEnv().PDF_WORKERS);
  }

  /** A stored check waits its turn (upload). */
  enqueue(id: number, uid: number): void {
    if (this.closing) return;
    this.waiting.push({ id, uid });
    this.fill();
  }

  private fill(): void {
    while (!this.closing && this.active.size < this.concurrency && this.waiting.length) {
      const next = this.waiting.shift()!;
      const job: Active = { id: next.id, uid: next.uid, aborted: false, done: Promise.resolve() };
      this.active.set(job.id, job);
      job.done = this.run(job)
        .catch((error) => this.app.log.error({ err: error, pdf: job.id }, 'pdf check crashed'))
        .finally(() => {
          this.active.delete(job.id);
          this.fill();
        });
    }
  }

  /** Stops a check and waits until it no longer writes (cancel, delete, server stop). */
  async abort(id: number): Promise<void> {
    this.waiting = this.waiting.filter((w) => w.id !== id);
    const job = this.active.get(id);
    if (!job) return;
    job.aborted = true;
    job.onAbort?.();
    checkService(this.app).cancelGroup(group(id));
    await job.done;
  }

  /** The owner cancels: the check stops, ends as cancelled and its upload is given back. 409 once it ended. */
  async cancel(row: PdfCheckRecord): Promise<void> {
    if (row.status !== 'queued' && row.status !== 'running') throw conflict('pdf.not_running');
    await this.abort(Number(row.id));
    const ended = await this.end(Number(row.id), Number(row.uid), { code: 'pdf.cancelled' }, 'cancelled', row.owner);
    if (!ended) throw conflict('pdf.not_running');
  }

  /** Gives back what a check was charged (once, whoever asks first): it is being deleted. */
  async release(id: number): Promise<void> {
    const row = await findPdfCheck(this.app.db, id);
    await refundStoredCharge(
      this.app.db,
      row?.charge ?? null,
      (charge) => clearPdfCharge(this.app.db, id, charge),
      'PDF校对取消退回',
    );
  }

  /** Server stop: checks running or waiting here end as interrupted, refunded. */
  async close(): Promise<void> {
    this.closing = true;
    const jobs = [...this.active.values(), ...this.waiting];
    this.waiting = [];
    await Promise.all([...this.active.keys()].map((id) => this.abort(id)));
    for (const job of jobs) await this.end(job.id, job.uid, { code: 'pdf.interrupted' }, 'failed').catch(() => {});
  }

  /** Checks whose process is gone end as interrupted, refunded (the instance sweep). */
  async sweep(alive: string[]): Promise<void> {
    for (const row of await findPdfChecksOfGone(this.app.db, alive)) {
      if (this.active.has(Number(row.id))) continue;
      await this.end(Number(row.id), Number(row.uid), { code: 'pdf.interrupted' }, 'failed', row.owner);
    }
  }

  private progress(uid: number, data: PdfProgressData): void {
    this.app.realtime.sendToUser(uid, { type: 2, cmd: 7, status: 200, data });
  }

  private async run(job: Active): Promise<void> {
    const { db } = this.app;
    const owner = this.app.instance.id;
    const row = await findPdfCheck(db, job.id);
    if (!row || row.status !== 'queued' || job.aborted) return;
    const write = (values: Parameters<typeof updateRunningPdfCheck>[3]) =>
      updateRunningPdfCheck(db, job.id, owner, { ...values, updated_at: nowIso() });
    const pageCount = Number(row.page_count);
    try {
      if (!(await write({ status: 'running', progress: 0 }))) return;
      this.progress(job.uid, { id: job.id, status: 'running', progress: 0, page_count: pageCount, pages_done: 0 });
      const data = await findPdfFile(db, job.id);
      if (!data) throw new CheckFailure('document.file_lost');
      const checked = await checkPdfPages({
        app: this.app,
        id: job.id,
        uid: job.uid,
        owner,
        pageCount,
        data,
        job,
        progressIntervalMs: this.progressIntervalMs,
      });
      if (!checked || job.aborted) return;
      const { done, found, textPages, chars, categories } = checked;
      if (textPages === 0) throw new CheckFailure('pdf.no_text');
      const finished = await write({
        status: 'done',
        progress: 100,
        pages_done: done,
        issue_count: found,
        charge: null,
        owner: null,
      });
      if (!finished) return;
      await recordCheck(db, { uid: job.uid, kind: 'pdf', chars, issues: categories }).catch((err: unknown) =>
        this.app.log.error({ err, pdf: job.id }, 'pdf check not recorded'),
      );
      this.progress(job.uid, {
        id: job.id,
        status: 'done',
        progress: 100,
        page_count: pageCount,
        pages_done: done,
        issue_count: found,
      });
    } catch (error) {
      if (job.aborted) return;
      let reason: { code: ServerMessageCode; params?: MessageParams } = { code: 'pdf.failed' };
      if (error instanceof CheckFailure) reason = { code: error.code, params: error.params };
      else if (error instanceof AppError) reason = { code: error.msgCode, params: error.msgParams };
      else this.app.log.error({ err: error, pdf: job.id }, 'pdf check failed');
      await this.end(job.id, job.uid, reason, 'failed', owner);
    }
  }

  /** Ends a check (failed or cancelled), gives its upload back (once) and tells the owner; false if it had ended. */
  private async end(
    id: number,
    uid: number,
    reason: { code: ServerMessageCode; params?: MessageParams },
    status: 'failed' | 'cancelled',
    owner: string | null = this.app.instance.id,
  ): Promise<boolean> {
    const { db } = this.app;
    const row = await findPdfCheck(db, id);
    if (!row || (row.status !== 'queued' && row.status !== 'running')) return false;
    const params = reason.params ?? {};
    const hasParams = Object.keys(params).length > 0;
    const error = renderMessage(reason.code, params);
    const ended = await updateRunningPdfCheck(db, id, owner, {
      status,
      owner: null,
      error,
      error_code: reason.code,
      error_params: hasParams ? JSON.stringify(params) : null,
      updated_at: nowIso(),
    });
    if (!ended) return false;
    await refundStoredCharge(
      db,
      row.charge,
      (charge) => clearPdfCharge(db, id, charge),
      status === 'cancelled' ? 'PDF校对取消退回' : 'PDF校对失败退回',
    );
    this.progress(uid, {
      id,
      status,
      progress: Number(row.progress),
      page_count: Number(row.page_count),
      pages_done: Number(row.pages_done),
      issue_count: Number(row.issue_count),
      error,
      error_code: reason.code,
      ...(hasParams && { error_params: params }),
    });
    return true;
  }
}

const group = (id: number) => `pdf:${id}`;

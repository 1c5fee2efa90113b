/**
 * Image checks: an uploaded image (right 2 charged at upload) is decoded and read by OCR in the heavy pool, its text
 * checked in the checker pool with the owner's dictionaries, and the result (text, findings with their boxes in image
 * pixels, the ranges the OCR was unsure of) sent to the owner's sessions as socket type 2 cmd 5 and kept for
 * re-checks of the corrected text. Findings touching a character the OCR was unsure of are not reported: OCR noise
 * is the main source of false alarms on images. A failed or interrupted task gives the image count back.
 */
import { ocrParts, readStrips } from '../ocr/read';
import { checkLanguage } from '../../../engine/script';
import type { Note } from '../../../engine/messages';
import { recordCheck } from '../team-metrics';
import { countChars } from '../rights';
import type { FastifyInstance } from 'fastify';
import {
  isServerMessageCode,
  renderMessage,
  type MessageParams,
  type ServerMessageCode,
} from '../../../openapi/messages';
import type { ImageResultData } from '../../../openapi/socket-protocol';
import { nowIso } from '../../db';
import {
  clearImageCharge,
  findImageTask,
  findImageTasksOfGone,
  updateRunningImageTask,
  type ImageTaskRecord,
} from '../../db/repos/image-tasks';
import { AppError } from '../../errors';
import { checkService, splitUnits } from '../checker/jobs';
import { rectsOf, unsureRanges, withoutUnsure } from '../pdf/checks';
import { refundStoredCharge } from '../rights';

const ALL_STANDARD = 127;
const CONCURRENCY = 2;

export interface ImageIssue {
  start: number;
  end: number;
  original: string;
  suggestions: string[];
  category: string;
  type?: number;
  level: number;
  message: string;
  /** the message as a catalogue note (engine/messages.ts); absent on findings stored before notes existed */
  note?: Note;
  confidence?: number;
  /** [x, y, width, height] in image pixels, one per line the finding spans (none once the text was edited) */
  boxes: number[][];
}

class TaskFailure extends Error {
  constructor(
    readonly code: ServerMessageCode,
    readonly params: MessageParams = {},
  ) {
    super(renderMessage(code, params));
  }
}

interface Job {
  id: number;
  uid: number;
  data: Uint8Array;
  aborted: boolean;
  onAbort?: () => void;
}

/** A task as the socket message and the result call show it. */
export function imageResult(row: ImageTaskRecord): ImageResultData {
  const params = row.error_params ? (JSON.parse(row.error_params) as MessageParams) : null;
  return {
    task_id: Number(row.id),
    status: row.status,
    width: Number(row.width),
    height: Number(row.height),
    ...(row.text !== null && { text: row.text }),
    ...(row.issues !== null && { issues: JSON.parse(row.issues) as ImageIssue[] }),
    ...(row.unsure !== null && { unsure: JSON.parse(row.unsure) as Array<[number, number]> }),
    ...(row.error !== null && { error: row.error }),
    ...(row.error_code !== null && isServerMessageCode(row.error_code) && { error_code: row.error_code }),
    ...(params && { error_params: params }),
  };
}

/** Findings of a text (cache first); offsets into the whole text. */
export async function checkText(
  app: FastifyInstance,
  uid: number,
  text: string,
  group: string,
): Promise<Omit<ImageIssue, 'boxes'>[]> {
  const service = checkService(app);
  // text in traditional characters (a re-check the user corrected so) is checked as such
  const prepared = await service.prepare(uid, 3, ALL_STANDARD, checkLanguage(text));
  const lists = await Promise.all(
    splitUnits(text).map(async (unit) => {
      const issues = await service.checkUnit(prepared, unit, group);
      return issues.map((i) => ({ ...i, start: i.start + unit.offset, end: i.end + unit.offset }));
    }),
  );
  return lists.flat().sort((a, b) => a.start - b.start || a.end - b.end);
}

export class ImageChecks {
  private active = new Map<number, Job>();
  private waiting: Job[] = [];
  private closing = false;

  constructor(private readonly app: FastifyInstance) {}

  /** A stored task waits its turn with its image (kept in memory only until it is read). */
  enqueue(id: number, uid: number, data: Uint8Array): void {
    if (this.closing) return;
    this.waiting.push({ id, uid, data, aborted: false });
    this.fill();
  }

  private fill(): void {
    while (!this.closing && this.active.size < CONCURRENCY && this.waiting.length) {
      const job = this.waiting.shift()!;
      this.active.set(job.id, job);
      void this.run(job)
        .catch((error) => this.app.log.error({ err: error, image: job.id }, 'image check crashed'))
        .finally(() => {
          this.active.delete(job.id);
          this.fill();
        });
    }
  }

  /** Server stop: tasks running or waiting here end as interrupted, refunded. */
  async close(): Promise<void> {
    this.closing = true;
    const jobs = [...this.active.values(), ...this.waiting];
    this.waiting = [];
    for (const job of jobs) {
      job.aborted = true;
      job.onAbort?.();
    }
    for (const job of jobs) await this.end(job.id, job.uid, { code: 'image.interrupted' }).catch(() => {});
  }

  /** Tasks whose process is gone end as interrupted, refunded (the instance sweep). */
  async sweep(alive: string[]): Promise<void> {
    for (const row of await findImageTasksOfGone(this.app.db, alive)) {
      if (this.active.has(Number(row.id))) continue;
      await this.end(Number(row.id), Number(row.uid), { code: 'image.interrupted' }, row.owner);
    }
  }

  private send(uid: number, data: ImageResultData): void {
    this.app.realtime.sendToUser(uid, { type: 2, cmd: 5, status: 200, data });
  }

  private async run(job: Job): Promise<void> {
    const { db } = this.app;
    const owner = this.app.instance.id;
    const write = (values: Parameters<typeof updateRunningImageTask>[3]) =>
      updateRunningImageTask(db, job.id, owner, { ...values, updated_at: nowIso() });
    try {
      if (!(await write({ status: 'running' }))) return;
      this.send(job.uid, { task_id: job.id, status: 'running' });
      const { heavy } = this.app;
      const cut = await heavy.run(
        'imageOcrCut',
        { data: job.data, parts: ocrParts(heavy) },
        { background: true, signal: job },
      );
      job.data = new Uint8Array(0);
      if (job.aborted) return;
      const ocr = { ...(await readStrips(heavy, cut, job)), width: cut.width, height: cut.height };
      if (job.aborted) return;
      if (!ocr.text.trim()) throw new TaskFailure('image.no_text');
      const unsure = unsureRanges(ocr.text, ocr.confidences);
      const checked = await checkText(this.app, job.uid, ocr.text, `image:${job.id}`);
      if (job.aborted) return;
      const issues: ImageIssue[] = withoutUnsure(checked, unsure).map((i) => ({
        ...i,
        boxes: rectsOf(ocr, i.start, i.end),
      }));
      const done = await write({
        status: 'done',
        width: ocr.width,
        height: ocr.height,
        text: ocr.text,
        issues: JSON.stringify(issues),
        unsure: JSON.stringify(unsure),
        charge: null,
        owner: null,
      });
      if (!done) return;
      await recordCheck(db, { uid: job.uid, kind: 'image', chars: countChars(ocr.text), issues }).catch(
        (err: unknown) => this.app.log.error({ err, image: job.id }, 'image check not recorded'),
      );
      this.send(job.uid, imageResult((await findImageTask(db, job.id))!));
    } catch (error) {
      if (job.aborted) return;
      let reason: { code: ServerMessageCode; params?: MessageParams } = { code: 'image.failed' };
      if (error instanceof TaskFailure) reason = { code: error.code, params: error.params };
      else if (error instanceof AppError) reason = { code: error.msgCode, params: error.msgParams };
      else this.app.log.error({ err: error, image: job.id }, 'image check failed');
      await this.end(job.id, job.uid, reason, owner);
    }
  }

  /** Ends a task as failed, gives its image count back (once) and tells the owner. */
  private async end(
    id: number,
    uid: number,
    reason: { code: ServerMessageCode; params?: MessageParams },
    owner: string | null = this.app.instance.id,
  ): Promise<void> {
    const { db } = this.app;
    const row = await findImageTask(db, id);
    if (!row || (row.status !== 'queued' && row.status !== 'running')) return;
    const params = reason.params ?? {};
    const hasParams = Object.keys(params).length > 0;
    const ended = await updateRunningImageTask(db, id, owner, {
      status: 'failed',
      owner: null,
      error: renderMessage(reason.code, params),
      error_code: reason.code,
      error_params: hasParams ? JSON.stringify(params) : null,
      updated_at: nowIso(),
    });
    if (!ended) return;
    await refundStoredCharge(db, row.charge, (charge) => clearImageCharge(db, id, charge), '图片校对失败退回');
    this.send(uid, imageResult((await findImageTask(db, id))!));
  }
}

import type { FastifyInstance } from 'fastify';
import type { ImageResultData } from '../../../openapi/socket-protocol';
import { nowIso } from '../../db';
import { deleteImageFile, findImageFile, findImageTask, updateImageTask } from '../../db/repos/image-tasks';
import { checkText, imageResult, type ImageIssue } from '../../formats/media/images';
import { ocrParts, readStrips } from '../../formats/ocr/read';
import { rectsOf, unsureRanges, withoutUnsure } from '../../formats/pdf/checks';
import { countChars } from '../../domain/rights/ledger';
import { recordCheck } from '../../domain/teams/metrics';
import { checkerGroup, endedColumns, JobFailure, type JobHandler } from '../runner';
import { Socket } from '../../../openapi/socket-protocol';

/**
 * Image checks: the uploaded image (right 2 charged at upload) is decoded and read by OCR in the heavy pool, its text
 * checked in the checker pool with the owner's dictionaries, and the result (text, findings with their boxes in image
 * pixels, the ranges the OCR was unsure of) sent to the owner's sessions as socket type 2 cmd 5. Findings touching a
 * character the OCR was unsure of are not reported: OCR noise is the main source of false alarms on images.
 */

const send = (app: FastifyInstance, uid: number, data: ImageResultData) =>
  app.realtime.sendToUser(uid, { ...Socket.ImageResult, status: 200, data });

export const imageJobs: JobHandler = {
  kind: 'image',

  async run({ app, job, signal }) {
    const { db, heavy } = app;
    const id = Number(job.ref);
    const uid = Number(job.uid);
    if (!(await findImageTask(db, id)) || signal.aborted) return null;
    // a task uploaded before images were kept has nothing left to read
    const data = await findImageFile(db, id);
    if (!data) throw new JobFailure('image.interrupted');
    await updateImageTask(db, id, { status: 'running', updated_at: nowIso() });
    send(app, uid, { task_id: id, status: 'running' });
    const cut = await heavy.run('imageOcrCut', { data, parts: ocrParts(heavy) }, { background: true, signal });
    if (signal.aborted) return null;
    const ocr = { ...(await readStrips(heavy, cut, signal)), width: cut.width, height: cut.height };
    if (signal.aborted) return null;
    if (!ocr.text.trim()) throw new JobFailure('image.no_text');
    const unsure = unsureRanges(ocr.text, ocr.confidences);
    const checked = await checkText(app, uid, ocr.text, checkerGroup(job));
    if (signal.aborted) return null;
    const issues: ImageIssue[] = withoutUnsure(checked, unsure).map((i) => ({
      ...i,
      boxes: rectsOf(ocr, i.start, i.end),
    }));
    return {
      async store(trx) {
        await updateImageTask(trx, id, {
          status: 'done',
          width: ocr.width,
          height: ocr.height,
          text: ocr.text,
          issues: JSON.stringify(issues),
          unsure: JSON.stringify(unsure),
          updated_at: nowIso(),
        });
        await deleteImageFile(trx, id);
      },
      async announce() {
        await recordCheck(db, { uid, kind: 'image', chars: countChars(ocr.text), issues }).catch((err: unknown) =>
          app.log.error({ err, image: id }, 'image check not recorded'),
        );
        const row = await findImageTask(db, id);
        if (row) send(app, uid, imageResult(row));
      },
    };
  },

  async endRow(db, job, status, reason) {
    await updateImageTask(db, Number(job.ref), { status, ...endedColumns(reason), updated_at: nowIso() });
    await deleteImageFile(db, Number(job.ref));
  },

  async tellEnded(app, job) {
    const row = await findImageTask(app.db, Number(job.ref));
    if (row) send(app, Number(job.uid), imageResult(row));
  },
};

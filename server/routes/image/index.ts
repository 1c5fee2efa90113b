import { nowIso } from '../../db';
import { insertJob } from '../../jobs/store';
import { findOwnedImageTask, insertImageTask, updateImageText } from '../../db/repos/image-tasks';
import { conflict, envelope, notFound, paymentRequired } from '../../errors';
import { sanitizeFilename } from '../../services/filenames';
import { checkText, imageResult } from '../../services/media/images';
import { checkedImageSize } from '../../services/media/image-read';
import { consumeRight, InsufficientRight, Right } from '../../services/rights';
import { caller, type Operations } from '../types';
import { filePart } from '../document/index';

/**
 * Image proofreading (the image screen): upload (right 2), the result on the socket (type 2 cmd 5) and here, and a
 * re-check of the corrected text. The work is the image jobs' (server/jobs/kinds/image.ts).
 */

export const imageOperations: Operations = {
  postMisscutV1ImageCheck: async (request) => {
    const { uid } = await caller(request);
    const { db } = request.server;
    const file = filePart(request.body.file);
    // the type and size from the first bytes, before anything is charged (the pixels are read in the heavy pool)
    checkedImageSize(file.data);
    let charge;
    try {
      charge = await consumeRight(db, uid, Right.imageChecks, 1, '图片校对');
    } catch (error) {
      if (error instanceof InsufficientRight) throw paymentRequired('image.exhausted');
      throw error;
    }
    const now = nowIso();
    const id = await insertImageTask(
      db,
      {
        uid,
        name: sanitizeFilename(file.filename, '图片'),
        size: file.data.length,
        status: 'queued',
        width: 0,
        height: 0,
        created_at: now,
        updated_at: now,
      },
      file.data,
      (trx, ref) => insertJob(trx, { kind: 'image', ref, uid, charge: JSON.stringify(charge) }),
    );
    request.server.jobs.enqueue();
    return envelope({ task_id: id });
  },

  getMisscutV1ImageResult: async (request) => {
    const { uid } = await caller(request);
    const row = await findOwnedImageTask(request.server.db, request.query.task_id, uid);
    if (!row) throw notFound('image.unknown');
    return envelope(imageResult(row));
  },

  postMisscutV1ImageRecheck: async (request) => {
    const { uid } = await caller(request);
    const { db, limiters } = request.server;
    await limiters.checkText(request, uid);
    const row = await findOwnedImageTask(db, request.body.task_id, uid);
    if (!row) throw notFound('image.unknown');
    if (row.status !== 'done') throw conflict('image.not_done');
    const text = request.body.text;
    const issues = (await checkText(request.server, uid, text, `image:${row.id}:recheck`)).map((i) => ({
      ...i,
      boxes: [],
    }));
    await updateImageText(db, Number(row.id), { text, issues: JSON.stringify(issues), unsure: '[]' });
    return envelope(imageResult((await findOwnedImageTask(db, Number(row.id), uid))!));
  },
};

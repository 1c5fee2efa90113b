import { conflict, envelope, paymentRequired } from '../../errors';
import { ownedImageTask, queueImageTask, saveImageText } from '../../domain/checks/media-tasks';
import { sanitizeFilename } from '../../formats/filenames';
import { checkText, imageResult } from '../../formats/media/images';
import { checkedImageSize } from '../../formats/media/image-read';
import { consumeRight, InsufficientRight, Right } from '../../domain/rights/ledger';
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
    const id = await queueImageTask(
      db,
      uid,
      { name: sanitizeFilename(file.filename, '图片'), data: file.data },
      charge,
    );
    request.server.jobs.enqueue();
    return envelope({ task_id: id });
  },

  getMisscutV1ImageResult: async (request) => {
    const { uid } = await caller(request);
    return envelope(imageResult(await ownedImageTask(request.server.db, request.query.task_id, uid)));
  },

  postMisscutV1ImageRecheck: async (request) => {
    const { uid } = await caller(request);
    const { db, limiters } = request.server;
    await limiters.checkText(request, uid);
    const row = await ownedImageTask(db, request.body.task_id, uid);
    if (row.status !== 'done') throw conflict('image.not_done');
    const text = request.body.text;
    const issues = (await checkText(request.server, uid, text, `image:${row.id}:recheck`)).map((i) => ({
      ...i,
      boxes: [],
    }));
    return envelope(imageResult(await saveImageText(db, row, text, issues)));
  },
};

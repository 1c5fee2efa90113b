import { envelope } from '../../errors';
import { deleteDownload, listDownloads, openDownload } from '../../domain/accounts/downloads';
import { attachment, caller, type Operations } from '../types';

/** The download center: the caller's own files only (another user's id answers 404, like an unknown one). */
export const downloadOperations: Operations = {
  getUserDownloadPage: async (request) => {
    const { uid } = await caller(request);
    const q = request.query;
    return envelope(await listDownloads(request.server.db, uid, { num: q.num ?? 1, size: q.size ?? 20 }));
  },

  getUserDownloadFile: async (request, reply) => {
    const { uid } = await caller(request);
    const { id } = request.query;
    const file = await openDownload(request.server.db, request.server.config.dataDir, uid, id);
    return reply
      .type(file.mime)
      .header('content-length', file.size)
      .header('content-disposition', attachment(file.name))
      .header('cache-control', 'private, no-store')
      .send(file.stream);
  },

  postUserDownloadDelete: async (request) => {
    const { uid } = await caller(request);
    const { id } = request.body;
    await deleteDownload(request.server.db, request.server.config.dataDir, uid, id);
    return envelope(null, '删除成功');
  },
};

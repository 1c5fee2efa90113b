import { badRequest, envelope, notFound } from '../../errors';
import {
  addWord,
  clearDictionary,
  editWord,
  removeWord,
  removeWords,
  wordPage,
} from '../../domain/dictionaries/dictionary';
import {
  EXPORT_MIME,
  exportRows,
  failuresCsv,
  importWords,
  lastFailures,
  parseType,
  template,
  toCsv,
} from '../../domain/dictionaries/import';
import { recordDownload } from '../../domain/accounts/downloads';
import { sanitizeFilename } from '../../formats/filenames';
import {
  libraryTexts,
  selectedLibraryIds,
  selectLibraries,
  wordLibraries,
} from '../../domain/dictionaries/word-libraries';
import { requestLang } from '../../domain/locale';
import { attachment, caller, type Operations } from '../types';
import { isUploadedFile } from '../../formats/documents/upload';

const stamp = () => new Date().toISOString().slice(0, 10).replace(/-/g, '');

/** Personal dictionary basics (spec /dict/v1/*); every change applies to the very next check. */
export const dictOperations: Operations = {
  getDictV1GetList: async (request) => {
    const { uid } = await caller(request);
    const q = request.query as { num?: number; size?: number; keyword?: string; type?: number };
    const num = q.num ?? 1;
    const size = q.size ?? 20;
    const { total, list } = await wordPage(request.server.db, uid, { type: q.type, keyword: q.keyword }, { num, size });
    return envelope({ total, num, size, list });
  },

  postDictV1AddOne: async (request) => {
    const { uid } = await caller(request);
    return envelope(await addWord(request.server.db, uid, request.body), '添加成功');
  },

  putDictV1UpdateOne: async (request) => {
    const { uid } = await caller(request);
    const body = request.body;
    return envelope(await editWord(request.server.db, uid, body.id, body), '修改成功');
  },

  deleteDictV1DeleteOne: async (request) => {
    const { uid } = await caller(request);
    const { id } = request.query as { id: number };
    await removeWord(request.server.db, uid, id);
    return envelope(null, '删除成功');
  },

  postDictV1DeleteMany: async (request) => {
    const { uid } = await caller(request);
    const { ids } = request.body;
    return envelope({ count: await removeWords(request.server.db, uid, ids) }, '删除成功');
  },

  postDictV1DeleteAllWord: async (request) => {
    const { uid } = await caller(request);
    const type = (request.body as { type?: number } | undefined)?.type;
    return envelope({ count: await clearDictionary(request.server.db, uid, type) }, '已清空');
  },

  postDictV1UploadWords: async (request) => {
    const { uid } = await caller(request);
    const body = request.body;
    const part = body.file;
    if (!isUploadedFile(part)) {
      throw badRequest('upload.no_file');
    }
    // The name is kept with the failures and names their download: no controls or bidi overrides in it.
    const file = { ...part, filename: sanitizeFilename(part.filename, '词库') };
    const defaultType = body.type !== undefined ? parseType(body.type) : undefined;
    if (body.type && defaultType === undefined) throw badRequest('dict.bad_type');
    const input = { filename: file.filename, data: file.data };
    const rows = await request.server.heavy.run('importFile', input, { owner: uid });
    const result = await importWords(request.server.db, uid, file.filename, rows, defaultType);
    const msg = result.failed ? `导入 ${result.added} 条，失败 ${result.failed} 条` : `导入 ${result.added} 条`;
    return envelope(
      {
        total: result.total,
        added: result.added,
        failed: result.failed,
        failures: result.failures.slice(0, 20).map((f) => ({ line: f.line, word: f.word, reason: f.reason })),
      },
      msg,
    );
  },

  getDictDownWordsFailedToUpload: async (request, reply) => {
    const { uid } = await caller(request);
    const last = await lastFailures(request.server.db, uid);
    if (!last) throw notFound('dict.no_failed_rows');
    const base = last.filename.replace(/\.[^.]*$/, '') || '词库';
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', attachment(`${base}-导入失败.csv`))
      .send(failuresCsv(last.rows));
  },

  getDictV1ExportWords: async (request, reply) => {
    const { uid } = await caller(request);
    const format = ((request.query as { format?: 'xlsx' | 'csv' }).format ?? 'xlsx') as 'xlsx' | 'csv';
    const rows = await exportRows(request.server.db, uid);
    const sheets = [{ name: '个人词库', rows, widths: [20, 8, 20] }];
    const data =
      format === 'csv' ? toCsv(rows) : Buffer.from(await request.server.heavy.run('xlsx', { sheets }, { owner: uid }));
    const name = `个人词库-${stamp()}.${format}`;
    // Kept in the download center too (re-download for 7 days).
    const saved = await recordDownload(request.server.db, request.server.config.dataDir, uid, {
      name,
      mime: EXPORT_MIME[format],
      data,
    });
    return reply
      .type(EXPORT_MIME[format])
      .header('content-disposition', attachment(name))
      .header('x-download-id', String(saved.id))
      .send(data);
  },

  getDictV1ImportTemplate: async (request, reply) => {
    await caller(request);
    const format = ((request.query as { format?: 'xlsx' | 'csv' }).format ?? 'xlsx') as 'xlsx' | 'csv';
    return reply
      .type(EXPORT_MIME[format])
      .header('content-disposition', attachment(`词库导入模板.${format}`))
      .send(await template(format));
  },

  getUserGetWordLibrary: async (request) => {
    const { uid } = await caller(request);
    const selected = new Set(
      await selectedLibraryIds(request.server.db, uid, request.server.config.paths.wordLibraries),
    );
    const lang = requestLang(request);
    return envelope(
      wordLibraries(request.server.config.paths.wordLibraries).map((l) => ({
        id: l.id,
        // the reader's language; the *_en / *_hk fields stay for clients that choose themselves
        ...libraryTexts(l, lang),
        name_en: l.name_en,
        name_hk: l.name_hk,
        description_en: l.description_en,
        description_hk: l.description_hk,
        source: l.source,
        word_count: l.entries.length,
        wrong_count: l.entries.filter((e) => e.type === 5).length,
        allowed_count: l.entries.filter((e) => e.type === 1).length,
        selected: selected.has(l.id),
      })),
    );
  },

  postUserSelectWordLibrary: async (request) => {
    const { uid } = await caller(request);
    const { library_ids } = request.body;
    await selectLibraries(request.server.db, uid, library_ids, request.server.config.paths.wordLibraries);
    return envelope(null, '词库设置已保存');
  },
};

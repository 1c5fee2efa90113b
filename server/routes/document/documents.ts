import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ALL_STANDARD } from '../../../engine/categories';
import { nowIso } from '../../db';
import { insertJob } from '../../jobs/store';
import {
  deleteDocuments,
  findDocument,
  findDocumentByShareId,
  findDocumentFile,
  findDocumentPage,
  findOwnedDocument,
  insertDocument,
  insertDocumentFile,
  setShareIdIfNone,
  updateDocument,
  type DocumentRecord,
  type DocumentSummaryRecord,
} from '../../db/repos/documents';
import { findOpenUser, findUserName } from '../../db/repos/users';
import { isServerMessageCode, readParams } from '../../../openapi/messages';
import { badRequest, conflict, envelope, notFound, gone, paymentRequired, textTooLong } from '../../errors';
import { checkService } from '../../workers/checker/jobs';
import { fixesOf, ignoredOf, issuesOf, normalizeText, openIssues } from '../../formats/documents/content';
import { wordCount } from '../../formats/documents/load';
import { checkUpload } from '../../formats/documents/read';
import { recordDownload } from '../../domain/accounts/downloads';
import { sanitizeFilename } from '../../formats/filenames';
import {
  consumeRight,
  countChars,
  InsufficientRight,
  refundRight,
  rightBalance,
  type Consumption,
  Right,
} from '../../domain/rights/ledger';
import { attachment, caller, type OperationRequest, type Operations } from '../types';
import { checkHtmlSize, DOCX_MIME, filePart } from './index';

/**
 * Documents (server side): upload -> persisted job (formats/documents/jobs.ts) -> findings;
 * list, delete, cancel, editor content and saving, export (clean / tracked changes), sharing.
 * Only the owner reaches a document by id (other users' ids answer 404 like unknown ones).
 */

type Row = DocumentRecord;

function summary(row: DocumentSummaryRecord) {
  return {
    id: Number(row.id),
    name: row.name,
    file_type: row.file_type,
    size: Number(row.size),
    status: row.status,
    progress: Number(row.progress),
    ...(row.error ? { error: row.error } : {}),
    ...(row.error_code && isServerMessageCode(row.error_code) ? { error_code: row.error_code } : {}),
    ...(row.error_params ? { error_params: readParams(row.error_params) } : {}),
    word_count: Number(row.word_count),
    issue_count: Number(row.issue_count),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function detail(row: Row, readOnly = false) {
  const ignored = ignoredOf(row);
  return {
    ...summary(row),
    html: row.html ?? '',
    text: row.text ?? '',
    issues: openIssues(issuesOf(row), ignored),
    fixes: fixesOf(row),
    ignored,
    edited: Number(row.edited) === 1,
    share_id: row.share_id,
    read_only: readOnly,
  };
}

const NOT_FOUND_MSG = 'document.unknown';

/** The caller's document, or 404 (also for another user's id). */
async function owned(request: FastifyRequest, id: number): Promise<Row> {
  const { uid } = await caller(request);
  // The owner is part of the query: another user's document is never read, so its size cannot be timed either.
  const row = await findOwnedDocument(request.server.db, id, uid);
  if (!row) throw notFound(NOT_FOUND_MSG);
  return row;
}

async function byShareId(request: FastifyRequest, shareId: string): Promise<Row> {
  const row = await findDocumentByShareId(request.server.db, shareId);
  if (!row) throw notFound('document.unknown_share');
  // Closing an account revokes its shares; the link says so rather than pretending it never existed.
  if (!(await findOpenUser(request.server.db, Number(row.uid)))) {
    throw gone('document.share_gone');
  }
  return row;
}

/** The name a document is stored under (uploads and renames alike): see sanitizeFilename. */
const cleanName = (name: string): string => sanitizeFilename(name, '文档');

async function upload(request: OperationRequest<'postMisscutDocumentV1Upload'>) {
  const { uid } = await caller(request);
  const body = request.body;
  const file = filePart(body.file);
  const kind = checkUpload(file);
  const mode = body.checkMode === '4' ? 4 : 3;
  const checkOptions = body.checkOptions !== undefined ? Number(body.checkOptions) : ALL_STANDARD;
  if (!Number.isSafeInteger(checkOptions) || checkOptions > 2147483647) throw badRequest('document.bad_options');
  const lang = body.lang === 'hk' ? 'hk' : 'cn';
  // mode 4 needs right 8192 (403); the job checks with the same preparation
  await checkService(request.server).prepare(uid, mode, checkOptions, lang);
  const db = request.server.db;
  let consumption: Consumption;
  try {
    // a presentation is counted by PPT校对次数 (pptCount) instead of the document uploads
    consumption =
      kind === 'pptx'
        ? await consumeRight(db, uid, Right.pptChecks, 1, 'PPT校对')
        : await consumeRight(db, uid, Right.documentUploads, 1, '文档上传');
  } catch (error) {
    if (error instanceof InsufficientRight)
      throw paymentRequired(kind === 'pptx' ? 'document.ppt_exhausted' : 'document.uploads_exhausted');
    throw error;
  }
  const now = nowIso();
  let id: number;
  try {
    id = await db.transaction().execute(async (trx) => {
      const documentId = await insertDocument(trx, {
        uid,
        name: cleanName(file.filename),
        file_type: kind,
        size: file.data.length,
        status: 'queued',
        progress: 0,
        error: null,
        word_count: 0,
        issue_count: 0,
        check_mode: mode,
        check_options: checkOptions,
        lang,
        html: null,
        text: null,
        issues: null,
        fixes: null,
        ignored: null,
        edited: 0,
        share_id: null,
        created_at: now,
        updated_at: now,
      });
      await insertDocumentFile(trx, documentId, file.data);
      await insertJob(trx, { kind: 'document', ref: documentId, uid, charge: JSON.stringify(consumption) });
      return documentId;
    });
  } catch (error) {
    await refundRight(db, consumption, consumption.amount, '文档上传失败退回');
    throw error;
  }
  request.server.jobs.enqueue();
  return envelope(summary((await findDocument(db, id))!));
}

async function page(request: OperationRequest<'getMisscutDocumentV1Page'>) {
  const { uid } = await caller(request);
  const q = request.query;
  const num = q.num ?? 1;
  const size = q.size ?? 20;
  const keyword = q.keyword?.trim();
  const like = keyword ? `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const { total, rows } = await findDocumentPage(request.server.db, uid, { like }, { num, size });
  return envelope({ total, num, size, list: rows.map(summary) });
}

async function remove(request: OperationRequest<'postMisscutDocumentV1Delete'>) {
  const { ids } = request.body;
  const rows: Row[] = [];
  for (const id of ids) rows.push(await owned(request, id));
  for (const row of rows) await request.server.jobs.remove('document', Number(row.id), '删除未完成的文档退回');
  const count = await deleteDocuments(request.server.db, ids);
  return envelope({ count }, '已删除');
}

async function cancel(request: OperationRequest<'postMisscutDocumentV1Cancel'>) {
  const { id } = request.body;
  const row = await owned(request, id);
  if (row.status === 'queued' || row.status === 'running') {
    await request.server.jobs.cancel('document', id, { code: 'document.cancelled' });
  }
  return envelope(
    summary((await findDocument(request.server.db, id))!),
    row.status === 'queued' || row.status === 'running' ? '已取消' : 'success',
  );
}

async function save(request: OperationRequest<'postMisscutDocumentV1EditUploadSave'>) {
  const body = request.body;
  const row = await owned(request, body.id);
  if (body.text === undefined && body.html === undefined) throw badRequest('document.content_empty');
  if (row.html === null || row.text === null) throw conflict('document.not_read_edit');
  let fixes = body.fixes ?? [];
  let ignored = body.ignored ?? [];
  checkHtmlSize(request, body.html);
  checkHtmlSize(request, body.text);
  if (body.text !== undefined) {
    const normal = normalizeText(body.text);
    const move = <T extends { start: number; end: number }>(m: T): T => ({
      ...m,
      start: normal.map(m.start),
      end: normal.map(m.end),
    });
    fixes = fixes.map(move);
    ignored = ignored.map(move);
  }
  // Sanitising and re-reading the blocks parses the whole document: the heavy pool's work.
  const content = await request.server.heavy.run(
    'saveContent',
    { text: body.text, html: body.html, previousHtml: row.html, fixes },
    { owner: Number(row.uid) },
  );
  if (!content.text.trim()) throw badRequest('document.content_empty');
  fixes = content.fixes;
  const uid = Number(row.uid);
  const chars = countChars(content.text);
  const max = await rightBalance(request.server.db, uid, Right.documentMax);
  if (chars > max) throw textTooLong(max, chars);

  const changed = content.text !== row.text || row.status !== 'done';
  const { jobs } = request.server;
  if (changed) await jobs.abort('document', body.id);
  const ignoredJson = ignored.length ? JSON.stringify(ignored) : null;
  await updateDocument(request.server.db, body.id, {
    html: content.html,
    text: content.text,
    fixes: fixes.length ? JSON.stringify(fixes) : null,
    ignored: ignoredJson,
    edited: 1,
    ...(body.name ? { name: cleanName(body.name) } : {}),
    ...(changed
      ? {
          status: 'queued' as const,
          progress: 0,
          error: null,
          issues: null,
          issue_count: 0,
          word_count: wordCount(content.text),
        }
      : { issue_count: openIssues(issuesOf(row), ignored).length }),
    updated_at: nowIso(),
  });
  if (changed) await jobs.requeue('document', body.id, uid);
  return envelope(detail((await findDocument(request.server.db, body.id))!), '已保存');
}

/** How long an export waits for a running check (e.g. the re-check right after a save) before answering 409. */
const EXPORT_WAIT_MS = 60_000;

async function exportDocx(request: OperationRequest<'postMisscutDocumentV1Export'>, reply: FastifyReply) {
  const { id, mode } = request.body;
  let row = await owned(request, id);
  if (mode === 'tracked' && (row.status === 'queued' || row.status === 'running')) {
    await request.server.jobs.idle('document', id, EXPORT_WAIT_MS);
    row = await owned(request, id);
  }
  if (row.html === null || row.text === null) throw conflict('document.not_read_export');
  // the comments are the findings: without a finished check they would be missing
  if (mode === 'tracked' && row.status !== 'done') throw conflict('document.checking_export');
  const title = row.name.replace(/\.[A-Za-z0-9]+$/, '');
  let buffer: Buffer;
  if (mode === 'tracked') {
    const userName = await findUserName(request.server.db, Number(row.uid));
    // the stored JSON goes to the worker as it is: parsing it and the HTML is part of the heavy work
    const out = await request.server.heavy.run(
      'tracked',
      {
        html: row.html,
        fixes: row.fixes,
        issues: row.issues,
        ignored: row.ignored,
        options: { title, author: userName || '校对', date: new Date() },
      },
      { owner: Number(row.uid) },
    );
    buffer = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  } else {
    const out = await request.server.heavy.run('clean', { html: row.html, title }, { owner: Number(row.uid) });
    buffer = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  }
  const fileName = `${title.replace(/[\\/:*?"<>|\r\n]+/g, '_')}${mode === 'tracked' ? '（修订）' : ''}.docx`;
  // kept in the download center too (7 days), so the export can be fetched again from there
  await recordDownload(request.server.db, request.server.config.dataDir, Number(row.uid), {
    name: fileName,
    mime: DOCX_MIME,
    data: buffer,
  });
  return reply.type(DOCX_MIME).header('content-disposition', attachment(fileName)).send(buffer);
}

async function shareId(request: OperationRequest<'getMisscutDocumentV1GetShareId'>) {
  const { id } = request.query;
  const row = await owned(request, id);
  if (row.share_id) return envelope({ share_id: row.share_id });
  const share = randomBytes(24).toString('base64url');
  await setShareIdIfNone(request.server.db, id, share);
  const after = (await findDocument(request.server.db, id))!;
  return envelope({ share_id: after.share_id ?? share });
}

async function shareDoc(request: OperationRequest<'getMisscutDocumentV1GetShareDoc'>) {
  const { share_id } = request.query;
  return envelope(detail(await byShareId(request, share_id), true));
}

async function shareSave(request: OperationRequest<'getMisscutDocumentV1ShareSave'>) {
  const { uid } = await caller(request);
  const { share_id } = request.query;
  const source = await byShareId(request, share_id);
  if (source.status !== 'done') throw conflict('document.share_not_done');
  const db = request.server.db;
  const now = nowIso();
  const id = await db.transaction().execute(async (trx) => {
    const { id: _id, share_id: _share, uid: _uid, created_at: _c, updated_at: _u, ...copy } = source;
    const copyId = await insertDocument(trx, {
      ...copy,
      uid,
      share_id: null,
      created_at: now,
      updated_at: now,
    });
    const file = await findDocumentFile(trx, Number(source.id));
    if (file) await insertDocumentFile(trx, copyId, file);
    return copyId;
  });
  return envelope(summary((await findDocument(request.server.db, id))!), '已保存到我的文档');
}

export const documentJobOperations: Operations = {
  postMisscutDocumentV1Upload: upload,
  getMisscutDocumentV1Page: page,
  getMisscutDocumentV1EditUploadGet: async (request) => {
    const { id } = request.query;
    return envelope(detail(await owned(request, id)));
  },
  postMisscutDocumentV1Delete: remove,
  postMisscutDocumentV1Cancel: cancel,
  postMisscutDocumentV1EditUploadSave: save,
  postMisscutDocumentV1Export: exportDocx,
  getMisscutDocumentV1GetShareId: shareId,
  getMisscutDocumentV1GetShareDoc: shareDoc,
  getMisscutDocumentV1ShareSave: shareSave,
};

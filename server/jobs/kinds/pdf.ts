import type { FastifyInstance } from 'fastify';
import type { PdfProgressData } from '../../../openapi/socket-protocol';
import { nowIso } from '../../db';
import { deletePdfPages, findPdfCheck, findPdfFile, updatePdfCheck } from '../../db/repos/pdf-checks';
import { checkPdfPages } from '../../formats/pdf/check-pages';
import { recordCheck } from '../../domain/teams/metrics';
import { endedColumns, endedFields, JobFailure, type JobHandler } from '../runner';
import { Socket } from '../../../openapi/socket-protocol';

/**
 * PDF checks: an uploaded PDF (right 4 charged at upload) is read and checked page by page (formats/pdf/
 * check-pages.ts), its pages stored with their findings as they complete; progress goes to every session of the
 * owner (socket type 2 cmd 7). A check taken up again after its process died starts over from the first page.
 */

const progress = (app: FastifyInstance, uid: number, data: PdfProgressData) =>
  app.realtime.sendToUser(uid, { ...Socket.PdfProgress, status: 200, data });

export const pdfJobs: JobHandler = {
  kind: 'pdf',

  async run({ app, job, signal, progressIntervalMs }) {
    const { db } = app;
    const id = Number(job.ref);
    const uid = Number(job.uid);
    const row = await findPdfCheck(db, id);
    if (!row || signal.aborted) return null;
    const pageCount = Number(row.page_count);
    // pages a dead process stored are checked again with the rest
    await deletePdfPages(db, id);
    await updatePdfCheck(db, id, {
      status: 'running',
      progress: 0,
      pages_done: 0,
      issue_count: 0,
      updated_at: nowIso(),
    });
    progress(app, uid, { id, status: 'running', progress: 0, page_count: pageCount, pages_done: 0 });
    const data = await findPdfFile(db, id);
    if (!data) throw new JobFailure('document.file_lost');
    const checked = await checkPdfPages({
      app,
      id,
      uid,
      owner: app.instance.id,
      pageCount,
      data,
      job: signal,
      progressIntervalMs,
    });
    if (!checked || signal.aborted) return null;
    const { done, found, textPages, chars, categories } = checked;
    if (textPages === 0) throw new JobFailure('pdf.no_text');
    return {
      async store(trx) {
        await updatePdfCheck(trx, id, {
          status: 'done',
          progress: 100,
          pages_done: done,
          issue_count: found,
          updated_at: nowIso(),
        });
      },
      async announce() {
        await recordCheck(db, { uid, kind: 'pdf', chars, issues: categories }).catch((err: unknown) =>
          app.log.error({ err, pdf: id }, 'pdf check not recorded'),
        );
        progress(app, uid, {
          id,
          status: 'done',
          progress: 100,
          page_count: pageCount,
          pages_done: done,
          issue_count: found,
        });
      },
    };
  },

  async endRow(db, job, status, reason) {
    await updatePdfCheck(db, Number(job.ref), { status, ...endedColumns(reason), updated_at: nowIso() });
  },

  async tellEnded(app, job, status, reason) {
    const id = Number(job.ref);
    const row = await findPdfCheck(app.db, id);
    if (!row) return;
    progress(app, Number(job.uid), {
      id,
      status,
      progress: Number(row.progress),
      page_count: Number(row.page_count),
      pages_done: Number(row.pages_done),
      issue_count: Number(row.issue_count),
      ...endedFields(reason),
    });
  },
};

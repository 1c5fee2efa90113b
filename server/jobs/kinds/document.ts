import type { FastifyInstance } from 'fastify';
import type { DocumentFlagData } from '../../../openapi/socket-protocol';
import { nowIso, type Db } from '../../db';
import { findDocument, findDocumentFile, updateDocument, type DocumentRecord } from '../../db/repos/documents';
import type { DocumentsTable } from '../../db/schema';
import { checkService, splitUnits } from '../../workers/checker/jobs';
import { ignoredOf, openIssues, type StoredIssue } from '../../formats/documents/content';
import { wordCount } from '../../formats/documents/load';
import type { UploadKind } from '../../formats/documents/read';
import { countChars, rightBalance, Right } from '../../domain/rights/ledger';
import { recordCheck } from '../../domain/teams/metrics';
import { endedColumns, endedFields, JobFailure, type JobContext, type JobHandler } from '../runner';
import { checkJobUnit, checkJobUnits } from '../units';
import { Socket } from '../../../openapi/socket-protocol';

/**
 * Document jobs: the uploaded file is read in the heavy pool, its paragraphs checked in the shared checker pool with
 * the owner's dictionaries, the findings stored in the `documents` row; progress goes to every session of the owner
 * (socket type 2 cmd 1).
 */

/** Progress given to reading the file; checking the paragraphs takes the rest. */
const READ_SHARE = 5;

const flag = (app: FastifyInstance, uid: number, data: DocumentFlagData) =>
  app.realtime.sendToUser(uid, { ...Socket.DocumentFlag, status: 200, data });

const update = (db: Db, id: number, values: Partial<Omit<DocumentsTable, 'id'>>) =>
  updateDocument(db, id, { ...values, updated_at: nowIso() });

export const documentJobs: JobHandler = {
  kind: 'document',

  async run(ctx) {
    const { app, job, signal } = ctx;
    const { db } = app;
    const id = Number(job.ref);
    const row = await findDocument(db, id);
    if (!row || signal.aborted) return null;
    const uid = Number(row.uid);
    await update(db, id, { status: 'running', progress: 0, error: null, error_code: null, error_params: null });
    flag(app, uid, { id, status: 'running', progress: 0, issue_count: 0 });
    let text = row.text;
    if (row.html === null || text === null) {
      const file = await findDocumentFile(db, id);
      if (!file) throw new JobFailure('document.file_lost');
      const content = await app.heavy.run(
        'read',
        { filename: row.name, data: file, kind: row.file_type as UploadKind },
        { background: true, signal },
      );
      if (signal.aborted) return null;
      if (!content.text.trim()) throw new JobFailure('document.no_text');
      const chars = countChars(content.text);
      const max = await rightBalance(db, uid, Right.documentMax);
      if (chars > max) throw new JobFailure('document.too_many_chars', { chars, max });
      text = content.text;
      await update(db, id, { html: content.html, text, word_count: wordCount(text) });
    }
    const issues = await check(ctx, row, text);
    if (!issues || signal.aborted) return null;
    const open = openIssues(issues, ignoredOf(row));
    const checked = text;
    return {
      async store(trx) {
        await update(trx, id, {
          status: 'done',
          progress: 100,
          issues: JSON.stringify(issues),
          issue_count: open.length,
        });
      },
      async announce() {
        await recordCheck(db, { uid, kind: 'document', chars: countChars(checked), issues: open }).catch(
          (err: unknown) => app.log.error({ err, document: id }, 'document check not recorded for metrics'),
        );
        const units = splitUnits(checked).length;
        flag(app, uid, {
          id,
          status: 'done',
          progress: 100,
          issue_count: open.length,
          paragraphs_done: units,
          paragraphs: units,
        });
      },
    };
  },

  async endRow(db, job, status, reason) {
    await update(db, Number(job.ref), { status, ...endedColumns(reason), progress: 0 });
  },

  async tellEnded(app, job, status, reason) {
    flag(app, Number(job.uid), { id: Number(job.ref), status, progress: 0, issue_count: 0, ...endedFields(reason) });
  },
};

/** Checks every unit of the text (cache first), reporting progress; null when aborted. */
async function check(ctx: JobContext, row: DocumentRecord, text: string): Promise<StoredIssue[] | null> {
  const { app, signal } = ctx;
  const id = Number(row.id);
  const uid = Number(row.uid);
  const service = checkService(app);
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
  flag(app, uid, {
    id,
    status: 'running',
    progress: READ_SHARE,
    issue_count: 0,
    paragraphs_done: 0,
    paragraphs: total,
  });
  await update(app.db, id, { progress: READ_SHARE });
  let lastSent = Date.now();
  let lastProgress = READ_SHARE;
  // progress writes are chained so none lands after the final state
  let progressWrite: Promise<unknown> = Promise.resolve();
  const results = await checkJobUnits(
    ctx,
    units,
    async (unit) => {
      const paragraph = unit.index + 1;
      const issues = await checkJobUnit(
        ctx,
        prepared,
        unit,
        () => new JobFailure('document.paragraph_failed', { paragraph }),
      );
      done++;
      found += issues.length;
      const progress = Math.min(99, READ_SHARE + Math.floor((done / total) * (100 - READ_SHARE)));
      const now = Date.now();
      if (!signal.aborted && progress > lastProgress && now - lastSent >= ctx.progressIntervalMs) {
        lastSent = now;
        lastProgress = progress;
        flag(app, uid, {
          id,
          status: 'running',
          progress,
          issue_count: found,
          paragraphs_done: done,
          paragraphs: total,
        });
        progressWrite = progressWrite
          .then(async () => (await ctx.progress(progress)) && update(app.db, id, { progress }))
          .catch(() => {});
      }
      return issues;
    },
    () => progressWrite,
  );
  await progressWrite;
  if (signal.aborted) return null;
  return results.flat().sort((a, b) => a.start - b.start || a.end - b.end);
}

/**
 * The stored PDF checks (spec §7 /misscut/v2/pdf_check/*): a new check is queued with its job and the charge it took
 * in one transaction, and a caller reads and deletes only their own checks. The work is the PDF job's
 * (server/jobs/kinds/pdf.ts).
 */
import type { Db } from '../../db';
import { nowIso } from '../../db';
import {
  deleteOwnedPdfCheck,
  findOwnedPdfCheck,
  findPdfCheckPage,
  findPdfFile,
  findPdfPageImage,
  findPdfPages,
  insertPdfCheck,
  setPdfPageImage,
  type PdfCheckRecord,
} from '../../db/repos/pdf-checks';
import { notFound } from '../../errors';
import { insertJob } from '../../jobs/store';
import { containsPattern } from '../dictionaries/dictionary';
import type { Consumption } from '../rights/ledger';

/** The caller's PDF check; 404 `pdf.unknown` for another's or none. */
export async function ownedPdfCheck(db: Db, id: number, uid: number): Promise<PdfCheckRecord> {
  const row = await findOwnedPdfCheck(db, id, uid);
  if (!row) throw notFound('pdf.unknown');
  return row;
}

/** Stores an uploaded PDF of `pages` pages as a queued check with its job, which holds the charge. */
export async function queuePdfCheck(
  db: Db,
  uid: number,
  pdf: { name: string; data: Buffer; pages: number },
  charge: Consumption,
): Promise<PdfCheckRecord> {
  const now = nowIso();
  const id = await insertPdfCheck(
    db,
    {
      uid,
      name: pdf.name,
      size: pdf.data.length,
      status: 'queued',
      progress: 0,
      page_count: pdf.pages,
      pages_done: 0,
      issue_count: 0,
      created_at: now,
      updated_at: now,
    },
    pdf.data,
    (trx, ref) => insertJob(trx, { kind: 'pdf', ref, uid, charge: JSON.stringify(charge) }),
  );
  return ownedPdfCheck(db, id, uid);
}

/** A page of the caller's checks, their names containing `keyword` if given. */
export async function pdfCheckPage(
  db: Db,
  uid: number,
  keyword: string | undefined,
  page: { num: number; size: number },
) {
  const trimmed = keyword?.trim();
  return findPdfCheckPage(db, uid, { like: trimmed ? containsPattern(trimmed) : undefined }, page);
}

export const pdfPages = (db: Db, check: PdfCheckRecord) => findPdfPages(db, Number(check.id));

/** The uploaded PDF of a check; 404 `pdf.unknown` once it is gone. */
export async function pdfFile(db: Db, check: PdfCheckRecord): Promise<Uint8Array> {
  const data = await findPdfFile(db, Number(check.id));
  if (!data) throw notFound('pdf.unknown');
  return data;
}

/** A page drawn as PNG, drawn by `render` the first time it is asked for and kept; 404 for a page it lacks. */
export async function pdfPageImage(
  db: Db,
  check: PdfCheckRecord,
  page: number,
  render: (data: Uint8Array) => Promise<Uint8Array>,
): Promise<Uint8Array> {
  const image = await findPdfPageImage(db, Number(check.id), page);
  if (image === undefined) throw notFound('pdf.unknown_page');
  if (image !== null) return image;
  const drawn = await render(await pdfFile(db, check));
  await setPdfPageImage(db, Number(check.id), page, drawn);
  return drawn;
}

/** Deletes a check and its pages (its job was stopped and refunded first); 404 when it was already gone. */
export async function deletePdfCheck(db: Db, check: PdfCheckRecord): Promise<void> {
  if (!(await deleteOwnedPdfCheck(db, Number(check.id), Number(check.uid)))) throw notFound('pdf.unknown');
}

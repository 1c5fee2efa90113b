import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '..';
import type { PdfChecksTable, PdfPagesTable } from '../schema';
import { holdsJob } from '../../jobs/store';
import { offsetOf, type Page } from './filters';

/** PDF checks (`pdf_checks`), their files (`pdf_files`) and checked pages (`pdf_pages`). */

export type PdfCheckRecord = Selectable<PdfChecksTable>;
export type PdfPageRecord = Omit<Selectable<PdfPagesTable>, 'image'>;

export async function findOwnedPdfCheck(db: Db, id: number, uid: number): Promise<PdfCheckRecord | undefined> {
  return db.selectFrom('pdf_checks').selectAll().where('id', '=', id).where('uid', '=', uid).executeTakeFirst();
}

export async function findPdfCheck(db: Db, id: number): Promise<PdfCheckRecord | undefined> {
  return db.selectFrom('pdf_checks').selectAll().where('id', '=', id).executeTakeFirst();
}

/** One page of the user's PDF checks, newest first; `like` (a LIKE pattern) filters by name. */
export async function findPdfCheckPage(
  db: Db,
  uid: number,
  filter: { like?: string },
  page: Page,
): Promise<{ total: number; rows: PdfCheckRecord[] }> {
  let base = db.selectFrom('pdf_checks').where('uid', '=', uid);
  if (filter.like) base = base.where(sql<boolean>`name like ${filter.like} escape '\\'`);
  const [{ total }] = await base.select((eb) => eb.fn.countAll<number>().as('total')).execute();
  const rows = await base.selectAll().orderBy('id', 'desc').limit(page.size).offset(offsetOf(page)).execute();
  return { total: Number(total), rows };
}

/** Stores a new check and its file in one transaction with what `within` adds (its job); returns its id. */
export async function insertPdfCheck(
  db: Db,
  values: Insertable<PdfChecksTable>,
  data: Uint8Array,
  within: (trx: Db, id: number) => Promise<void>,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx.insertInto('pdf_checks').values(values).returning('id').executeTakeFirstOrThrow();
    const id = Number(inserted.id);
    await trx.insertInto('pdf_files').values({ pdf_id: id, data }).execute();
    await within(trx, id);
    return id;
  });
}

export async function findPdfFile(db: Db, id: number): Promise<Uint8Array | undefined> {
  const row = await db.selectFrom('pdf_files').select('data').where('pdf_id', '=', id).executeTakeFirst();
  return row?.data;
}

/** Writes a check's state (its job, server/jobs/kinds/pdf.ts, decides when). */
export async function updatePdfCheck(db: Db, id: number, values: Updateable<PdfChecksTable>): Promise<void> {
  await db.updateTable('pdf_checks').set(values).where('id', '=', id).execute();
}

/** Deletes the pages a check stored (it starts over). */
export async function deletePdfPages(db: Db, id: number): Promise<void> {
  await db.deleteFrom('pdf_pages').where('pdf_id', '=', id).execute();
}

export async function deleteOwnedPdfCheck(db: Db, id: number, uid: number): Promise<boolean> {
  const result = await db.deleteFrom('pdf_checks').where('id', '=', id).where('uid', '=', uid).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Stores checked pages with the check's running state in one transaction, only while `owner` runs it; false (and
 * nothing stored) once it is no longer that owner's busy check.
 */
export async function savePdfPages(
  db: Db,
  id: number,
  owner: string,
  pages: Array<Insertable<PdfPagesTable>>,
  values: Updateable<PdfChecksTable>,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const progress = values.progress === undefined ? undefined : Number(values.progress);
    if (!(await holdsJob(trx, 'pdf', id, owner, progress))) return false;
    await updatePdfCheck(trx, id, values);
    if (pages.length) await trx.insertInto('pdf_pages').values(pages).execute();
    return true;
  });
}

/** The checked pages of a check, in page order (without their images). */
export async function findPdfPages(db: Db, id: number): Promise<PdfPageRecord[]> {
  return db
    .selectFrom('pdf_pages')
    .select(['pdf_id', 'page', 'width', 'height', 'ocr', 'text', 'issues', 'unsure'])
    .where('pdf_id', '=', id)
    .orderBy('page')
    .execute();
}

export async function findPdfPageImage(db: Db, id: number, page: number): Promise<Uint8Array | null | undefined> {
  const row = await db
    .selectFrom('pdf_pages')
    .select('image')
    .where('pdf_id', '=', id)
    .where('page', '=', page)
    .executeTakeFirst();
  return row ? row.image : undefined;
}

export async function setPdfPageImage(db: Db, id: number, page: number, image: Uint8Array): Promise<void> {
  await db.updateTable('pdf_pages').set({ image }).where('pdf_id', '=', id).where('page', '=', page).execute();
}

import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '..';
import type { PdfChecksTable, PdfPagesTable } from '../schema';
import { offsetOf, type Page } from './filters';

/** PDF checks (`pdf_checks`), their files (`pdf_files`) and checked pages (`pdf_pages`). */

export type PdfCheckRecord = Selectable<PdfChecksTable>;
export type PdfPageRecord = Omit<Selectable<PdfPagesTable>, 'image'>;

const BUSY = ['queued', 'running'] as const;

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

/** Stores a new check and its file in one transaction; returns its id. */
export async function insertPdfCheck(db: Db, values: Insertable<PdfChecksTable>, data: Uint8Array): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx.insertInto('pdf_checks').values(values).returning('id').executeTakeFirstOrThrow();
    const id = Number(inserted.id);
    await trx.insertInto('pdf_files').values({ pdf_id: id, data }).execute();
    return id;
  });
}

export async function findPdfFile(db: Db, id: number): Promise<Uint8Array | undefined> {
  const row = await db.selectFrom('pdf_files').select('data').where('pdf_id', '=', id).executeTakeFirst();
  return row?.data;
}

/** Writes a check's state while `owner` runs it; false once it is no longer that owner's busy check. */
export async function updateRunningPdfCheck(
  db: Db,
  id: number,
  owner: string | null,
  values: Updateable<PdfChecksTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('pdf_checks')
    .set(values)
    .where('id', '=', id)
    .where('owner', owner === null ? 'is' : '=', owner)
    .where('status', 'in', BUSY)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Clears a check's charge; true for the one caller that cleared it (who then refunds it). */
export async function clearPdfCharge(db: Db, id: number, charge: string): Promise<boolean> {
  const result = await db
    .updateTable('pdf_checks')
    .set({ charge: null })
    .where('id', '=', id)
    .where('charge', '=', charge)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteOwnedPdfCheck(db: Db, id: number, uid: number): Promise<boolean> {
  const result = await db.deleteFrom('pdf_checks').where('id', '=', id).where('uid', '=', uid).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Checks queued or running in processes that are not among `alive`. */
export async function findPdfChecksOfGone(db: Db, alive: string[]): Promise<PdfCheckRecord[]> {
  let query = db.selectFrom('pdf_checks').selectAll().where('status', 'in', BUSY);
  if (alive.length) query = query.where((eb) => eb.or([eb('owner', 'is', null), eb('owner', 'not in', alive)]));
  return query.execute();
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
    if (!(await updateRunningPdfCheck(trx, id, owner, values))) return false;
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

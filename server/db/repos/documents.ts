import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '..';
import type { DocumentsTable } from '../schema';
import type { Page } from './filters';

/** Uploaded documents (`documents`) and their original files (`document_files`). */

export type DocumentRecord = Selectable<DocumentsTable>;

/** The columns of a document listing. */
const SUMMARY_COLUMNS = [
  'id',
  'uid',
  'name',
  'file_type',
  'size',
  'status',
  'progress',
  'error',
  'error_code',
  'error_params',
  'word_count',
  'issue_count',
  'created_at',
  'updated_at',
] as const;

export type DocumentSummaryRecord = Pick<DocumentRecord, (typeof SUMMARY_COLUMNS)[number]>;

/** The document, whoever owns it (the job queue's read; a caller's request checks the owner). */
export async function findDocument(db: Db, id: number): Promise<DocumentRecord | undefined> {
  return db.selectFrom('documents').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The document if `uid` owns it. The owner is part of the query: another user's document is never read, so its
 * size cannot be timed either.
 */
export async function findOwnedDocument(db: Db, id: number, uid: number): Promise<DocumentRecord | undefined> {
  return db.selectFrom('documents').selectAll().where('id', '=', id).where('uid', '=', uid).executeTakeFirst();
}

export async function findDocumentByShareId(db: Db, shareId: string): Promise<DocumentRecord | undefined> {
  return db.selectFrom('documents').selectAll().where('share_id', '=', shareId).executeTakeFirst();
}

/**
 * One page of the user's documents, newest first, and how many there are in all; `like` (a LIKE pattern escaped
 * with a backslash) keeps those whose name matches.
 */
export async function findDocumentPage(
  db: Db,
  uid: number,
  filter: { like?: string },
  page: Page,
): Promise<{ total: number; rows: DocumentSummaryRecord[] }> {
  let base = db.selectFrom('documents').where('uid', '=', uid);
  if (filter.like) base = base.where(sql<boolean>`name like ${filter.like} escape '\\'`);
  const [{ total }] = await base.select((eb) => eb.fn.countAll<number>().as('total')).execute();
  const rows = await base
    .select(SUMMARY_COLUMNS)
    .orderBy('id', 'desc')
    .limit(page.size)
    .offset((page.num - 1) * page.size)
    .execute();
  return { total: Number(total), rows };
}

/** Stores a new document; returns its id. */
export async function insertDocument(db: Db, values: Insertable<DocumentsTable>): Promise<number> {
  const inserted = await db.insertInto('documents').values(values).returning('id').executeTakeFirstOrThrow();
  return Number(inserted.id);
}

/** The uploaded file of a document, if it is still kept. */
export async function findDocumentFile(db: Db, documentId: number): Promise<Buffer | undefined> {
  const file = await db
    .selectFrom('document_files')
    .select('data')
    .where('document_id', '=', documentId)
    .executeTakeFirst();
  return file?.data;
}

export async function insertDocumentFile(db: Db, documentId: number, data: Buffer): Promise<void> {
  await db.insertInto('document_files').values({ document_id: documentId, data }).execute();
}

export async function updateDocument(db: Db, id: number, changes: Updateable<DocumentsTable>): Promise<void> {
  await db.updateTable('documents').set(changes).where('id', '=', id).execute();
}

/** Gives the document this share id unless it has one already (the first of two concurrent calls wins). */
export async function setShareIdIfNone(db: Db, id: number, shareId: string): Promise<void> {
  await db
    .updateTable('documents')
    .set({ share_id: shareId })
    .where('id', '=', id)
    .where('share_id', 'is', null)
    .execute();
}

/** Deletes the documents and their files (the files first); returns how many documents were deleted. */
export async function deleteDocuments(db: Db, ids: number[]): Promise<number> {
  await db.deleteFrom('document_files').where('document_id', 'in', ids).execute();
  const res = await db.deleteFrom('documents').where('id', 'in', ids).executeTakeFirst();
  return Number(res.numDeletedRows);
}

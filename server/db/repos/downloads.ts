import type { Insertable, Selectable } from 'kysely';
import type { Db } from '..';
import type { DownloadsTable } from '../schema';
import type { Page } from './filters';

/**
 * Rows of the download center (`downloads`); the files themselves live under DATA_DIR and are
 * domain/accounts/downloads.ts's.
 * A row is live while `expires_at` is later than the `now` the caller passes.
 */

const VIEW_COLUMNS = ['id', 'name', 'mime', 'size', 'created_at', 'expires_at'] as const;

/** The columns a download is shown with. */
export type DownloadRecord = Pick<Selectable<DownloadsTable>, (typeof VIEW_COLUMNS)[number]>;

/** Stores a download's row; returns the columns it is shown with. */
export async function insertDownload(db: Db, values: Insertable<DownloadsTable>): Promise<DownloadRecord> {
  return db.insertInto('downloads').values(values).returning(VIEW_COLUMNS).executeTakeFirstOrThrow();
}

/** One page of the user's live downloads, newest first, and how many there are in all. */
export async function findDownloadPage(
  db: Db,
  uid: number,
  now: string,
  page: Page,
): Promise<{ total: number; rows: DownloadRecord[] }> {
  const base = db.selectFrom('downloads').where('uid', '=', uid).where('expires_at', '>', now);
  const total = Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
  const rows = await base
    .select(VIEW_COLUMNS)
    .orderBy('id', 'desc')
    .limit(page.size)
    .offset((page.num - 1) * page.size)
    .execute();
  return { total, rows };
}

/** One of the user's live downloads with the key of its file; undefined for another user's or an expired one. */
export async function findLiveDownload(
  db: Db,
  uid: number,
  id: number,
  now: string,
): Promise<(DownloadRecord & { file_key: string }) | undefined> {
  return db
    .selectFrom('downloads')
    .select([...VIEW_COLUMNS, 'file_key'])
    .where('id', '=', id)
    .where('uid', '=', uid)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Deletes one of the user's downloads; the key of its file, or undefined when the user has no such download. */
export async function deleteOwnDownload(db: Db, uid: number, id: number): Promise<string | undefined> {
  const row = await db
    .deleteFrom('downloads')
    .where('id', '=', id)
    .where('uid', '=', uid)
    .returning('file_key')
    .executeTakeFirst();
  return row?.file_key;
}

/** At most `limit` downloads that expired at or before `now`, with the keys of their files. */
export async function findExpiredDownloads(
  db: Db,
  now: string,
  limit: number,
): Promise<Array<Pick<Selectable<DownloadsTable>, 'id' | 'file_key'>>> {
  return db.selectFrom('downloads').select(['id', 'file_key']).where('expires_at', '<=', now).limit(limit).execute();
}

export async function deleteDownloads(db: Db, ids: number[]): Promise<void> {
  await db.deleteFrom('downloads').where('id', 'in', ids).execute();
}

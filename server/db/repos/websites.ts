import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '..';
import type { WebsitesTable } from '../schema';
import { offsetOf, type Page } from './filters';

/** Users' websites for link proofreading (`websites`) and the state of their checks. */

export type WebsiteRecord = Selectable<WebsitesTable>;

const BUSY = ['queued', 'running'] as const;

/** The website if `uid` owns it (the owner is part of the query: another user's row is never read). */
export async function findOwnedWebsite(db: Db, id: number, uid: number): Promise<WebsiteRecord | undefined> {
  return db.selectFrom('websites').selectAll().where('id', '=', id).where('uid', '=', uid).executeTakeFirst();
}

export async function findWebsite(db: Db, id: number): Promise<WebsiteRecord | undefined> {
  return db.selectFrom('websites').selectAll().where('id', '=', id).executeTakeFirst();
}

/** One page of the user's websites, newest first, and how many there are. */
export async function findWebsitePage(
  db: Db,
  uid: number,
  page: Page,
): Promise<{ total: number; rows: WebsiteRecord[] }> {
  const base = db.selectFrom('websites').where('uid', '=', uid);
  const [{ total }] = await base.select((eb) => eb.fn.countAll<number>().as('total')).execute();
  const rows = await base.selectAll().orderBy('id', 'desc').limit(page.size).offset(offsetOf(page)).execute();
  return { total: Number(total), rows };
}

export async function insertWebsite(db: Db, values: Insertable<WebsitesTable>): Promise<number> {
  const inserted = await db.insertInto('websites').values(values).returning('id').executeTakeFirstOrThrow();
  return Number(inserted.id);
}

/** Changes the user's website unless a check of it is queued or running; false when none was changed. */
export async function updateIdleWebsite(
  db: Db,
  id: number,
  uid: number,
  values: Updateable<WebsitesTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('websites')
    .set(values)
    .where('id', '=', id)
    .where('uid', '=', uid)
    .where('status', 'not in', BUSY)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Writes a website's check state (the job runner's website kind, which holds the job). */
export async function updateWebsite(db: Db, id: number, values: Updateable<WebsitesTable>): Promise<void> {
  await db.updateTable('websites').set(values).where('id', '=', id).execute();
}

export async function deleteOwnedWebsite(db: Db, id: number, uid: number): Promise<boolean> {
  const result = await db.deleteFrom('websites').where('id', '=', id).where('uid', '=', uid).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

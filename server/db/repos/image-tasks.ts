import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '..';
import type { ImageTasksTable } from '../schema';

/** Image checks (`image_tasks`). */

export type ImageTaskRecord = Selectable<ImageTasksTable>;

const BUSY = ['queued', 'running'] as const;

export async function insertImageTask(db: Db, values: Insertable<ImageTasksTable>): Promise<number> {
  const inserted = await db.insertInto('image_tasks').values(values).returning('id').executeTakeFirstOrThrow();
  return Number(inserted.id);
}

export async function findImageTask(db: Db, id: number): Promise<ImageTaskRecord | undefined> {
  return db.selectFrom('image_tasks').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findOwnedImageTask(db: Db, id: number, uid: number): Promise<ImageTaskRecord | undefined> {
  return db.selectFrom('image_tasks').selectAll().where('id', '=', id).where('uid', '=', uid).executeTakeFirst();
}

/** Writes a task's state while `owner` runs it; false once it is no longer that owner's busy task. */
export async function updateRunningImageTask(
  db: Db,
  id: number,
  owner: string | null,
  values: Updateable<ImageTasksTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('image_tasks')
    .set(values)
    .where('id', '=', id)
    .where('owner', owner === null ? 'is' : '=', owner)
    .where('status', 'in', BUSY)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Clears a task's charge; true for the one caller that cleared it (who then refunds it). */
export async function clearImageCharge(db: Db, id: number, charge: string): Promise<boolean> {
  const result = await db
    .updateTable('image_tasks')
    .set({ charge: null })
    .where('id', '=', id)
    .where('charge', '=', charge)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Tasks queued or running in processes that are not among `alive`. */
export async function findImageTasksOfGone(db: Db, alive: string[]): Promise<ImageTaskRecord[]> {
  let query = db.selectFrom('image_tasks').selectAll().where('status', 'in', BUSY);
  if (alive.length) query = query.where((eb) => eb.or([eb('owner', 'is', null), eb('owner', 'not in', alive)]));
  return query.execute();
}

/** The corrected text of a finished task and its findings. */
export async function updateImageText(
  db: Db,
  id: number,
  values: Pick<Updateable<ImageTasksTable>, 'text' | 'issues' | 'unsure'>,
): Promise<void> {
  await db
    .updateTable('image_tasks')
    .set({ ...values, updated_at: new Date().toISOString() })
    .where('id', '=', id)
    .execute();
}

import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '..';
import type { ImageTasksTable } from '../schema';

/** Image checks (`image_tasks`). */

export type ImageTaskRecord = Selectable<ImageTasksTable>;

/** Stores a new task and its image in one transaction with what `within` adds (its job); returns its id. */
export async function insertImageTask(
  db: Db,
  values: Insertable<ImageTasksTable>,
  data: Uint8Array,
  within: (trx: Db, id: number) => Promise<void>,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx.insertInto('image_tasks').values(values).returning('id').executeTakeFirstOrThrow();
    const id = Number(inserted.id);
    await trx.insertInto('image_files').values({ task_id: id, data }).execute();
    await within(trx, id);
    return id;
  });
}

export async function findImageTask(db: Db, id: number): Promise<ImageTaskRecord | undefined> {
  return db.selectFrom('image_tasks').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findOwnedImageTask(db: Db, id: number, uid: number): Promise<ImageTaskRecord | undefined> {
  return db.selectFrom('image_tasks').selectAll().where('id', '=', id).where('uid', '=', uid).executeTakeFirst();
}

/** Writes a task's state (its job, server/jobs/kinds/image.ts, decides when). */
export async function updateImageTask(db: Db, id: number, values: Updateable<ImageTasksTable>): Promise<void> {
  await db.updateTable('image_tasks').set(values).where('id', '=', id).execute();
}

export async function findImageFile(db: Db, id: number): Promise<Uint8Array | undefined> {
  return (await db.selectFrom('image_files').select('data').where('task_id', '=', id).executeTakeFirst())?.data;
}

/** The image is read for good (the check is done): it goes. */
export async function deleteImageFile(db: Db, id: number): Promise<void> {
  await db.deleteFrom('image_files').where('task_id', '=', id).execute();
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

import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '..';
import type { SpeechSegmentsTable, SpeechTasksTable } from '../schema';

/** Speech tasks (`speech_tasks`), their files (`speech_files`) and checked segments (`speech_segments`). */

export type SpeechTaskRecord = Selectable<SpeechTasksTable>;
export type SpeechSegmentRecord = Selectable<SpeechSegmentsTable>;

/** Segments written per INSERT (6 values each, well under SQLite's bound-parameter limit). */
const SEGMENT_BATCH = 500;

export async function findOwnedSpeechTask(db: Db, id: number, uid: number): Promise<SpeechTaskRecord | undefined> {
  return db.selectFrom('speech_tasks').selectAll().where('id', '=', id).where('uid', '=', uid).executeTakeFirst();
}

export async function findSpeechTask(db: Db, id: number): Promise<SpeechTaskRecord | undefined> {
  return db.selectFrom('speech_tasks').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Stores a new task with its upload and the uploaded subtitle's segments (JSON), and `within` (its job) in the same
 * transaction; its id.
 */
export async function insertSpeechTask(
  db: Db,
  values: Insertable<SpeechTasksTable>,
  files: { source: Uint8Array | null; subtitle: string | null },
  within: (trx: Db, id: number) => Promise<void>,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx.insertInto('speech_tasks').values(values).returning('id').executeTakeFirstOrThrow();
    const id = Number(inserted.id);
    await trx
      .insertInto('speech_files')
      .values({ task_id: id, source: files.source, subtitle: files.subtitle, mp3: null })
      .execute();
    await within(trx, id);
    return id;
  });
}

/** The upload and the uploaded subtitle's segments (JSON) of a task. */
export async function findSpeechSource(
  db: Db,
  id: number,
): Promise<{ source: Uint8Array | null; subtitle: string | null } | undefined> {
  return db.selectFrom('speech_files').select(['source', 'subtitle']).where('task_id', '=', id).executeTakeFirst();
}

/** Drops the upload once the task ended (the mp3 is what is kept for playback). */
export async function clearSpeechSource(db: Db, id: number): Promise<void> {
  await db.updateTable('speech_files').set({ source: null }).where('task_id', '=', id).execute();
}

export async function setSpeechMp3(db: Db, id: number, mp3: Uint8Array): Promise<void> {
  await db.updateTable('speech_files').set({ mp3 }).where('task_id', '=', id).execute();
}

export async function findSpeechMp3(db: Db, id: number): Promise<Uint8Array | null> {
  const row = await db.selectFrom('speech_files').select('mp3').where('task_id', '=', id).executeTakeFirst();
  return row?.mp3 ?? null;
}

/** Writes a task's state (its job, server/jobs/kinds/speech.ts, decides when). */
export async function updateSpeechTask(db: Db, id: number, values: Updateable<SpeechTasksTable>): Promise<void> {
  await db.updateTable('speech_tasks').set(values).where('id', '=', id).execute();
}

/**
 * Replaces a task's segments (a task taken up again starts over); in the transaction that ends its job as done.
 */
export async function replaceSpeechSegments(
  trx: Db,
  id: number,
  rows: Insertable<SpeechSegmentsTable>[],
): Promise<void> {
  await trx.deleteFrom('speech_segments').where('task_id', '=', id).execute();
  for (let i = 0; i < rows.length; i += SEGMENT_BATCH) {
    await trx
      .insertInto('speech_segments')
      .values(rows.slice(i, i + SEGMENT_BATCH))
      .execute();
  }
}

/** The checked segments of a task, in time order. */
export async function findSpeechSegments(db: Db, id: number): Promise<SpeechSegmentRecord[]> {
  return db.selectFrom('speech_segments').selectAll().where('task_id', '=', id).orderBy('idx').execute();
}

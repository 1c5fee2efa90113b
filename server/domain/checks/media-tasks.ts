/**
 * The stored image and speech checks (the image screen, spec §7 audio and video): a new task is queued with its job
 * and the charge it took in one transaction, and a caller reads only their own tasks. The work is the jobs'
 * (server/jobs/kinds/image.ts and speech.ts).
 */
import type { Insertable } from 'kysely';
import type { Db } from '../../db';
import { nowIso } from '../../db';
import { findOwnedImageTask, insertImageTask, updateImageText, type ImageTaskRecord } from '../../db/repos/image-tasks';
import {
  findOwnedSpeechTask,
  findSpeechMp3,
  findSpeechSegments,
  insertSpeechTask,
  type SpeechTaskRecord,
} from '../../db/repos/speech-tasks';
import type { SpeechTasksTable } from '../../db/schema';
import { notFound } from '../../errors';
import { insertJob } from '../../jobs/store';
import type { Consumption } from '../rights/ledger';

/** The caller's image task; 404 `image.unknown` for another's or none. */
export async function ownedImageTask(db: Db, id: number, uid: number): Promise<ImageTaskRecord> {
  const row = await findOwnedImageTask(db, id, uid);
  if (!row) throw notFound('image.unknown');
  return row;
}

/** Stores an uploaded image as a queued task with its job, which holds the charge; the task's id. */
export async function queueImageTask(
  db: Db,
  uid: number,
  image: { name: string; data: Buffer },
  charge: Consumption,
): Promise<number> {
  const now = nowIso();
  return insertImageTask(
    db,
    {
      uid,
      name: image.name,
      size: image.data.length,
      status: 'queued',
      width: 0,
      height: 0,
      created_at: now,
      updated_at: now,
    },
    image.data,
    (trx, ref) => insertJob(trx, { kind: 'image', ref, uid, charge: JSON.stringify(charge) }),
  );
}

/** Keeps the corrected text of a finished task and its findings; the task as it is now. */
export async function saveImageText(
  db: Db,
  task: ImageTaskRecord,
  text: string,
  issues: unknown[],
): Promise<ImageTaskRecord> {
  await updateImageText(db, Number(task.id), { text, issues: JSON.stringify(issues), unsure: '[]' });
  return ownedImageTask(db, Number(task.id), Number(task.uid));
}

/** The caller's speech task; 404 `speech.unknown` for another's or none. */
export async function ownedSpeechTask(db: Db, id: number, uid: number): Promise<SpeechTaskRecord> {
  const row = await findOwnedSpeechTask(db, id, uid);
  if (!row) throw notFound('speech.unknown');
  return row;
}

/** Stores a speech upload (and its subtitle's cues) as a queued task with its job, which holds the charge. */
export async function queueSpeechTask(
  db: Db,
  values: Insertable<SpeechTasksTable> & { uid: number },
  files: { source: Uint8Array | null; subtitle: string | null },
  charge: Consumption,
): Promise<SpeechTaskRecord> {
  const { uid } = values;
  const id = await insertSpeechTask(db, values, files, (trx, ref) =>
    insertJob(trx, { kind: 'speech', ref, uid, charge: JSON.stringify(charge) }),
  );
  return ownedSpeechTask(db, id, uid);
}

export const speechSegments = (db: Db, task: SpeechTaskRecord) => findSpeechSegments(db, Number(task.id));

/** The task's mp3 for playback, or null when it has none (yet). */
export async function speechMp3(db: Db, task: SpeechTaskRecord): Promise<Uint8Array | null> {
  return Number(task.has_mp3) === 1 ? findSpeechMp3(db, Number(task.id)) : null;
}

import type { Insertable, Selectable } from 'kysely';
import type { Db } from '..';
import type { CheckReservationsTable } from '../schema';

/**
 * The server processes sharing the database (`server_instances`, a heartbeat row each) and what running checks
 * have taken from their users' rights (`check_reservations`), kept so that the characters of a check cut short
 * by a dead process are refunded (workers/instance.ts).
 */

export async function insertInstance(db: Db, id: string, at: string): Promise<void> {
  await db.insertInto('server_instances').values({ id, started_at: at, seen_at: at }).execute();
}

/** Records that the process is alive; false when its row is gone (another process took it for dead). */
export async function touchInstance(db: Db, id: string, seenAt: string): Promise<boolean> {
  const res = await db.updateTable('server_instances').set({ seen_at: seenAt }).where('id', '=', id).executeTakeFirst();
  return Number(res.numUpdatedRows) !== 0;
}

export async function deleteInstance(db: Db, id: string): Promise<void> {
  await db.deleteFrom('server_instances').where('id', '=', id).execute();
}

/** Deletes the row of every process but `keep`. */
export async function deleteOtherInstances(db: Db, keep: string): Promise<void> {
  await db.deleteFrom('server_instances').where('id', '!=', keep).execute();
}

/** Deletes the rows of processes other than `keep` that were last seen before `cutoff`. */
export async function deleteInstancesNotSeenSince(db: Db, cutoff: string, keep: string): Promise<void> {
  await db.deleteFrom('server_instances').where('seen_at', '<', cutoff).where('id', '!=', keep).execute();
}

export async function findInstanceIds(db: Db): Promise<string[]> {
  return (await db.selectFrom('server_instances').select('id').execute()).map((r) => r.id);
}

export async function findReservation(
  db: Db,
  checkId: string,
): Promise<Selectable<CheckReservationsTable> | undefined> {
  return db.selectFrom('check_reservations').selectAll().where('check_id', '=', checkId).executeTakeFirst();
}

/** The checks whose reservation the process holds. */
export async function findReservationsOf(db: Db, instance: string): Promise<string[]> {
  const rows = await db.selectFrom('check_reservations').select('check_id').where('instance', '=', instance).execute();
  return rows.map((r) => r.check_id);
}

/** The checks whose reservation is held by a process not in `alive`. */
export async function findReservationsOfGone(db: Db, alive: string[]): Promise<string[]> {
  const rows = await db
    .selectFrom('check_reservations')
    .select('check_id')
    .where('instance', 'not in', alive)
    .execute();
  return rows.map((r) => r.check_id);
}

export async function insertReservation(db: Db, values: Insertable<CheckReservationsTable>): Promise<void> {
  await db.insertInto('check_reservations').values(values).execute();
}

/** Replaces what the reservation records as taken (the JSON of a Consumption, domain/rights/ledger.ts). */
export async function setReservationConsumption(db: Db, checkId: string, consumption: string): Promise<void> {
  await db.updateTable('check_reservations').set({ consumption }).where('check_id', '=', checkId).execute();
}

/** Deletes the reservation; returns how many rows were deleted (0 when another call deleted it first). */
export async function deleteReservation(db: Db, checkId: string): Promise<number> {
  const res = await db.deleteFrom('check_reservations').where('check_id', '=', checkId).executeTakeFirst();
  return Number(res.numDeletedRows);
}

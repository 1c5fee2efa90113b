import type { Db } from '..';

/**
 * The socket sessions each server process holds (`socket_sessions`), so any process can tell whether a session
 * exists somewhere (realtime/cluster.ts).
 */

/** Records that `instance` holds the session (taking it over from another process that held it). */
export async function registerSocketSession(
  db: Db,
  session: { session_id: string; uid: number; instance: string; created_at: string },
): Promise<void> {
  await db
    .insertInto('socket_sessions')
    .values(session)
    .onConflict((oc) => oc.column('session_id').doUpdateSet({ uid: session.uid, instance: session.instance }))
    .execute();
}

/** Forgets the session if `instance` holds it. */
export async function deleteSocketSession(db: Db, sessionId: string, instance: string): Promise<void> {
  await db.deleteFrom('socket_sessions').where('session_id', '=', sessionId).where('instance', '=', instance).execute();
}

/** The user of the session, if some process holds it. */
export async function findSocketSessionUid(db: Db, sessionId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('socket_sessions')
    .select('uid')
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
  return row?.uid;
}

/** Forgets the sessions held by processes not in `alive`. */
export async function deleteSessionsOfGone(db: Db, alive: string[]): Promise<void> {
  await db.deleteFrom('socket_sessions').where('instance', 'not in', alive).execute();
}

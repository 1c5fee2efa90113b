import { sql } from 'kysely';
import type { Db } from '..';

/** Whether the database answers: throws when it does not. */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

import type { Insertable } from 'kysely';
import type { Db } from '..';
import type { ClicksTable, FindingFeedbackTable, MessagesTable } from '../schema';

/** What users tell the operator: messages (留言), clicks, and feedback on findings. */

export async function insertMessage(db: Db, values: Insertable<MessagesTable>): Promise<void> {
  await db.insertInto('messages').values(values).execute();
}

export async function insertClick(db: Db, values: Insertable<ClicksTable>): Promise<void> {
  await db.insertInto('clicks').values(values).execute();
}

export async function insertFindingFeedback(db: Db, values: Insertable<FindingFeedbackTable>): Promise<void> {
  await db.insertInto('finding_feedback').values(values).execute();
}

import type { Kysely, Migration } from 'kysely';

export const documentErrorCodesMigration: Migration = {
  // Why a document job failed, as the message's stable code and values (openapi/messages.ts), so the list
  // shows it in the reader's language; `error` keeps the source-language text.
  async up(db: Kysely<any>) {
    await db.schema.alterTable('documents').addColumn('error_code', 'text').execute();
    await db.schema.alterTable('documents').addColumn('error_params', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('documents').dropColumn('error_params').execute();
    await db.schema.alterTable('documents').dropColumn('error_code').execute();
  },
};

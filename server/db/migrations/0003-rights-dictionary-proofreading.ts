import type { Kysely, Migration } from 'kysely';
import type { IdColumn } from './columns';

export function rightsDictionaryProofreadingMigration(id: IdColumn): Migration {
  return {
    // The server side of checking: rights grants and records, the personal dictionary,
    // LanguageTool API keys, click and finding feedback. Later migrations build on these tables.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('right_grants')
        .addColumn('id', id.type, id.build)
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('user_right_type', 'integer', (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('remaining', 'integer', (c) => c.notNull())
        .addColumn('expires_at', 'text')
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('right_grants_uid_type')
        .on('right_grants')
        .columns(['uid', 'user_right_type'])
        .execute();
      await db.schema
        .createIndex('right_grants_uid_source')
        .on('right_grants')
        .columns(['uid', 'source'])
        .unique()
        .execute();

      await db.schema
        .createTable('right_records')
        .addColumn('id', id.type, id.build)
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('user_right_type', 'integer', (c) => c.notNull())
        .addColumn('num', 'integer', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('ref', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('right_records_uid').on('right_records').columns(['uid', 'id']).execute();

      await db.schema
        .createTable('dict_words')
        .addColumn('id', id.type, id.build)
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('word', 'text', (c) => c.notNull())
        .addColumn('type', 'integer', (c) => c.notNull())
        .addColumn('correct', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('dict_words_uid_word_type')
        .on('dict_words')
        .columns(['uid', 'word', 'type'])
        .unique()
        .execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('uid', 'integer', (c) => c.primaryKey().references('users.uid').onDelete('cascade'))
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('hint', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('clicks')
        .addColumn('id', id.type, id.build)
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('click_type', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('finding_feedback')
        .addColumn('id', id.type, id.build)
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('check_id', 'text')
        .addColumn('original', 'text', (c) => c.notNull())
        .addColumn('suggestion', 'text')
        .addColumn('category', 'text', (c) => c.notNull())
        .addColumn('context', 'text')
        .addColumn('comment', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<any>) {
      for (const table of ['finding_feedback', 'clicks', 'api_keys', 'dict_words', 'right_records', 'right_grants'])
        await db.schema.dropTable(table).execute();
    },
  };
}

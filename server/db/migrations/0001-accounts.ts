import type { Kysely, Migration } from 'kysely';
import type { IdColumn } from './columns';

export function accountsMigration(id: IdColumn): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('users')
        .addColumn('uid', id.type, id.build)
        .addColumn('phone', 'text', (c) => c.unique())
        .addColumn('login_id', 'text', (c) => c.unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull().defaultTo('free'))
        .addColumn('user_identity', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('enterprise_id', 'integer')
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('closed_at', 'text')
        .execute();
      await db.schema.createIndex('users_role').on('users').column('role').execute();

      await db.schema
        .createTable('tokens')
        .addColumn('id', id.type, id.build)
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('tokens_uid').on('tokens').column('uid').execute();

      await db.schema
        .createTable('sms_codes')
        .addColumn('id', id.type, id.build)
        .addColumn('phone', 'text', (c) => c.notNull())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema.createIndex('sms_codes_phone_purpose').on('sms_codes').columns(['phone', 'purpose']).execute();

      await db.schema
        .createTable('messages')
        .addColumn('id', id.type, id.build)
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('contact', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<any>) {
      for (const table of ['messages', 'sms_codes', 'tokens', 'users']) await db.schema.dropTable(table).execute();
    },
  };
}

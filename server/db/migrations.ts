import { sql, type Kysely, type Migration, type MigrationProvider, type ColumnDefinitionBuilder } from 'kysely';
import type { DialectName } from './schema';

/**
 * Versioned migrations, kept in code so a single `tsx` process needs no migration folder.
 * Names sort lexically; never edit a migration that has shipped, add a new one.
 */
function idColumn(dialect: DialectName) {
  // SQLite: INTEGER PRIMARY KEY AUTOINCREMENT; PostgreSQL: an identity column.
  return dialect === 'postgres'
    ? { type: sql`integer`, build: (c: ColumnDefinitionBuilder) => c.primaryKey().generatedByDefaultAsIdentity() }
    : { type: sql`integer`, build: (c: ColumnDefinitionBuilder) => c.primaryKey().autoIncrement() };
}

function migrations(dialect: DialectName): Record<string, Migration> {
  const id = idColumn(dialect);
  return {
    '0001_accounts': {
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
    },
    '0002_portraits': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('portraits')
          .addColumn('uid', 'integer', (c) => c.primaryKey().references('users.uid').onDelete('cascade'))
          .addColumn('mime', 'text', (c) => c.notNull())
          .addColumn('data', dialect === 'postgres' ? sql`bytea` : sql`blob`, (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('portraits').execute();
      },
    },
  };
}

export function migrationProvider(dialect: DialectName): MigrationProvider {
  return { getMigrations: async () => migrations(dialect) };
}

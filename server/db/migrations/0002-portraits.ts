import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../schema';

export function portraitsMigration(dialect: DialectName): Migration {
  return {
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
  };
}

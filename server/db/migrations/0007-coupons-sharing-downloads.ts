import type { Kysely, Migration } from 'kysely';
import type { IdColumn } from './columns';

export function couponsSharingDownloadsMigration(id: IdColumn): Migration {
  return {
    // Redemption codes, sharing records ('free speed-up') and the download center.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('coupon_codes')
        .addColumn('id', id.type, id.build)
        // sha256 of the normalised code: the code itself is printed once by the admin CLI and never stored.
        .addColumn('code_hash', 'text', (c) => c.notNull().unique())
        .addColumn('hint', 'text', (c) => c.notNull())
        .addColumn('batch', 'text', (c) => c.notNull())
        .addColumn('user_right_type', 'integer', (c) => c.notNull())
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('valid_days', 'integer')
        .addColumn('expires_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        // No foreign key: a used code must stay used even if the account row went away.
        .addColumn('used_by', 'integer')
        .addColumn('used_at', 'text')
        .execute();
      await db.schema.createIndex('coupon_codes_batch').on('coupon_codes').column('batch').execute();

      await db.schema
        .createTable('share_records')
        .addColumn('id', id.type, id.build)
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('share_url', 'text')
        .addColumn('reward_num', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('share_records_uid').on('share_records').column('uid').execute();

      await db.schema
        .createTable('downloads')
        .addColumn('id', id.type, id.build)
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('mime', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        // File name under DATA_DIR/downloads (random; never derived from user input).
        .addColumn('file_key', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('downloads_uid').on('downloads').columns(['uid', 'id']).execute();
      await db.schema.createIndex('downloads_expires_at').on('downloads').column('expires_at').execute();
    },
    async down(db: Kysely<any>) {
      for (const table of ['downloads', 'share_records', 'coupon_codes']) await db.schema.dropTable(table).execute();
    },
  };
}

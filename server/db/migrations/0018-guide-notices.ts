import type { Kysely, Migration } from 'kysely';
import type { IdColumn } from './columns';

/**
 * The guide, announcements and the site's own texts:
 *
 * - `site_settings`: what the site's operators edit, by key (the guide's version and slides, the user rules page),
 *   a JSON value each; a key that is absent takes the built-in default.
 * - `guide_views`: that a user finished (type 1) or skipped (type 2) a guide version, so it shows once.
 * - `announcements`: what operators publish (spec §7 type 4 cmd 1): its type 0-5, display mode (0 stored in the
 *   notice list, 1 a popup until acknowledged), text or HTML (sanitised when published), audience (everyone, a
 *   team, a role), and until when it counts.
 * - `announcement_receipts`: who has had an announcement (delivered) and who acknowledged it, so each user gets it
 *   exactly once, live or at the next login.
 * - `tokens.app_uuid`: the external app a login came from (spec §2 `login_resp_code=1&uuid=…`).
 * - `wechat_links`: the WeChat account (Open Platform openid) bound to an account, one each way.
 * - `wechat_states`: what a WeChat authorisation under way is for (login, bind, unbind; whose), single-use, and the
 *   tickets the page takes before sending the user to bind or unbind.
 */
export function guideNoticesMigration(id: IdColumn): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('tokens').addColumn('app_uuid', 'text').execute();
      await db.schema
        .createTable('site_settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('guide_views')
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('ver', 'text', (c) => c.notNull())
        .addColumn('type', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('guide_views_pk', ['uid', 'ver'])
        .execute();
      await db.schema
        .createTable('announcements')
        .addColumn('id', id.type, id.build)
        .addColumn('announcement_type', 'integer', (c) => c.notNull())
        .addColumn('display_mode', 'integer', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('html_text', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('audience', 'text', (c) => c.notNull())
        .addColumn('enterprise_id', 'integer')
        .addColumn('role', 'text')
        .addColumn('expires_at', 'text')
        .addColumn('created_by', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('withdrawn_at', 'text')
        .execute();
      await db.schema
        .createTable('wechat_links')
        .addColumn('uid', 'integer', (c) => c.primaryKey().references('users.uid').onDelete('cascade'))
        .addColumn('openid', 'text', (c) => c.notNull().unique())
        .addColumn('unionid', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('wechat_states')
        .addColumn('state', 'text', (c) => c.primaryKey())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('uid', 'integer')
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('announcements_created').on('announcements').column('created_at').execute();
      await db.schema
        .createTable('announcement_receipts')
        .addColumn('announcement_id', 'integer', (c) => c.notNull().references('announcements.id').onDelete('cascade'))
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('delivered_at', 'text', (c) => c.notNull())
        .addColumn('acknowledged_at', 'text')
        .addPrimaryKeyConstraint('announcement_receipts_pk', ['announcement_id', 'uid'])
        .execute();
      await db.schema.createIndex('announcement_receipts_uid').on('announcement_receipts').column('uid').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('wechat_states').execute();
      await db.schema.dropTable('wechat_links').execute();
      await db.schema.dropTable('announcement_receipts').execute();
      await db.schema.dropTable('announcements').execute();
      await db.schema.dropTable('guide_views').execute();
      await db.schema.dropTable('site_settings').execute();
      await db.schema.alterTable('tokens').dropColumn('app_uuid').execute();
    },
  };
}

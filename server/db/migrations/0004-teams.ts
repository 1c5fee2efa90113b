import type { Kysely, Migration } from 'kysely';
import type { IdColumn } from './columns';

/**
 * Teams (spec §3 Team info, team roles, member statuses) and their shared dictionaries. Built first for the
 * shared dictionaries; the team-management screens (members, invitations, applications,
 * right packages) grow on the same tables.
 *
 * - `enterprise_members.status` is the spec's member status (1 生效中 = active; 4 已发邀请, 6 申请加入 ...),
 *   `uid` is null for an invitation to a phone that has no account yet; only active rows grant access.
 *   `users.enterprise_id` mirrors the user's active membership (one team per user).
 * - `enterprise_dicts` are the shared dictionaries; `enterprise_dict_words` their words (same types as the
 *   personal dictionary: 1 allowed, 4 sensitive, 5 wrong with `correct`, 9 key word).
 * - `enterprise_dict_users` says which member uses which dictionary in checks ("in use"; spec
 *   modify_share_dic_status / share_dic_in_use).
 */
export function teamsMigration(id: IdColumn): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('enterprises')
        .addColumn('id', id.type, id.build)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('equity_num', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('equity_time', 'text')
        .addColumn('created_by', 'integer', (c) => c.references('users.uid').onDelete('set null'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('enterprise_members')
        .addColumn('id', id.type, id.build)
        .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprises.id').onDelete('cascade'))
        .addColumn('uid', 'integer', (c) => c.references('users.uid').onDelete('cascade'))
        .addColumn('phone', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull().defaultTo('user'))
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('remark', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('invited_by', 'integer', (c) => c.references('users.uid').onDelete('set null'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('joined_at', 'text')
        .execute();
      await db.schema
        .createIndex('enterprise_members_enterprise_uid')
        .on('enterprise_members')
        .columns(['enterprise_id', 'uid'])
        .unique()
        .execute();
      await db.schema
        .createIndex('enterprise_members_uid_status')
        .on('enterprise_members')
        .columns(['uid', 'status'])
        .execute();
      await db.schema.createIndex('enterprise_members_phone').on('enterprise_members').column('phone').execute();

      await db.schema
        .createTable('enterprise_dicts')
        .addColumn('id', id.type, id.build)
        .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprises.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_by', 'integer', (c) => c.references('users.uid').onDelete('set null'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('enterprise_dicts_enterprise_name')
        .on('enterprise_dicts')
        .columns(['enterprise_id', 'name'])
        .unique()
        .execute();

      await db.schema
        .createTable('enterprise_dict_words')
        .addColumn('id', id.type, id.build)
        .addColumn('dict_id', 'integer', (c) => c.notNull().references('enterprise_dicts.id').onDelete('cascade'))
        .addColumn('word', 'text', (c) => c.notNull())
        .addColumn('type', 'integer', (c) => c.notNull())
        .addColumn('correct', 'text')
        .addColumn('created_by', 'integer', (c) => c.references('users.uid').onDelete('set null'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('enterprise_dict_words_dict_word_type')
        .on('enterprise_dict_words')
        .columns(['dict_id', 'word', 'type'])
        .unique()
        .execute();

      await db.schema
        .createTable('enterprise_dict_users')
        .addColumn('dict_id', 'integer', (c) => c.notNull().references('enterprise_dicts.id').onDelete('cascade'))
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('enterprise_dict_users_pk', ['dict_id', 'uid'])
        .execute();
      await db.schema.createIndex('enterprise_dict_users_uid').on('enterprise_dict_users').column('uid').execute();
    },
    async down(db: Kysely<any>) {
      for (const table of [
        'enterprise_dict_users',
        'enterprise_dict_words',
        'enterprise_dicts',
        'enterprise_members',
        'enterprises',
      ])
        await db.schema.dropTable(table).execute();
    },
  };
}

import { sql, type Kysely, type Migration } from 'kysely';
import type { IdColumn } from './columns';

/**
 * Team management on the tables of 0004_teams:
 *
 * - `enterprises.invitation_code`: the code members of the public use to apply (apply_join_enterprise);
 *   `equity_num` is the seat limit (0: none set).
 * - `enterprise_members.name` (the name shown in the team), `invite_code` / `invite_expires_at` (the SMS link of
 *   an invitation; null once answered).
 * - `team_applications`: applications for a team (kind `team`) or API access (kind `api`), reviewed by an
 *   operator; `enterprise_id` is the team an approved team application created.
 * - `leaders` / `leader_history`: the leader dictionaries, personal (`owner_kind` user) or the team's (team).
 * - `team_packages` / `team_package_rights`: rights a team plan gave the team; what is allocated to a member is
 *   a right grant of theirs whose source is `team-package:<package>:<type>`.
 * - `check_events`: one row per finished check (who, which team, what, how many characters and findings by
 *   category), for team metrics.
 */
export function teamManagementMigration(id: IdColumn): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('enterprises').addColumn('invitation_code', 'text').execute();
      await db.schema
        .createIndex('enterprises_invitation_code')
        .on('enterprises')
        .column('invitation_code')
        .unique()
        .execute();
      await db.schema
        .alterTable('enterprise_members')
        .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.alterTable('enterprise_members').addColumn('invite_code', 'text').execute();
      await db.schema.alterTable('enterprise_members').addColumn('invite_expires_at', 'text').execute();
      await db.schema
        .createIndex('enterprise_members_invite_code')
        .on('enterprise_members')
        .column('invite_code')
        .unique()
        .execute();
      // one team per account, whatever runs at the same time: one row per account with a holding status (1, 2, 3)
      await db.schema
        .createIndex('enterprise_members_one_team')
        .on('enterprise_members')
        .column('uid')
        .unique()
        .where(sql<boolean>`status in (1, 2, 3)`)
        .execute();

      await db.schema
        .createTable('team_applications')
        .addColumn('id', id.type, id.build)
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('contact_name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('phone', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('address', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('user_num', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('remark', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('source', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('enterprise_id', 'integer', (c) => c.references('enterprises.id').onDelete('set null'))
        .addColumn('reviewed_by', 'integer', (c) => c.references('users.uid').onDelete('set null'))
        .addColumn('review_note', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('reviewed_at', 'text')
        .execute();
      await db.schema
        .createIndex('team_applications_uid_kind')
        .on('team_applications')
        .columns(['uid', 'kind', 'status'])
        .execute();
      await db.schema.createIndex('team_applications_status').on('team_applications').column('status').execute();

      await db.schema
        .createTable('leaders')
        .addColumn('id', id.type, id.build)
        .addColumn('owner_kind', 'text', (c) => c.notNull())
        .addColumn('owner_id', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('titles', 'text', (c) => c.notNull())
        .addColumn('organization', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('sort', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('leaders_owner_sort')
        .on('leaders')
        .columns(['owner_kind', 'owner_id', 'sort'])
        .execute();
      await db.schema
        .createTable('leader_history')
        .addColumn('id', id.type, id.build)
        .addColumn('owner_kind', 'text', (c) => c.notNull())
        .addColumn('owner_id', 'integer', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('leader_id', 'integer')
        .addColumn('operator', 'integer', (c) => c.references('users.uid').onDelete('set null'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('leader_history_owner')
        .on('leader_history')
        .columns(['owner_kind', 'owner_id', 'id'])
        .execute();

      await db.schema
        .createTable('team_packages')
        .addColumn('id', id.type, id.build)
        .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprises.id').onDelete('cascade'))
        .addColumn('product_name', 'text', (c) => c.notNull())
        .addColumn('order_id', 'integer')
        .addColumn('expires_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('team_packages_enterprise').on('team_packages').column('enterprise_id').execute();
      await db.schema
        .createTable('team_package_rights')
        .addColumn('package_id', 'integer', (c) => c.notNull().references('team_packages.id').onDelete('cascade'))
        .addColumn('user_right_type', 'integer', (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('allocated', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('team_package_rights_pk', ['package_id', 'user_right_type'])
        .execute();

      await db.schema
        .createTable('check_events')
        .addColumn('id', id.type, id.build)
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('enterprise_id', 'integer')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('chars', 'integer', (c) => c.notNull())
        .addColumn('issues', 'integer', (c) => c.notNull())
        .addColumn('categories', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('check_events_enterprise_time')
        .on('check_events')
        .columns(['enterprise_id', 'created_at'])
        .execute();
      await db.schema.createIndex('check_events_uid_time').on('check_events').columns(['uid', 'created_at']).execute();
      // a team plan bought by a team's root or admin now goes to the team (domain/commerce/orders.ts)
      await db
        .updateTable('products')
        .set({
          description:
            '一年 1 亿字高速校对、1000 万字精校，单次校对上限 20 万字；团队超级管理员或管理员购买时归团队所有，可分配给成员',
        })
        .where('code', '=', 'team_yearly')
        .execute();
    },
    async down(db: Kysely<any>) {
      for (const table of [
        'check_events',
        'team_package_rights',
        'team_packages',
        'leader_history',
        'leaders',
        'team_applications',
      ])
        await db.schema.dropTable(table).execute();
      await db.schema.dropIndex('enterprise_members_one_team').execute();
      await db.schema.dropIndex('enterprise_members_invite_code').execute();
      for (const column of ['invite_expires_at', 'invite_code', 'name'])
        await db.schema.alterTable('enterprise_members').dropColumn(column).execute();
      await db.schema.dropIndex('enterprises_invitation_code').execute();
      await db.schema.alterTable('enterprises').dropColumn('invitation_code').execute();
    },
  };
}

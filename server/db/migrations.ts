import { sql, type Kysely, type Migration, type MigrationProvider, type ColumnDefinitionBuilder } from 'kysely';
import type { DialectName } from './schema';
import { SEED_PRODUCTS } from './seed-products';
import { teamsMigration } from './migration-0004-teams';
import { scaleMigration } from './migration-0010-scale';
import { teamManagementMigration } from './migration-0017-team-management';
import { guideNoticesMigration } from './migration-0018-guide-notices';
import { localizedDataMigration } from './migration-0020-localized-data';
import { imageJobsMigration, jobsMigration, kindToJobsMigration } from './migration-0021-jobs';

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
    '0003_rights_dictionary_proofreading': {
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
    },
    '0007_coupons_sharing_downloads': {
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
    },
    '0006_commerce': {
      // The product catalogue (seeded; see server/services/products.ts) and orders.
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('products')
          .addColumn('id', id.type, id.build)
          .addColumn('code', 'text', (c) => c.notNull().unique())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('type', 'integer', (c) => c.notNull())
          .addColumn('belong_to', 'integer', (c) => c.notNull())
          .addColumn('price', 'integer', (c) => c.notNull())
          .addColumn('original_price', 'integer')
          .addColumn('duration_days', 'integer')
          .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('recommended', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('on_sale', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('rights', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();
        const now = new Date().toISOString();
        for (const p of SEED_PRODUCTS) {
          await db
            .insertInto('products')
            .values({
              ...p,
              recommended: p.recommended ? 1 : 0,
              on_sale: 1,
              rights: JSON.stringify(p.rights),
              created_at: now,
              updated_at: now,
            })
            .execute();
        }

        await db.schema
          .createTable('orders')
          .addColumn('id', id.type, id.build)
          .addColumn('order_no', 'text', (c) => c.notNull().unique())
          .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
          .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
          .addColumn('product_name', 'text', (c) => c.notNull())
          .addColumn('quantity', 'integer', (c) => c.notNull())
          .addColumn('amount', 'integer', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('pay_type', 'text', (c) => c.notNull())
          .addColumn('code_url', 'text')
          .addColumn('expire_at', 'text', (c) => c.notNull())
          .addColumn('transaction_id', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('paid_at', 'text')
          .execute();
        await db.schema.createIndex('orders_uid').on('orders').columns(['uid', 'id']).execute();
      },
      async down(db: Kysely<any>) {
        for (const table of ['orders', 'products']) await db.schema.dropTable(table).execute();
      },
    },
    '0004_teams': teamsMigration(id),
    '0008_documents': {
      // Documents: one row per uploaded document and its job state; the uploaded file apart, so
      // listing never reads blobs. `charge` is the JSON of the upload's right-256 consumption (refunds after a
      // restart).
      async up(db: Kysely<any>) {
        const blob = dialect === 'postgres' ? sql`bytea` : sql`blob`;
        await db.schema
          .createTable('documents')
          .addColumn('id', id.type, id.build)
          .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('file_type', 'text', (c) => c.notNull())
          .addColumn('size', 'integer', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('error', 'text')
          .addColumn('word_count', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('issue_count', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('check_mode', 'integer', (c) => c.notNull().defaultTo(3))
          .addColumn('check_options', 'integer', (c) => c.notNull())
          .addColumn('lang', 'text', (c) => c.notNull().defaultTo('cn'))
          .addColumn('html', 'text')
          .addColumn('text', 'text')
          .addColumn('issues', 'text')
          .addColumn('fixes', 'text')
          .addColumn('ignored', 'text')
          .addColumn('edited', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('share_id', 'text', (c) => c.unique())
          .addColumn('charge', 'text')
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('documents_uid_id').on('documents').columns(['uid', 'id']).execute();
        await db.schema.createIndex('documents_status').on('documents').column('status').execute();
        await db.schema
          .createTable('document_files')
          .addColumn('document_id', 'integer', (c) => c.primaryKey().references('documents.id').onDelete('cascade'))
          .addColumn('data', blob, (c) => c.notNull())
          .execute();
      },
      async down(db: Kysely<any>) {
        for (const table of ['document_files', 'documents']) await db.schema.dropTable(table).execute();
      },
    },
    '0005_dictionary_libraries': {
      async up(db: Kysely<any>) {
        // Built-in word libraries a user applies to their checks (ids of server/word-libraries/*.tsv).
        await db.schema
          .createTable('user_word_libraries')
          .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
          .addColumn('library_id', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('user_word_libraries_pk', ['uid', 'library_id'])
          .execute();
        // The rows that failed in the user's last dictionary import (one record per user, replaced by each import).
        await db.schema
          .createTable('dict_import_failures')
          .addColumn('uid', 'integer', (c) => c.primaryKey().references('users.uid').onDelete('cascade'))
          .addColumn('filename', 'text', (c) => c.notNull())
          .addColumn('rows', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
      },
      async down(db: Kysely<any>) {
        for (const table of ['dict_import_failures', 'user_word_libraries']) await db.schema.dropTable(table).execute();
      },
    },
    '0009_auth_failures': {
      // Wrong passwords per login phone or account and the lock they lead to (services/lockout.ts); in the
      // database so every process sees one count and a restart lifts no lock.
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('auth_failures')
          .addColumn('subject', 'text', (c) => c.primaryKey())
          .addColumn('failures', 'integer', (c) => c.notNull())
          .addColumn('window_started_at', 'text', (c) => c.notNull())
          .addColumn('locked_until', 'text')
          .execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('auth_failures').execute();
      },
    },
    '0010_scale': scaleMigration,
    '0011_document_error_codes': {
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
    },
    '0012_websites': {
      // Link proofreading: a user's websites and their last check; a URL once per user.
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('websites')
          .addColumn('id', id.type, id.build)
          .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
          .addColumn('url', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('depth', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('page_limit', 'integer', (c) => c.notNull().defaultTo(10))
          .addColumn('status', 'text', (c) => c.notNull().defaultTo('idle'))
          .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('error', 'text')
          .addColumn('error_code', 'text')
          .addColumn('error_params', 'text')
          .addColumn('owner', 'text')
          .addColumn('charge', 'text')
          .addColumn('last_result', 'text')
          .addColumn('last_checked_at', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('websites_uid_url').on('websites').columns(['uid', 'url']).unique().execute();
        await db.schema.createIndex('websites_status').on('websites').column('status').execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('websites').execute();
      },
    },
    '0013_pdf_checks': {
      // PDF proofreading: one row per upload and its job, the file apart (listing never reads blobs), and a row per
      // checked page (text, findings with boxes, the rendered image once asked for).
      async up(db: Kysely<any>) {
        const blob = dialect === 'postgres' ? sql`bytea` : sql`blob`;
        await db.schema
          .createTable('pdf_checks')
          .addColumn('id', id.type, id.build)
          .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('size', 'integer', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('page_count', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('pages_done', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('issue_count', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('error', 'text')
          .addColumn('error_code', 'text')
          .addColumn('error_params', 'text')
          .addColumn('owner', 'text')
          .addColumn('charge', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('pdf_checks_uid_id').on('pdf_checks').columns(['uid', 'id']).execute();
        await db.schema.createIndex('pdf_checks_status').on('pdf_checks').column('status').execute();
        await db.schema
          .createTable('pdf_files')
          .addColumn('pdf_id', 'integer', (c) => c.primaryKey().references('pdf_checks.id').onDelete('cascade'))
          .addColumn('data', blob, (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('pdf_pages')
          .addColumn('pdf_id', 'integer', (c) => c.notNull().references('pdf_checks.id').onDelete('cascade'))
          .addColumn('page', 'integer', (c) => c.notNull())
          .addColumn('width', 'real', (c) => c.notNull())
          .addColumn('height', 'real', (c) => c.notNull())
          .addColumn('ocr', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('text', 'text', (c) => c.notNull())
          .addColumn('issues', 'text', (c) => c.notNull())
          .addColumn('image', blob)
          .addPrimaryKeyConstraint('pdf_pages_pk', ['pdf_id', 'page'])
          .execute();
      },
      async down(db: Kysely<any>) {
        for (const table of ['pdf_pages', 'pdf_files', 'pdf_checks']) await db.schema.dropTable(table).execute();
      },
    },
    '0014_pdf_unsure': {
      // Scanned pages are read by OCR: the characters it was unsure of are kept so the page view can mark them.
      async up(db: Kysely<any>) {
        await db.schema.alterTable('pdf_pages').addColumn('unsure', 'text').execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.alterTable('pdf_pages').dropColumn('unsure').execute();
      },
    },
    '0015_speech_tasks': {
      // Audio and video proofreading: one row per upload and its job, the files apart (the upload until the task
      // ends, the mp3 for playback), and a row per checked transcript segment.
      async up(db: Kysely<any>) {
        const blob = dialect === 'postgres' ? sql`bytea` : sql`blob`;
        await db.schema
          .createTable('speech_tasks')
          .addColumn('id', id.type, id.build)
          .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('size', 'integer', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('duration_ms', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('minutes', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('probe', 'text')
          .addColumn('transcript_source', 'text')
          .addColumn('has_mp3', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('segment_count', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('issue_count', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('error', 'text')
          .addColumn('error_code', 'text')
          .addColumn('error_params', 'text')
          .addColumn('owner', 'text')
          .addColumn('charge', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('speech_tasks_uid_id').on('speech_tasks').columns(['uid', 'id']).execute();
        await db.schema.createIndex('speech_tasks_status').on('speech_tasks').column('status').execute();
        await db.schema
          .createTable('speech_files')
          .addColumn('task_id', 'integer', (c) => c.primaryKey().references('speech_tasks.id').onDelete('cascade'))
          .addColumn('source', blob)
          .addColumn('subtitle', 'text')
          .addColumn('mp3', blob)
          .execute();
        await db.schema
          .createTable('speech_segments')
          .addColumn('task_id', 'integer', (c) => c.notNull().references('speech_tasks.id').onDelete('cascade'))
          .addColumn('idx', 'integer', (c) => c.notNull())
          .addColumn('start_ms', 'integer', (c) => c.notNull())
          .addColumn('end_ms', 'integer', (c) => c.notNull())
          .addColumn('text', 'text', (c) => c.notNull())
          .addColumn('issues', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('speech_segments_pk', ['task_id', 'idx'])
          .execute();
      },
      async down(db: Kysely<any>) {
        for (const table of ['speech_segments', 'speech_files', 'speech_tasks'])
          await db.schema.dropTable(table).execute();
      },
    },
    '0016_image_tasks': {
      // Image checks: the task's state and result (the image itself is read once, in memory, and not kept).
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('image_tasks')
          .addColumn('id', id.type, id.build)
          .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('size', 'integer', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('width', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('height', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('text', 'text')
          .addColumn('issues', 'text')
          .addColumn('unsure', 'text')
          .addColumn('error', 'text')
          .addColumn('error_code', 'text')
          .addColumn('error_params', 'text')
          .addColumn('owner', 'text')
          .addColumn('charge', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('image_tasks_uid_id').on('image_tasks').columns(['uid', 'id']).execute();
        await db.schema.createIndex('image_tasks_status').on('image_tasks').column('status').execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('image_tasks').execute();
      },
    },
    '0017_team_management': teamManagementMigration(id),
    '0018_guide_notices': guideNoticesMigration(id),
    '0020_localized_data': localizedDataMigration,
    '0021_jobs': jobsMigration(id),
    '0022_pdf_jobs': kindToJobsMigration('pdf_checks', 'pdf', ['owner', 'charge']),
    '0023_image_jobs': imageJobsMigration(dialect),
    '0024_speech_jobs': kindToJobsMigration('speech_tasks', 'speech', ['owner', 'charge']),
  };
}

export function migrationProvider(dialect: DialectName): MigrationProvider {
  return { getMigrations: async () => migrations(dialect) };
}

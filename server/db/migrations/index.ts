import type { Migration, MigrationProvider } from 'kysely';
import type { DialectName } from '../schema';
import { idColumn } from './columns';
import { accountsMigration } from './0001-accounts';
import { portraitsMigration } from './0002-portraits';
import { rightsDictionaryProofreadingMigration } from './0003-rights-dictionary-proofreading';
import { teamsMigration } from './0004-teams';
import { dictionaryLibrariesMigration } from './0005-dictionary-libraries';
import { commerceMigration } from './0006-commerce';
import { couponsSharingDownloadsMigration } from './0007-coupons-sharing-downloads';
import { documentsMigration } from './0008-documents';
import { authFailuresMigration } from './0009-auth-failures';
import { scaleMigration } from './0010-scale';
import { documentErrorCodesMigration } from './0011-document-error-codes';
import { websitesMigration } from './0012-websites';
import { pdfChecksMigration } from './0013-pdf-checks';
import { pdfUnsureMigration } from './0014-pdf-unsure';
import { speechTasksMigration } from './0015-speech-tasks';
import { imageTasksMigration } from './0016-image-tasks';
import { teamManagementMigration } from './0017-team-management';
import { guideNoticesMigration } from './0018-guide-notices';
import { localizedDataMigration } from './0020-localized-data';
import { imageJobsMigration, jobsMigration, kindToJobsMigration } from './0021-jobs';

/**
 * Versioned migrations, kept in code so a single `tsx` process needs no migration folder: one file each under
 * migrations/, listed here in order. The names are what the database records as applied; they sort lexically.
 * Never edit a migration that has shipped, add a new one.
 */
function migrations(dialect: DialectName): Record<string, Migration> {
  const id = idColumn(dialect);
  return {
    '0001_accounts': accountsMigration(id),
    '0002_portraits': portraitsMigration(dialect),
    '0003_rights_dictionary_proofreading': rightsDictionaryProofreadingMigration(id),
    '0004_teams': teamsMigration(id),
    '0005_dictionary_libraries': dictionaryLibrariesMigration,
    '0006_commerce': commerceMigration(id),
    '0007_coupons_sharing_downloads': couponsSharingDownloadsMigration(id),
    '0008_documents': documentsMigration(dialect, id),
    '0009_auth_failures': authFailuresMigration,
    '0010_scale': scaleMigration,
    '0011_document_error_codes': documentErrorCodesMigration,
    '0012_websites': websitesMigration(id),
    '0013_pdf_checks': pdfChecksMigration(dialect, id),
    '0014_pdf_unsure': pdfUnsureMigration,
    '0015_speech_tasks': speechTasksMigration(dialect, id),
    '0016_image_tasks': imageTasksMigration(id),
    '0017_team_management': teamManagementMigration(id),
    '0018_guide_notices': guideNoticesMigration(id),
    '0020_localized_data': localizedDataMigration,
    '0021_jobs': jobsMigration(id),
    '0022_pdf_jobs': kindToJobsMigration('pdf_checks', 'pdf', ['owner', 'charge']),
    '0023_image_jobs': imageJobsMigration(dialect),
    '0024_speech_jobs': kindToJobsMigration('speech_tasks', 'speech', ['owner', 'charge']),
    '0025_website_jobs': kindToJobsMigration('websites', 'website', ['owner', 'charge']),
  };
}

export function migrationProvider(dialect: DialectName): MigrationProvider {
  return { getMigrations: async () => migrations(dialect) };
}

import type { Kysely, Migration } from 'kysely';

export const pdfUnsureMigration: Migration = {
  // Scanned pages are read by OCR: the characters it was unsure of are kept so the page view can mark them.
  async up(db: Kysely<any>) {
    await db.schema.alterTable('pdf_pages').addColumn('unsure', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('pdf_pages').dropColumn('unsure').execute();
  },
};

import {
  deletePdfCheck,
  ownedPdfCheck,
  pdfCheckPage,
  pdfFile,
  pdfPageImage,
  pdfPages,
  queuePdfCheck,
} from '../../domain/checks/pdf-tasks';
import { badRequest, conflict, envelope, paymentRequired } from '../../errors';
import { recordDownload } from '../../domain/accounts/downloads';
import { EXPORT_MIME } from '../../domain/dictionaries/import';
import { detectKind } from '../../formats/documents/load';
import { sanitizeFilename } from '../../formats/filenames';
import { pdfSummary, type PdfIssue } from '../../formats/pdf/checks';
import { consumeRight, InsufficientRight, Right } from '../../domain/rights/ledger';
import { attachment, caller, type Operations } from '../types';
import { filePart } from '../document/index';

/**
 * PDF proofreading (spec §7 /misscut/v2/pdf_check/*): upload (right 4), the list, a check's pages with findings and
 * their boxes, a page drawn as PNG, cancel and delete. The work is the PDF checks' (formats/pdf/checks.ts).
 */

const XLSX_MIME = EXPORT_MIME.xlsx;
/** Page images are drawn at this resolution (the detail screen scales them). */
const PAGE_DPI = 150;

const owned = async (request: Parameters<typeof caller>[0], id: number) => {
  const { uid } = await caller(request);
  return ownedPdfCheck(request.server.db, id, uid);
};

export const pdfOperations: Operations = {
  postMisscutV2PdfCheckUpload: async (request) => {
    const { uid } = await caller(request);
    const { db, heavy } = request.server;
    const file = filePart(request.body.file);
    detectKind(file, ['pdf']);
    // read before anything is charged: unreadable, encrypted, empty or too long PDFs are refused as they are
    const pages = await heavy.run('pdfPageCount', { data: file.data });
    if (pages === 0) throw badRequest('pdf.empty');
    const max = request.server.config.pdf.maxPages;
    if (pages > max) throw badRequest('pdf.too_many_pages', { pages, max });
    let charge;
    try {
      charge = await consumeRight(db, uid, Right.pdfChecks, 1, 'PDF校对');
    } catch (error) {
      if (error instanceof InsufficientRight) throw paymentRequired('pdf.exhausted');
      throw error;
    }
    const name = sanitizeFilename(file.filename, 'PDF');
    const check = await queuePdfCheck(db, uid, { name, data: file.data, pages }, charge);
    request.server.jobs.enqueue();
    return envelope(pdfSummary(check));
  },

  getMisscutV2PdfCheckPage: async (request) => {
    const { uid } = await caller(request);
    const q = request.query;
    const num = q.num ?? 1;
    const size = q.size ?? 20;
    const { total, rows } = await pdfCheckPage(request.server.db, uid, q.keyword, { num, size });
    return envelope({ total, num, size, list: rows.map(pdfSummary) });
  },

  getMisscutV2PdfCheckResult: async (request) => {
    const row = await owned(request, request.query.id);
    const pages = await pdfPages(request.server.db, row);
    return envelope({
      ...pdfSummary(row),
      pages: pages.map((p) => ({
        page: Number(p.page),
        width: Number(p.width),
        height: Number(p.height),
        ocr: Number(p.ocr) === 1,
        image_url: `/misscut/v2/pdf_check/page_image?id=${row.id}&page=${p.page}`,
        text: p.text,
        issues: JSON.parse(p.issues) as PdfIssue[],
        ...(p.unsure !== null && { unsure: JSON.parse(p.unsure) as Array<[number, number]> }),
      })),
    });
  },

  getMisscutV2PdfCheckPageImage: async (request, reply) => {
    const row = await owned(request, request.query.id);
    const { db, heavy } = request.server;
    const page = request.query.page;
    const render = async (data: Uint8Array) => (await heavy.run('pdfRender', { data, page, dpi: PAGE_DPI })).png;
    const image = await pdfPageImage(db, row, page, render);
    return reply
      .type('image/png')
      .header('cache-control', 'private, max-age=86400')
      .send(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
  },

  getMisscutV2PdfCheckExport: async (request, reply) => {
    const row = await owned(request, request.query.id);
    if (row.status !== 'done') throw conflict('pdf.not_done');
    const { db, heavy, config } = request.server;
    const pages = (await pdfPages(db, row)).map((p) => ({
      page: Number(p.page),
      text: p.text,
      issues: JSON.parse(p.issues) as PdfIssue[],
    }));
    const base = row.name.replace(/\.pdf$/i, '');
    let file: { name: string; mime: string; data: Uint8Array };
    if ((request.query.format ?? 'pdf') === 'pdf') {
      const annotated = await heavy.run('pdfAnnotate', { data: await pdfFile(db, row), pages });
      file = { name: `${base}（校对批注）.pdf`, mime: 'application/pdf', data: annotated };
    } else {
      const rows: Array<Array<string | number>> = [['页码', '原文', '建议', '类别', '说明', '上下文']];
      for (const p of pages)
        for (const i of p.issues)
          rows.push([
            p.page,
            i.original,
            i.suggestions.join(' / '),
            i.category,
            i.message,
            p.text.slice(Math.max(0, i.start - 15), i.end + 15).replace(/\n/g, ' '),
          ]);
      const data = await heavy.run('xlsx', { sheets: [{ name: '校对结果', rows, widths: [8, 16, 20, 10, 50, 50] }] });
      file = { name: `${base}（校对报告）.xlsx`, mime: XLSX_MIME, data };
    }
    const buffer = Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength);
    // kept in the download center too (7 days), so the export can be fetched again from there
    await recordDownload(db, config.dataDir, Number(row.uid), { name: file.name, mime: file.mime, data: buffer });
    return reply.type(file.mime).header('content-disposition', attachment(file.name)).send(buffer);
  },

  postMisscutV2PdfCheckCancel: async (request) => {
    const row = await owned(request, request.body.id);
    if (!(await request.server.jobs.cancel('pdf', Number(row.id), { code: 'pdf.cancelled' }))) {
      throw conflict('pdf.not_running');
    }
    return envelope(null);
  },

  deleteMisscutV2PdfCheckDeleteById: async (request) => {
    const row = await owned(request, request.params.id);
    const { jobs, db } = request.server;
    // a running check stops first; what it was charged is given back, then the rows go
    await jobs.remove('pdf', Number(row.id), 'PDF校对取消退回');
    await deletePdfCheck(db, row);
    return envelope(null);
  },
};

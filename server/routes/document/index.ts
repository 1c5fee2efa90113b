import type { FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, envelope, notFound, tooLarge, paymentRequired } from '../../errors';
import { sanitizeFilename } from '../../formats/filenames';
import { loadTemplates } from '../../formats/format/template-store';
import { consumeRight, InsufficientRight, rightBalance, Right } from '../../domain/rights/ledger';
import { cnToHk, localize, localizeText, requestLang, siteTextToHk, type Lang } from '../../domain/locale';
import type { FormatReport } from '../../formats/format/check';
import type { FormatTemplate } from '../../formats/format/template-store';
import { attachment, caller, type OperationRequest, type Operations } from '../types';
import { isUploadedFile, type UploadedFile } from '../../formats/documents/upload';

/** Answers the heavy pool serialised in a worker (HeavyPool.runJson) are sent as they are. */
const JSON_TYPE = 'application/json; charset=utf-8';

export const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/**
 * The file part of a multipart body, its name sanitised: every document route (upload, compare, format check,
 * doc2html) reads its file here, so no name with controls or bidi overrides is stored or shown.
 */
export const filePart = (value: unknown, field = 'file'): UploadedFile => {
  if (!isUploadedFile(value)) throw badRequest('upload.missing_part', { field });
  return { ...value, filename: sanitizeFilename(value.filename) };
};

/** HTML over the configured size is refused before it is copied to a worker. */
export function checkHtmlSize(request: FastifyRequest, html: string | undefined): void {
  const max = request.server.config.htmlMax;
  if (html !== undefined && html.length > max) {
    throw tooLarge('document.html_too_large', { mb: Math.floor(max / 1024 / 1024) });
  }
}

async function compare(request: OperationRequest<'postMisscutV1DocDiff'>, reply: FastifyReply) {
  const { uid } = await caller(request);
  const body = request.body;
  const original = filePart(body.file, 'file');
  const revised = filePart(body.compare_file, 'compare_file');
  const db = request.server.db;
  // Without a grant these read as the server's COMPARE_MAX_SIZE_MB / COMPARE_MAX_PAGES (domain/rights/ledger.ts).
  const maxSizeMb = await rightBalance(db, uid, Right.compareSizeMaxMb);
  const maxPages = await rightBalance(db, uid, Right.comparePagesMax);
  for (const f of [original, revised]) {
    if (f.data.length > maxSizeMb * 1024 * 1024)
      throw tooLarge('compare.too_large', { mb: maxSizeMb, name: f.filename });
  }
  const { heavy } = request.server;
  const extract = (f: UploadedFile) =>
    heavy.run(
      'extract',
      { filename: f.filename, data: f.data, allowed: ['docx', 'txt', 'md', 'pdf'], maxPages },
      { owner: uid },
    );
  const [a, b] = await Promise.all([extract(original), extract(revised)]);
  for (const d of [a, b]) {
    if (d.pages > maxPages) throw tooLarge('compare.too_many_pages', { max: maxPages, name: d.name, pages: d.pages });
    if (!d.paragraphs.length) throw badRequest('compare.no_text', { name: d.name });
  }
  try {
    await consumeRight(db, uid, Right.compares, 1, '文档比对');
  } catch (error) {
    if (error instanceof InsufficientRight) throw paymentRequired('compare.exhausted');
    throw error;
  }
  const result = await heavy.runJson(
    'compare',
    { a: a.paragraphs, b: b.paragraphs, names: [a.name, b.name] },
    { owner: uid },
  );
  return reply.type(JSON_TYPE).send(result);
}

/**
 * A format report for a reader of en or hk: the template's name in the language, and in hk the report's own texts
 * (labels, expectations, findings, messages) in traditional characters; the excerpts are the document's own text.
 * (The worker wrote the en report's own texts in English.)
 */
function localizeFormatReport(report: FormatReport, template: FormatTemplate, lang: Lang): FormatReport {
  const forms = template.i18n;
  const name = localizeText(lang, template.name, { en: forms?.en?.name, hk: forms?.hk?.name });
  if (lang !== 'hk') return { ...report, template_name: name };
  return {
    ...report,
    template_name: name,
    elements: report.elements.map((e) => ({ ...e, label: siteTextToHk(e.label) })),
    violations: report.violations.map((v) => ({
      ...v,
      label: siteTextToHk(v.label),
      expected: siteTextToHk(v.expected),
      found: cnToHk(v.found),
      message: siteTextToHk(v.message),
    })),
  };
}

export const documentOperations: Operations = {
  postMisscutDocCheckV1Doc2html: async (request, reply) => {
    const { uid } = await caller(request);
    const { file } = request.body;
    const part = filePart(file);
    const input = { filename: part.filename, data: part.data };
    return reply.type(JSON_TYPE).send(await request.server.heavy.runJson('doc2html', input, { owner: uid }));
  },

  postMisscutDocCheckV1Html2docStream: async (request, reply) => {
    const { uid } = await caller(request);
    const { html, name, title } = request.body;
    checkHtmlSize(request, html);
    const out = await request.server.heavy.run('clean', { html, title: title ?? name }, { owner: uid });
    const buffer = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
    const base = (name ?? title ?? '文档').replace(/[\\/:*?"<>|\r\n]+/g, '_');
    return reply
      .type(DOCX_MIME)
      .header('content-disposition', attachment(/\.docx$/i.test(base) ? base : `${base}.docx`))
      .send(buffer);
  },

  getMisscutV1DocTemplateTypes: async (request) => {
    await caller(request);
    const lang = requestLang(request);
    return envelope(
      loadTemplates(request.server.config.paths.formatTemplates).map((t) => ({
        id: t.id,
        key: t.key,
        ...localize(lang, { name: t.name, description: t.description ?? '' }, t.i18n),
      })),
    );
  },

  postMisscutV1DocFormatCheck: async (request, reply) => {
    const { uid } = await caller(request);
    const body = request.body;
    const file = filePart(body.file);
    const templates = loadTemplates(request.server.config.paths.formatTemplates);
    const template =
      body.template_id !== undefined ? templates.find((t) => t.id === Number(body.template_id)) : templates[0];
    if (!template) throw notFound('format.unknown_template');
    const lang = requestLang(request);
    const report = await request.server.heavy.runJson(
      'formatCheck',
      // hk: the cn report, converted below
      { filename: file.filename, data: file.data, template, lang: lang === 'en' ? 'en' : 'cn' },
      { owner: uid },
    );
    if (lang === 'cn') return reply.type(JSON_TYPE).send(report);
    // (the envelope the worker made: read back only for another language)
    const answer = JSON.parse(report.toString('utf8')) as { result: FormatReport };
    return reply.type(JSON_TYPE).send({ ...answer, result: localizeFormatReport(answer.result, template, lang) });
  },

  postMisscutV1DocDiff: compare,
};

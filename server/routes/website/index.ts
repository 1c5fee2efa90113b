import { nowIso, isUniqueViolation } from '../../db';
import {
  deleteOwnedWebsite,
  findOwnedWebsite,
  findWebsitePage,
  insertWebsite,
  updateIdleWebsite,
} from '../../db/repos/websites';
import { badRequest, conflict, envelope, notFound } from '../../errors';
import { toCsv } from '../../domain/dictionaries/import';
import { startWebsiteCheck, websiteView, type WebsiteView } from '../../formats/web/checks';
import { FetchRefused, parsePageUrl } from '../../formats/web/fetch';
import { attachment, caller, type Operations } from '../types';

/**
 * Link proofreading (spec §7 /misscut/website/*): a user's websites, each checked on demand by a job of the job runner
 * (server/jobs/kinds/website.ts); the report of the last check downloads as CSV.
 */

const DEFAULT_PAGE_LIMIT = 10;

/** A URL as stored: parsed, http(s) only, no credentials or fragment. */
function cleanUrl(text: string): string {
  try {
    return parsePageUrl(text).href;
  } catch (error) {
    if (error instanceof FetchRefused) throw badRequest(error.code, error.params);
    throw error;
  }
}

const cleanName = (name: string | undefined, url: string) => {
  const clean = name?.replace(/[\u0000-\u001f]/g, '').trim();
  if (clean) return clean;
  const u = new URL(url);
  return `${u.host}${u.pathname === '/' ? '' : u.pathname}`.slice(0, 100);
};

/** Where each finding is on the page: the heading it falls under and a link that scrolls to its text. */
function contextOf(text: string, start: number, end: number): string {
  const from = Math.max(text.lastIndexOf('\n', start - 1) + 1, start - 20);
  const lineEnd = text.indexOf('\n', end);
  const to = Math.min(lineEnd === -1 ? text.length : lineEnd, end + 20);
  return text.slice(from, to);
}

function reportRows(site: WebsiteView): Array<Array<string | number>> {
  const rows: Array<Array<string | number>> = [
    [
      '页面 page',
      '标题 heading',
      '原文 original',
      '建议 suggestions',
      '类别 category',
      '说明 message',
      '上下文 context',
    ],
  ];
  for (const page of site.last_result?.pages ?? []) {
    for (const issue of page.issues) {
      const heading = page.headings.filter((h) => h.start <= issue.start).at(-1)?.text ?? page.title;
      rows.push([
        page.url,
        heading,
        issue.original,
        issue.suggestions.join(' / '),
        issue.category,
        issue.message,
        contextOf(page.text, issue.start, issue.end),
      ]);
    }
  }
  return rows;
}

export const websiteOperations: Operations = {
  postMisscutWebsiteAddOne: async (request) => {
    const { uid } = await caller(request);
    const body = request.body;
    const url = cleanUrl(body.url);
    const now = nowIso();
    let id: number;
    try {
      id = await insertWebsite(request.server.db, {
        uid,
        url,
        name: cleanName(body.name, url),
        depth: body.depth ?? 0,
        page_limit: body.page_limit ?? DEFAULT_PAGE_LIMIT,
        status: 'idle',
        progress: 0,
        created_at: now,
        updated_at: now,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('website.duplicate');
      throw error;
    }
    return envelope(websiteView((await findOwnedWebsite(request.server.db, id, uid))!));
  },

  getMisscutWebsiteGetList: async (request) => {
    const { uid } = await caller(request);
    const num = request.query.num ?? 1;
    const size = request.query.size ?? 20;
    const { total, rows } = await findWebsitePage(request.server.db, uid, { num, size });
    return envelope({ total, num, size, list: rows.map(websiteView) });
  },

  postMisscutWebsiteUpdateOne: async (request) => {
    const { uid } = await caller(request);
    const { db } = request.server;
    const body = request.body;
    const row = await findOwnedWebsite(db, body.id, uid);
    if (!row) throw notFound('website.unknown');
    const url = body.url !== undefined ? cleanUrl(body.url) : row.url;
    const values = {
      url,
      // a new address without a new name takes the address's name when the old name was the old address's
      name:
        body.name !== undefined || (body.url !== undefined && row.name === cleanName(undefined, row.url))
          ? cleanName(body.name, url)
          : row.name,
      depth: body.depth ?? Number(row.depth),
      page_limit: body.page_limit ?? Number(row.page_limit),
      // another address's result is not this one's
      ...(url !== row.url && { last_result: null, last_checked_at: null, status: 'idle' as const }),
      updated_at: nowIso(),
    };
    let updated: boolean;
    try {
      updated = await updateIdleWebsite(db, body.id, uid, values);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('website.duplicate');
      throw error;
    }
    if (!updated) throw conflict('website.running');
    return envelope(websiteView((await findOwnedWebsite(db, body.id, uid))!));
  },

  postMisscutWebsiteDeleteOne: async (request) => {
    const { uid } = await caller(request);
    const { db, jobs } = request.server;
    if (!(await findOwnedWebsite(db, request.body.id, uid))) throw notFound('website.unknown');
    // a running check stops first; what it was charged is given back, then the row goes
    await jobs.remove('website', request.body.id, 'website.cancelled_refund');
    if (!(await deleteOwnedWebsite(db, request.body.id, uid))) throw notFound('website.unknown');
    return envelope(null);
  },

  postMisscutWebsiteCheck: async (request) => {
    const { uid } = await caller(request);
    // counted like text checks: a check is at least one
    await request.server.limiters.checkText(request, uid);
    return envelope(websiteView(await startWebsiteCheck(request.server, uid, request.body.id)));
  },

  getMisscutWebsiteDownload: async (request, reply) => {
    const { uid } = await caller(request);
    const row = await findOwnedWebsite(request.server.db, request.query.id, uid);
    if (!row) throw notFound('website.unknown');
    const site = websiteView(row);
    if (!site.last_result) throw conflict('website.no_result');
    const date = (site.last_checked_at ?? nowIso()).slice(0, 10);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', attachment(`${site.name}-校对报告-${date}.csv`))
      .send(toCsv(reportRows(site)));
  },
};

import type { FastifyInstance } from 'fastify';
import { checkLanguage } from '../../../engine/script';
import type { WebsiteProgressData } from '../../../openapi/socket-protocol';
import { nowIso, type Db } from '../../db';
import { findWebsite, updateWebsite, type WebsiteRecord } from '../../db/repos/websites';
import { checkService, splitUnits } from '../../workers/checker/jobs';
import {
  consumeRight,
  countChars,
  InsufficientRight,
  rightBalance,
  Right,
  type Consumption,
} from '../../domain/rights/ledger';
import { recordCheck } from '../../domain/teams/metrics';
import { crawl, CrawlAborted, type CrawledPage, type SkippedPage } from '../../formats/web/crawl';
import type { PageText } from '../../formats/web/extract';
import { FetchRefused } from '../../formats/web/fetch';
import { fitText, headingOffsets, type WebsitePage, type WebsiteResult } from '../../formats/web/checks';
import { reserveJobCharge } from '../store';
import { endedColumns, endedFields, JobFailure, type JobContext, type JobHandler } from '../runner';
import { checkJobUnit, checkJobUnits } from '../units';
import { Socket } from '../../../openapi/socket-protocol';

/**
 * Website checks (link proofreading): the site's pages are read (formats/web/crawl.ts, their text extracted in the
 * heavy pool) up to the owner's right 32 (web characters per check); right 1 (high-speed characters) is charged by
 * that text once, reserved on the job; each page's paragraphs are checked in the checker pool with the owner's
 * dictionaries and the findings stored as the website's `last_result`. Progress goes to every session of the owner
 * (socket type 2 cmd 8). A check taken up again reads the site again, charged no more than its first reservation.
 */

/** All standard check families (the contract's default checkOptions). */
const ALL_STANDARD = 127;
/** Progress given to reading the pages; checking them takes the rest. */
const READ_SHARE = 50;

interface ReadPage {
  url: string;
  page: PageText;
  text: string;
}

const send = (app: FastifyInstance, uid: number, data: WebsiteProgressData) =>
  app.realtime.sendToUser(uid, { ...Socket.WebsiteProgress, status: 200, data });

const update = (db: Db, id: number, values: Parameters<typeof updateWebsite>[2]) =>
  updateWebsite(db, id, { ...values, updated_at: nowIso() });

/** The job was stopped (cancelled, taken over) while its charge was being taken: the charge is rolled back. */
class NotHeld extends Error {}

export const websiteJobs: JobHandler = {
  kind: 'website',

  async run(ctx) {
    const { app, job, signal } = ctx;
    const [db, id, uid] = [app.db, Number(job.ref), Number(job.uid)];
    const site = await findWebsite(db, id);
    if (!site || signal.aborted) return null;
    await update(db, id, { status: 'running', progress: 0, error: null, error_code: null, error_params: null });
    send(app, uid, { id, status: 'running', progress: 0, pages_done: 0, page_count: 0, issue_count: 0 });
    // a start before this one charged the check: this one reads no more than was charged
    const reserved = job.charge_state === 'reserved' && job.charge ? (JSON.parse(job.charge) as Consumption) : null;
    const budget = reserved ? reserved.amount : await rightBalance(db, uid, Right.perCheckMax);
    const read = await readSite(ctx, site, budget);
    if (!read || signal.aborted) return null;
    if (read.chars === 0) throw new JobFailure('web.no_text');
    // charged once: an operator's retry of a refunded check charges nothing more
    if (job.charge_state === 'none' && !(await charge(ctx, read.chars))) return null;
    if (!(await ctx.progress(READ_SHARE))) return null;
    await update(db, id, { progress: READ_SHARE });
    const result = await checkPages(ctx, read);
    if (!result || signal.aborted) return null;
    const done = { status: 'done' as const, progress: 100, last_result: JSON.stringify(result) };
    return {
      async store(trx) {
        await update(trx, id, { ...done, last_checked_at: nowIso() });
      },
      async announce() {
        const issues = result.pages.flatMap((p) => p.issues);
        await recordCheck(db, { uid, kind: 'website', chars: read.chars, issues }).catch((err: unknown) =>
          app.log.error({ err, website: id }, 'website check not recorded'),
        );
        const { page_count: pages, issue_count: found } = result;
        send(app, uid, { id, status: 'done', progress: 100, pages_done: pages, page_count: pages, issue_count: found });
      },
    };
  },

  // the contract knows no cancelled website: a cancelled check reads as failed, with the cancel's message
  async endRow(db, job, _state, reason) {
    await update(db, Number(job.ref), { status: 'failed', progress: 0, ...endedColumns(reason) });
  },

  async tellEnded(app, job, _state, reason) {
    send(app, Number(job.uid), {
      id: Number(job.ref),
      status: 'failed',
      progress: 0,
      pages_done: 0,
      page_count: 0,
      issue_count: 0,
      ...endedFields(reason),
    });
  },
};

/** Reads the site's pages within `budget` characters; null once the job is stopped. */
async function readSite(
  ctx: JobContext,
  site: WebsiteRecord,
  budget: number,
): Promise<{ pages: ReadPage[]; chars: number; truncated: boolean; skipped: SkippedPage[] } | null> {
  const { app, job, signal } = ctx;
  const { config } = app;
  const id = Number(site.id);
  const uid = Number(job.uid);
  // the page being fetched is dropped and the page being read in the heavy pool stopped when the job stops
  const controller = new AbortController();
  const reader: { onAbort?: () => void } = {};
  signal.onAbort = () => {
    controller.abort();
    reader.onAbort?.();
  };
  const pages: ReadPage[] = [];
  let chars = 0;
  let truncated = false;
  let lastProgress = 0;
  let lastSent = 0;
  try {
    const { skipped } = await crawl(
      { url: site.url, depth: Number(site.depth), pageLimit: Number(site.page_limit) },
      {
        fetchOptions: {
          allow: config.web.allow,
          maxBytes: config.web.maxBytes,
          timeoutMs: config.web.timeoutMs,
          maxRedirects: config.web.maxRedirects,
          accept: [],
          signal: controller.signal,
        },
        crawlDelayMs: config.web.crawlDelayMs,
        read: (input) => app.heavy.run('readPage', input, { background: true, signal: reader }),
        aborted: () => signal.aborted,
        accept: (crawled: CrawledPage) => {
          let text = crawled.page.text;
          if (countChars(text) > budget - chars) {
            text = fitText(text, budget - chars);
            truncated = true;
          }
          if (text.trim()) {
            pages.push({ url: crawled.url, page: crawled.page, text });
            chars += countChars(text);
          }
          return !truncated;
        },
        onPage: (done, waiting) => {
          const total = Math.min(Number(site.page_limit), done + waiting) || 1;
          const progress = Math.min(READ_SHARE, Math.floor((done / total) * READ_SHARE));
          if (progress <= lastProgress && waiting > 0) return;
          lastProgress = progress;
          send(app, uid, { id, status: 'running', progress, pages_done: 0, page_count: done, issue_count: 0 });
          const now = Date.now();
          if (now - lastSent < ctx.progressIntervalMs) return;
          lastSent = now;
          // a job cancelled elsewhere finds out here and stops
          void ctx.progress(progress).catch(() => {});
        },
      },
    );
    return signal.aborted ? null : { pages, chars, truncated, skipped };
  } catch (error) {
    if (signal.aborted || error instanceof CrawlAborted) return null;
    // the site cannot be read (refused address, HTTP error, robots.txt): about the input, not retried
    if (error instanceof FetchRefused) throw new JobFailure(error.code, error.params);
    throw error;
  } finally {
    signal.onAbort = undefined;
  }
}

/** Takes the characters from right 1, reserved on the job; false once the job is no longer this process's. */
async function charge({ app, job }: JobContext, chars: number): Promise<boolean> {
  const owner = app.instance.id;
  const uid = Number(job.uid);
  try {
    await consumeRight(app.db, uid, Right.highSpeedChars, chars, '网页校对', `website:${job.ref}`, async (trx, c) => {
      if (!(await reserveJobCharge(trx, job.id, owner, JSON.stringify(c)))) throw new NotHeld();
    });
    return true;
  } catch (error) {
    if (error instanceof NotHeld) return false;
    if (!(error instanceof InsufficientRight)) throw error;
    if (error.available <= 0) throw new JobFailure('check.exhausted');
    throw new JobFailure('check.not_enough', { available: error.available, needed: chars });
  }
}

/** Findings of every page (cache first), with progress; null when stopped. */
async function checkPages(
  ctx: JobContext,
  read: { pages: ReadPage[]; chars: number; truncated: boolean; skipped: SkippedPage[] },
): Promise<WebsiteResult | null> {
  const { app, job, signal } = ctx;
  const id = Number(job.ref);
  const uid = Number(job.uid);
  const service = checkService(app);
  // a site in traditional characters is checked as such (its pages' text says which)
  const lang = checkLanguage(read.pages.map((p) => p.text.slice(0, 5000)).join('\n'));
  const prepared = await service.prepare(uid, 3, ALL_STANDARD, lang);
  const total = read.pages.length;
  let found = 0;
  const results: WebsitePage[] = [];
  for (const [index, { url, page, text }] of read.pages.entries()) {
    const issues = await checkJobUnits(ctx, splitUnits(text), (unit) =>
      checkJobUnit(ctx, prepared, unit, () => new JobFailure('website.page_failed', { page: index + 1 })),
    );
    if (signal.aborted) return null;
    const flat = issues.flat().sort((a, b) => a.start - b.start || a.end - b.end);
    found += flat.length;
    results.push({ url, title: page.title, text, headings: headingOffsets(page, text), issues: flat });
    const done = results.length;
    const progress = Math.min(99, READ_SHARE + Math.floor((done / total) * (100 - READ_SHARE)));
    send(app, uid, { id, status: 'running', progress, pages_done: done, page_count: total, issue_count: found });
    if (!(await ctx.progress(progress))) return null;
  }
  const { chars, truncated, skipped } = read;
  return { page_count: total, issue_count: found, char_count: chars, truncated, pages: results, skipped };
}

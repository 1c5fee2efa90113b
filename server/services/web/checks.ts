/**
 * Website checks (link proofreading): a check reads the site's pages (crawl.ts), caps their text at the owner's
 * right 32 (web characters per check), charges right 1 (high-speed characters) by that text once, checks each
 * page's paragraphs in the shared checker pool with the owner's dictionaries, and stores the findings as the
 * website's `last_result`. Progress goes to every session of the owner (socket type 2 cmd 8).
 *
 * A check runs in the process that started it (`owner`); if that process stops, the check fails as interrupted and
 * its charge is refunded (on a graceful stop by the process itself, after a crash by the next sweep of another).
 */
import { checkLanguage } from '../../../engine/script';
import { recordCheck } from '../team-metrics';
import type { FastifyInstance } from 'fastify';
import type { MessageParams, ServerMessageCode } from '../../../openapi/messages';
import { isServerMessageCode, renderMessage } from '../../../openapi/messages';
import type { WebsiteProgressData } from '../../../openapi/socket-protocol';
import type { components } from '../../../openapi/schema';
import { nowIso } from '../../db';
import {
  clearWebsiteCharge,
  findOwnedWebsite,
  findWebsite,
  findWebsitesOfGone,
  updateIdleWebsite,
  updateRunningWebsite,
  type WebsiteRecord,
} from '../../db/repos/websites';
import { AppError, conflict, notFound, paymentRequired, tooManyRequests } from '../../errors';
import { checkService, splitUnits } from '../checker/jobs';
import {
  consumeRight,
  countChars,
  InsufficientRight,
  refundRight,
  refundStoredCharge,
  rightBalance,
  type Consumption,
  Right,
} from '../rights';
import { crawl, CrawlAborted, type CrawledPage, type SkippedPage } from './crawl';
import type { PageText } from './extract';
import { FetchRefused } from './fetch';

export type WebsiteView = components['schemas']['Website'];
type WebsiteResult = NonNullable<WebsiteView['last_result']>;
type WebsitePage = WebsiteResult['pages'][number];

/** All standard check families (the contract's default checkOptions). */
const ALL_STANDARD = 127;
/** Progress given to reading the pages; checking them takes the rest. */
const READ_SHARE = 50;
const UNIT_RETRIES = 1;
/** Website checks one user may have running at the same time (in this process). */
export const MAX_RUNNING_PER_USER = 2;
/** What a user over that bound is told to wait: a check of a small site takes about a minute. */
const RUNNING_RETRY_SECONDS = 60;

class CheckFailure extends Error {
  constructor(
    readonly code: ServerMessageCode,
    readonly params: MessageParams = {},
  ) {
    super(renderMessage(code, params));
  }
}

interface Active {
  id: number;
  uid: number;
  aborted: boolean;
  done: Promise<void>;
  /** drops the page being fetched */
  controller: AbortController;
  /** stops the reader worker while a page is being read */
  onAbort?: () => void;
}

const parse = <T>(json: string | null): T | null => (json ? (JSON.parse(json) as T) : null);

/** A website row as the contract shows it. */
export function websiteView(row: WebsiteRecord): WebsiteView {
  const params = parse<MessageParams>(row.error_params);
  return {
    id: Number(row.id),
    url: row.url,
    name: row.name,
    depth: Number(row.depth),
    page_limit: Number(row.page_limit),
    status: row.status,
    progress: Number(row.progress),
    ...(row.error !== null && { error: row.error }),
    ...(row.error_code !== null && isServerMessageCode(row.error_code) && { error_code: row.error_code }),
    ...(params && { error_params: params }),
    created_at: row.created_at,
    last_checked_at: row.last_checked_at,
    last_result: parse<WebsiteResult>(row.last_result),
  };
}

/** The lines of a page's text that fit in `budget` characters (whole lines; a first line alone is cut). */
function fitText(text: string, budget: number): string {
  const kept: string[] = [];
  let used = 0;
  for (const line of text.split('\n')) {
    const n = countChars(line);
    if (used + n <= budget) {
      kept.push(line);
      used += n;
      continue;
    }
    if (kept.length === 0) kept.push(cutChars(line, budget));
    break;
  }
  return kept.join('\n');
}

/** The first `n` non-white-space characters of a line (and the spaces between them). */
function cutChars(line: string, n: number): string {
  let count = 0;
  let i = 0;
  for (const ch of line) {
    if (!/\s/.test(ch)) count++;
    if (count > n) break;
    i += ch.length;
  }
  return line.slice(0, i);
}

/** Each heading's UTF-16 offset in the page text (headings are given by line). */
function headingOffsets(page: PageText, text: string): WebsitePage['headings'] {
  const starts: number[] = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return page.headings.filter((h) => h.line < starts.length).map((h) => ({ start: starts[h.line], text: h.text }));
}

export class WebsiteChecks {
  private active = new Map<number, Active>();

  constructor(private readonly app: FastifyInstance) {}

  /** Starts a check of the user's website: 404 unknown, 409 already running, 402 no characters left. */
  async start(uid: number, id: number): Promise<WebsiteRecord> {
    const { db } = this.app;
    const row = await findOwnedWebsite(db, id, uid);
    if (!row) throw notFound('website.unknown');
    // each check reads up to 50 pages of someone's site: a few at a time per user, not every site at once
    const running = [...this.active.values()].filter((job) => job.uid === uid).length;
    if (running >= MAX_RUNNING_PER_USER)
      throw tooManyRequests(RUNNING_RETRY_SECONDS, 'website.too_many', { max: MAX_RUNNING_PER_USER });
    if ((await rightBalance(db, uid, Right.highSpeedChars)) <= 0) throw paymentRequired('check.exhausted');
    const claimed = await updateIdleWebsite(db, id, uid, {
      status: 'queued',
      progress: 0,
      error: null,
      error_code: null,
      error_params: null,
      owner: this.app.instance.id,
      charge: null,
      updated_at: nowIso(),
    });
    if (!claimed) throw conflict('website.running');
    const job: Active = { id, uid, aborted: false, done: Promise.resolve(), controller: new AbortController() };
    this.active.set(id, job);
    job.done = this.run(job)
      .catch((error) => this.app.log.error({ err: error, website: id }, 'website check crashed'))
      .finally(() => this.active.delete(id));
    return (await findOwnedWebsite(db, id, uid))!;
  }

  /** Stops a running check (the website is being deleted) and waits until it no longer writes. */
  async abort(id: number): Promise<void> {
    const job = this.active.get(id);
    if (!job) return;
    job.aborted = true;
    job.controller.abort();
    job.onAbort?.();
    checkService(this.app).cancelGroup(group(id));
    await job.done;
  }

  /** Gives back what a stopped check was charged (once, whichever process asks first): the website is going. */
  async release(id: number): Promise<void> {
    const row = await findWebsite(this.app.db, id);
    await refundStoredCharge(
      this.app.db,
      row?.charge ?? null,
      (charge) => clearWebsiteCharge(this.app.db, id, charge),
      '网页校对取消退回',
    );
  }

  /** Server stop: running checks end as interrupted, refunded. */
  async close(): Promise<void> {
    const jobs = [...this.active.values()];
    await Promise.all(jobs.map((job) => this.abort(job.id)));
    for (const job of jobs) await this.fail(job.id, job.uid, { code: 'website.interrupted' }).catch(() => {});
  }

  /** Checks whose process is gone end as interrupted, refunded (the instance sweep). */
  async sweep(alive: string[]): Promise<void> {
    for (const row of await findWebsitesOfGone(this.app.db, alive)) {
      if (this.active.has(Number(row.id))) continue;
      await this.fail(Number(row.id), Number(row.uid), { code: 'website.interrupted' }, row.owner);
    }
  }

  private progress(uid: number, data: WebsiteProgressData): void {
    this.app.realtime.sendToUser(uid, { type: 2, cmd: 8, status: 200, data });
  }

  private async run(job: Active): Promise<void> {
    const { db, config } = this.app;
    const owner = this.app.instance.id;
    const site = await findWebsite(db, job.id);
    if (!site || job.aborted) return;
    const write = (values: Parameters<typeof updateRunningWebsite>[3]) =>
      updateRunningWebsite(db, job.id, owner, { ...values, updated_at: nowIso() });
    try {
      await write({ status: 'running' });
      this.progress(job.uid, {
        id: job.id,
        status: 'running',
        progress: 0,
        pages_done: 0,
        page_count: 0,
        issue_count: 0,
      });
      const budget = await rightBalance(db, job.uid, Right.perCheckMax);
      const pages: Array<{ url: string; page: PageText; text: string }> = [];
      let chars = 0;
      let truncated = false;
      let lastProgress = 0;
      const { skipped } = await crawl(
        { url: site.url, depth: Number(site.depth), pageLimit: Number(site.page_limit) },
        {
          fetchOptions: {
            allow: config.web.allow,
            maxBytes: config.web.maxBytes,
            timeoutMs: config.web.timeoutMs,
            maxRedirects: config.web.maxRedirects,
            accept: [],
            signal: job.controller.signal,
          },
          crawlDelayMs: config.web.crawlDelayMs,
          read: (input) => this.app.heavy.run('readPage', input, { background: true, signal: job }),
          aborted: () => job.aborted,
          accept: (crawled: CrawledPage) => {
            const left = budget - chars;
            let text = crawled.page.text;
            const n = countChars(text);
            if (n > left) {
              text = fitText(text, left);
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
            this.progress(job.uid, {
              id: job.id,
              status: 'running',
              progress,
              pages_done: 0,
              page_count: done,
              issue_count: 0,
            });
          },
        },
      );
      if (job.aborted) return;
      if (chars === 0) throw new CheckFailure('web.no_text');
      const consumption = await this.charge(job, chars);
      if (!(await write({ charge: JSON.stringify(consumption), progress: READ_SHARE }))) {
        // deleted or taken over meanwhile: nothing may stay charged
        await refundRight(db, consumption, consumption.amount, '网页校对中断退回');
        return;
      }
      const result = await this.check(job, pages, truncated, chars, skipped);
      if (!result || job.aborted) return;
      const finished = await write({
        status: 'done',
        progress: 100,
        charge: null,
        owner: null,
        last_result: JSON.stringify(result),
        last_checked_at: nowIso(),
      });
      if (!finished) return;
      await recordCheck(db, {
        uid: job.uid,
        kind: 'website',
        chars,
        issues: result.pages.flatMap((p) => p.issues),
      }).catch((err: unknown) => this.app.log.error({ err, website: job.id }, 'website check not recorded'));
      this.progress(job.uid, {
        id: job.id,
        status: 'done',
        progress: 100,
        pages_done: result.page_count,
        page_count: result.page_count,
        issue_count: result.issue_count,
      });
    } catch (error) {
      if (job.aborted || error instanceof CrawlAborted) return;
      let reason: { code: ServerMessageCode; params?: MessageParams } = { code: 'website.failed' };
      if (error instanceof CheckFailure) reason = { code: error.code, params: error.params };
      else if (error instanceof AppError) reason = { code: error.msgCode, params: error.msgParams };
      else if (error instanceof FetchRefused) reason = { code: error.code, params: error.params };
      else this.app.log.error({ err: error, website: job.id }, 'website check failed');
      await this.fail(job.id, job.uid, reason, owner);
    }
  }

  /** Takes the characters from right 1, or fails the check saying how many were missing. */
  private async charge(job: Active, chars: number): Promise<Consumption> {
    try {
      return await consumeRight(this.app.db, job.uid, Right.highSpeedChars, chars, '网页校对', `website:${job.id}`);
    } catch (error) {
      if (!(error instanceof InsufficientRight)) throw error;
      if (error.available <= 0) throw new CheckFailure('check.exhausted');
      throw new CheckFailure('check.not_enough', { available: error.available, needed: chars });
    }
  }

  /** Findings of every page (cache first), with progress; null when stopped. */
  private async check(
    job: Active,
    pages: Array<{ url: string; page: PageText; text: string }>,
    truncated: boolean,
    chars: number,
    skipped: SkippedPage[],
  ): Promise<WebsiteResult | null> {
    const service = checkService(this.app);
    // a site in traditional characters is checked as such (its pages' text says which)
    const lang = checkLanguage(pages.map((p) => p.text.slice(0, 5000)).join('\n'));
    const prepared = await service.prepare(job.uid, 3, ALL_STANDARD, lang);
    const total = pages.length;
    let done = 0;
    let found = 0;
    const results: WebsitePage[] = [];
    for (const [index, { url, page, text }] of pages.entries()) {
      const units = splitUnits(text);
      const issues = await Promise.all(
        units.map(async (unit) => {
          for (let attempt = 0; ; attempt++) {
            try {
              const found = await service.checkUnit(prepared, unit, group(job.id));
              return found.map((i) => ({ ...i, start: i.start + unit.offset, end: i.end + unit.offset }));
            } catch (error) {
              if (job.aborted) return [];
              if (attempt >= UNIT_RETRIES) {
                this.app.log.warn({ err: error, website: job.id, page: url }, 'web page not checked');
                throw new CheckFailure('website.page_failed', { page: index + 1 });
              }
            }
          }
        }),
      ).catch((error) => {
        service.cancelGroup(group(job.id));
        throw error;
      });
      if (job.aborted) return null;
      const flat = issues.flat().sort((a, b) => a.start - b.start || a.end - b.end);
      done++;
      found += flat.length;
      results.push({ url, title: page.title, text, headings: headingOffsets(page, text), issues: flat });
      const progress = Math.min(99, READ_SHARE + Math.floor((done / total) * (100 - READ_SHARE)));
      this.progress(job.uid, {
        id: job.id,
        status: 'running',
        progress,
        pages_done: done,
        page_count: total,
        issue_count: found,
      });
    }
    return { page_count: total, issue_count: found, char_count: chars, truncated, pages: results, skipped };
  }

  /** Ends a check as failed, refunds its charge (once, whoever races) and tells the owner. */
  private async fail(
    id: number,
    uid: number,
    reason: { code: ServerMessageCode; params?: MessageParams },
    owner: string | null = this.app.instance.id,
  ): Promise<void> {
    const { db } = this.app;
    const row = await findWebsite(db, id);
    if (!row || (row.status !== 'queued' && row.status !== 'running') || row.owner !== owner) return;
    const params = reason.params ?? {};
    const hasParams = Object.keys(params).length > 0;
    const error = renderMessage(reason.code, params);
    await refundStoredCharge(db, row.charge, (charge) => clearWebsiteCharge(db, id, charge), '网页校对失败退回');
    const ended = await updateRunningWebsite(db, id, owner, {
      status: 'failed',
      progress: 0,
      owner: null,
      error,
      error_code: reason.code,
      error_params: hasParams ? JSON.stringify(params) : null,
      updated_at: nowIso(),
    });
    if (!ended) return;
    this.progress(uid, {
      id,
      status: 'failed',
      progress: 0,
      pages_done: 0,
      page_count: 0,
      issue_count: 0,
      error,
      error_code: reason.code,
      ...(hasParams && { error_params: params }),
    });
  }
}

const group = (id: number) => `web:${id}`;

/**
 * Website checks (link proofreading): a check is a job of the job runner (server/jobs/kinds/website.ts); here is
 * how one is started and how a website and its last result read in the contract.
 */
import type { MessageParams } from '../../../openapi/messages';
import { isServerMessageCode } from '../../../openapi/messages';
import type { components } from '../../../openapi/schema';
import type { FastifyInstance } from 'fastify';
import { nowIso } from '../../db';
import { findOwnedWebsite, updateIdleWebsite, type WebsiteRecord } from '../../db/repos/websites';
import { conflict, notFound, paymentRequired, tooManyRequests } from '../../errors';
import { countUnfinishedJobs, submitJob } from '../../jobs/store';
import { countChars, rightBalance, Right } from '../../domain/rights/ledger';
import type { PageText } from './extract';

export type WebsiteView = components['schemas']['Website'];
export type WebsiteResult = NonNullable<WebsiteView['last_result']>;
export type WebsitePage = WebsiteResult['pages'][number];

/** Website checks one user may have queued or running at the same time. */
export const MAX_RUNNING_PER_USER = 2;
/** What a user over that bound is told to wait: a check of a small site takes about a minute. */
const RUNNING_RETRY_SECONDS = 60;

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
export function fitText(text: string, budget: number): string {
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
export function headingOffsets(page: PageText, text: string): WebsitePage['headings'] {
  const starts: number[] = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return page.headings.filter((h) => h.line < starts.length).map((h) => ({ start: starts[h.line], text: h.text }));
}

/** Queues a check of the user's website: 404 unknown, 429 too many of theirs running, 402 nothing left, 409 busy. */
export async function startWebsiteCheck(app: FastifyInstance, uid: number, id: number): Promise<WebsiteRecord> {
  const { db } = app;
  if (!(await findOwnedWebsite(db, id, uid))) throw notFound('website.unknown');
  // each check reads up to 50 pages of someone's site: a few at a time per user, not every site at once
  if ((await countUnfinishedJobs(db, 'website', uid)) >= MAX_RUNNING_PER_USER)
    throw tooManyRequests(RUNNING_RETRY_SECONDS, 'website.too_many', { max: MAX_RUNNING_PER_USER });
  if ((await rightBalance(db, uid, Right.highSpeedChars)) <= 0) throw paymentRequired('check.exhausted');
  const queued = await db.transaction().execute(async (trx) => {
    const idle = await updateIdleWebsite(trx, id, uid, {
      status: 'queued',
      progress: 0,
      error: null,
      error_code: null,
      error_params: null,
      updated_at: nowIso(),
    });
    if (idle) await submitJob(trx, 'website', id, uid);
    return idle;
  });
  if (!queued) throw conflict('website.running');
  app.jobs.enqueue();
  return (await findOwnedWebsite(db, id, uid))!;
}

/**
 * Reading a website for a check: the first page, then (with depth > 0) same-site links breadth first, up to the
 * page limit, each linked page only as the site's robots.txt allows, and at a polite pace per host (the configured
 * delay, or the robots.txt Crawl-delay when it asks for more, up to 30 s). Fetching is I/O on the event loop; the
 * page's text is extracted in the heavy pool.
 */
import robotsParser from 'robots-parser';
import { renderMessage, type MessageParams, type ServerMessageCode } from '../../../openapi/messages';
import { fetchPage, FetchRefused, USER_AGENT, type FetchOptions } from './fetch';
import type { PageText } from './extract';

export interface CrawlSite {
  url: string;
  depth: number;
  pageLimit: number;
}

export interface CrawledPage {
  url: string;
  page: PageText;
}

export interface SkippedPage {
  url: string;
  /** the reason in the source language */
  error: string;
  error_code: ServerMessageCode;
  error_params?: MessageParams;
}

export interface CrawlHooks {
  fetchOptions: FetchOptions;
  crawlDelayMs: number;
  /** extracts a fetched page's text (the heavy pool) */
  read(input: { body: Uint8Array; charset: string | null; mediaType: string; url: string }): Promise<PageText>;
  /** a page was read or skipped: pages read so far and pages still waiting */
  onPage(done: number, waiting: number): void;
  /** true once the check is stopped */
  aborted(): boolean;
  /** a page's text was read: false stops the crawl (the character budget is spent) */
  accept(page: CrawledPage): boolean;
}

/** The longest Crawl-delay honoured; a site asking for more is read at this pace. */
const MAX_ROBOTS_DELAY_MS = 30_000;
const PAGE_TYPES = ['text/html', 'application/xhtml+xml', 'text/plain'] as const;

type Robots = ReturnType<typeof robotsParser>;

/** A stopped crawl (the check was cancelled or deleted). */
export class CrawlAborted extends Error {}

export async function crawl(site: CrawlSite, hooks: CrawlHooks): Promise<{ skipped: SkippedPage[] }> {
  const queue: Array<{ url: string; depth: number }> = [{ url: site.url, depth: 0 }];
  const seen = new Set([site.url]);
  const skipped: SkippedPage[] = [];
  const robots = new Map<string, Robots | null>();
  const lastAnswer = new Map<string, number>();
  let read = 0;

  const pace = async (origin: string, rules: Robots | null) => {
    const robotsDelay = Math.min(MAX_ROBOTS_DELAY_MS, (rules?.getCrawlDelay(USER_AGENT) ?? 0) * 1000);
    const delay = Math.max(hooks.crawlDelayMs, robotsDelay);
    const last = lastAnswer.get(origin);
    if (last !== undefined) {
      const wait = last + delay - Date.now();
      if (wait > 0) await sleep(wait, hooks.aborted);
    }
  };
  // The pause is counted from the end of the host's last answer, not from when it was asked: a slow connection or
  // a long answer would otherwise leave the next request right behind it.
  const answered = (origin: string) => lastAnswer.set(origin, Date.now());

  const rulesOf = async (origin: string): Promise<Robots | null> => {
    if (robots.has(origin)) return robots.get(origin) ?? null;
    let rules: Robots | null;
    try {
      await pace(origin, null);
      const file = await fetchPage(`${origin}/robots.txt`, {
        ...hooks.fetchOptions,
        accept: ['text/plain'],
        maxBytes: Math.min(hooks.fetchOptions.maxBytes, 512 * 1024),
      }).finally(() => answered(origin));
      rules = robotsParser(`${origin}/robots.txt`, file.body.toString('utf8'));
    } catch (error) {
      // no robots.txt (4xx) allows everything; a site that cannot answer for it (5xx, unreachable) allows nothing
      // beyond the page the user named, as the robots.txt standard (RFC 9309) asks
      const missing =
        error instanceof FetchRefused &&
        ((error.code === 'web.http_status' && Number(error.params.status) < 500) || error.code === 'web.not_html');
      rules = missing
        ? robotsParser(`${origin}/robots.txt`, '')
        : robotsParser(`${origin}/robots.txt`, 'User-agent: *\nDisallow: /');
    }
    robots.set(origin, rules);
    return rules;
  };

  while (queue.length && read < site.pageLimit) {
    if (hooks.aborted()) throw new CrawlAborted();
    const next = queue.shift()!;
    const origin = new URL(next.url).origin;
    const first = next.depth === 0;
    // the page the user named is read as a browser would; linked pages only as robots.txt allows
    const rules = first ? null : await rulesOf(origin);
    if (rules && rules.isAllowed(next.url, USER_AGENT) === false) {
      skipped.push(skip(next.url, 'web.robots'));
      hooks.onPage(read, queue.length);
      continue;
    }
    let text: PageText;
    let finalUrl: string;
    try {
      await pace(origin, rules);
      if (hooks.aborted()) throw new CrawlAborted();
      const fetched = await fetchPage(next.url, { ...hooks.fetchOptions, accept: PAGE_TYPES }).finally(() =>
        answered(origin),
      );
      finalUrl = fetched.url;
      text = await hooks.read({
        body: fetched.body,
        charset: fetched.charset,
        mediaType: fetched.mediaType,
        url: fetched.url,
      });
    } catch (error) {
      if (error instanceof CrawlAborted || hooks.aborted()) throw new CrawlAborted();
      // the named page failing fails the check; a linked page failing is listed and the crawl goes on
      if (first || !(error instanceof FetchRefused)) throw error;
      skipped.push(skip(next.url, error.code, error.params));
      hooks.onPage(read, queue.length);
      continue;
    }
    if (hooks.aborted()) throw new CrawlAborted();
    if (!text.text.trim()) {
      if (!first) skipped.push(skip(finalUrl, 'web.no_text'));
      hooks.onPage(read, queue.length);
      continue;
    }
    read++;
    const more = hooks.accept({ url: finalUrl, page: text });
    hooks.onPage(read, queue.length);
    if (!more) break;
    if (next.depth < site.depth) {
      const host = new URL(finalUrl).host;
      for (const link of text.links) {
        if (seen.has(link) || new URL(link).host !== host) continue;
        seen.add(link);
        queue.push({ url: link, depth: next.depth + 1 });
      }
    }
  }
  return { skipped };
}

function skip(url: string, code: ServerMessageCode, params: MessageParams = {}): SkippedPage {
  return {
    url,
    error: renderMessage(code, params),
    error_code: code,
    ...(Object.keys(params).length ? { error_params: params } : {}),
  };
}

/** Waits, checking every 100 ms whether the crawl was stopped. */
async function sleep(ms: number, aborted: () => boolean): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (aborted()) throw new CrawlAborted();
    await new Promise((resolve) => setTimeout(resolve, Math.min(100, until - Date.now())));
  }
}

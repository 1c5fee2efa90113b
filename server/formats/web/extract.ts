/**
 * The readable text of a fetched web page: decoded by its charset (header, then meta, then UTF-8), the main text
 * found by Mozilla's Readability over linkedom's DOM, and kept as one line per block (headings, paragraphs, list
 * items, table cells) so findings can point to the page's place. Same-site links are listed for a crawl.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

export interface PageText {
  title: string;
  /** The text, one block per line. */
  text: string;
  /** The headings of the page in order, with the line each starts. */
  headings: Array<{ line: number; text: string }>;
  /** Same-site http(s) links of the page, without fragments, in order, once each. */
  links: string[];
}

const BLOCKS = 'h1,h2,h3,h4,h5,h6,p,li,blockquote,pre,td,th,dt,dd,figcaption,caption';

/** The page's bytes as text: the header's charset, else a meta charset in the first bytes, else UTF-8. */
export function decodePage(body: Buffer, headerCharset: string | null): string {
  const head = body.subarray(0, 2048).toString('latin1');
  const meta =
    /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1] ??
    /<meta[^>]+content\s*=\s*["'][^"']*charset=([\w-]+)/i.exec(head)?.[1];
  for (const label of [headerCharset, meta, 'utf-8']) {
    if (!label) continue;
    try {
      return new TextDecoder(label.toLowerCase() === 'gb2312' ? 'gbk' : label).decode(body);
    } catch {
      // an unknown label: try the next
    }
  }
  return body.toString('utf8');
}

const clean = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Lines of the block elements under root (nested blocks give their own text once: the innermost wins). */
function blockLines(root: Element): { lines: string[]; headings: Array<{ line: number; text: string }> } {
  const lines: string[] = [];
  const headings: Array<{ line: number; text: string }> = [];
  for (const el of root.querySelectorAll(BLOCKS)) {
    if (el.querySelector(BLOCKS)) continue;
    const text = clean(el.textContent ?? '');
    if (!text) continue;
    if (/^H[1-6]$/.test(el.tagName.toUpperCase())) headings.push({ line: lines.length, text });
    lines.push(text);
  }
  if (lines.length === 0) {
    const all = clean(root.textContent ?? '');
    if (all) lines.push(all);
  }
  return { lines, headings };
}

/** Reads a page: HTML through Readability (the whole body when it finds no article), plain text as it is. */
export function extractPage(source: string, mediaType: string, pageUrl: string): PageText {
  if (mediaType === 'text/plain') {
    const lines = source.split(/\r?\n/).map(clean).filter(Boolean);
    return { title: '', text: lines.join('\n'), headings: [], links: [] };
  }
  const { document } = parseHTML(source);
  const base = new URL(pageUrl);
  const links: string[] = [];
  const seen = new Set<string>();
  for (const a of document.querySelectorAll('a[href]')) {
    try {
      const url = new URL(a.getAttribute('href') ?? '', base);
      url.hash = '';
      if ((url.protocol === 'http:' || url.protocol === 'https:') && url.host === base.host && !seen.has(url.href)) {
        seen.add(url.href);
        links.push(url.href);
      }
    } catch {
      // not a URL
    }
  }
  const title = clean(document.querySelector('title')?.textContent ?? '');
  // Readability changes the document it reads: links and title were taken first
  const article = new Readability(document, { charThreshold: 100 }).parse();
  let root: Element | null = null;
  if (article?.content) root = parseHTML(`<html><body>${article.content}</body></html>`).document.body;
  // Readability changed the document: the whole body is read from a fresh parse when it found no article
  const { lines, headings } = blockLines(
    root && clean(root.textContent ?? '') ? root : parseHTML(source).document.body,
  );
  return { title: clean(article?.title ?? '') || title, text: lines.join('\n'), headings, links };
}

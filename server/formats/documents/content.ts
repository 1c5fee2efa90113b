import { isTag, isText, Text, type AnyNode, type ParentNode } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { badRequest } from '../../errors';
import type { components } from '../../../openapi/schema';
import type { TrackedParagraph, TrackedSegment } from './docx-export';
import { escapeHtml, sanitize } from './sanitize';
import { formatOf, type BlockFormat } from './docx-format';
import { BLOCK_TAGS } from '../../../openapi/document-blocks';

/**
 * A stored document's content is sanitised HTML plus its plain text. The text has one line per leaf block
 * of the HTML (p, h1-h6, li, pre, caption, blockquote, td/th, div without inner blocks; inline content
 * around inner blocks counts as its own block), in document order: text nodes concatenated, `<br>` as a
 * space, runs of white space collapsed to one space and trimmed; blocks without text are skipped. Findings
 * and fixes are UTF-16 offsets into that text (lines joined by `\n`), the same form `check_text` uses.
 */
export interface Block {
  /** the block's tag: p, h1 ... h6, li, td, th, pre ... */
  tag: string;
  text: string;
  /** the block's own formatting (its docx-format.ts classes), when it has any */
  format?: BlockFormat;
}

// (htmlparser2 types script and style elements apart from other tags: they are no blocks)
const isBlock = (n: AnyNode) => n.type === 'tag' && isTag(n) && BLOCK_TAGS.has(n.name);

function inlineText(nodes: AnyNode[]): string {
  let out = '';
  const walk = (list: AnyNode[]) => {
    for (const n of list) {
      if (isText(n)) out += n.data;
      else if (n.type === 'tag' && isTag(n)) {
        if (n.name === 'br') out += ' ';
        else walk(n.children);
      }
    }
  };
  walk(nodes);
  return out.replace(/[\s\u00a0]+/g, ' ').trim();
}

interface Run {
  tag: string;
  text: string;
  /** the container whose children [from, to) make the block */
  parent: ParentNode;
  from: number;
  to: number;
}

/** The runs of inline nodes that make the leaf blocks, in document order (blocks without text skipped). */
function blockRuns(root: ParentNode): Run[] {
  const runs: Run[] = [];
  const visit = (parent: ParentNode, tag: string) => {
    const nodes = parent.children;
    let from = 0;
    const flush = (to: number) => {
      const text = inlineText(nodes.slice(from, to));
      if (text) runs.push({ tag, text, parent, from, to });
    };
    nodes.forEach((n, i) => {
      if (isBlock(n) && isTag(n)) {
        flush(i);
        from = i + 1;
        visit(n, n.name);
      }
    });
    flush(nodes.length);
  };
  visit(root, 'p');
  return runs;
}

/** The leaf blocks of (already sanitised) HTML, as described above. */
export function htmlBlocks(html: string): Block[] {
  return blockRuns(parseDocument(html)).map(({ tag, text, parent }) => {
    const classes = isTag(parent) ? parent.attribs.class : undefined;
    return classes ? { tag, text, format: formatOf(classes) } : { tag, text };
  });
}

const VOID = new Set(['br', 'hr', 'img']);
const escapeAttr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

function serialize(nodes: AnyNode[]): string {
  let out = '';
  for (const n of nodes) {
    if (isText(n)) out += escapeHtml(n.data);
    else if (isTag(n)) {
      const attrs = Object.entries(n.attribs)
        .map(([k, v]) => ` ${k}="${escapeAttr(v)}"`)
        .join('');
      out += VOID.has(n.name) ? `<${n.name}${attrs}>` : `<${n.name}${attrs}>${serialize(n.children)}</${n.name}>`;
    }
  }
  return out;
}

/**
 * The HTML with the text of its leaf blocks replaced by `lines` (same count, else null): blocks whose text is
 * unchanged keep their inline formatting, changed ones become plain text, and the structure (lists, tables,
 * headings) stays as it was.
 */
export function replaceBlockTexts(html: string, lines: string[]): string | null {
  const root = parseDocument(html);
  const runs = blockRuns(root);
  if (runs.length !== lines.length) return null;
  // replace from the last run backwards so earlier indexes stay valid
  for (let i = runs.length - 1; i >= 0; i--) {
    const run = runs[i];
    if (run.text === lines[i]) continue;
    run.parent.children.splice(run.from, run.to - run.from, new Text(lines[i]));
  }
  return serialize(root.children);
}

export interface Content {
  html: string;
  text: string;
  blocks: Block[];
}

/** Content from HTML (sanitised here). */
export function contentFromHtml(html: string): Content {
  const clean = sanitize(html);
  const blocks = htmlBlocks(clean);
  return { html: clean, text: blocks.map((b) => b.text).join('\n'), blocks };
}

const HEADING = /^h[1-6]$/;

/**
 * Text normalised to the form of a stored document's `text` (each line's white-space runs collapsed to one
 * space and trimmed, empty lines dropped), with `map(offset)` taking an offset of the input to the output,
 * so fixes and ignored findings sent against the raw text land on the same characters.
 */
export function normalizeText(input: string): { text: string; map: (offset: number) => number } {
  const map = new Int32Array(input.length + 1);
  let out = '';
  let lineStart = 0;
  while (lineStart <= input.length) {
    let lineEnd = input.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = input.length;
    const hasText = /[^\s\u00a0]/.test(input.slice(lineStart, lineEnd));
    if (hasText && out.length) out += '\n';
    let pendingSpace = false;
    for (let i = lineStart; i < lineEnd; i++) {
      const ch = input[i];
      if (/[\s\u00a0]/.test(ch)) {
        if (out.length && !out.endsWith('\n')) pendingSpace = true;
        map[i] = out.length;
        continue;
      }
      if (pendingSpace) {
        out += ' ';
        pendingSpace = false;
      }
      map[i] = out.length;
      out += ch;
    }
    if (lineEnd < input.length) map[lineEnd] = out.length;
    lineStart = lineEnd + 1;
  }
  map[input.length] = out.length;
  return { text: out, map: (offset) => map[Math.max(0, Math.min(offset, input.length))] };
}

/**
 * Content from plain lines (normalised as `normalizeText`). With as many lines as the previous content has
 * blocks, each block gets its line in place (structure kept: lists, tables, headings; unchanged blocks keep
 * their emphasis). Otherwise each line becomes a paragraph, and a line equal to a previous heading stays
 * that heading.
 */
export function contentFromText(text: string, previousHtml = ''): Content {
  const lines = normalizeText(text).text.split('\n').filter(Boolean);
  const inPlace = previousHtml ? replaceBlockTexts(previousHtml, lines) : null;
  if (inPlace !== null) return contentFromHtml(inPlace);
  const headings = new Map(
    htmlBlocks(previousHtml)
      .filter((b) => HEADING.test(b.tag))
      .map((b) => [b.text, b.tag]),
  );
  const html = lines
    .map((line) => {
      const tag = headings.get(line) ?? 'p';
      return `<${tag}>${escapeHtml(line)}</${tag}>`;
    })
    .join('\n');
  return contentFromHtml(html);
}

export interface Fix {
  start: number;
  end: number;
  original: string;
  replacement: string;
  category?: string;
  message?: string;
}

export interface Ignored {
  start: number;
  end: number;
  original: string;
}

/** A finding as a document stores it: the contract's `Issue`. */
export type StoredIssue = components['schemas']['Issue'];

/** Checks accepted fixes against the saved text (400 with the first problem); returns them sorted. */
export function validateFixes(text: string, fixes: Fix[]): Fix[] {
  const sorted = [...fixes].sort((a, b) => a.start - b.start || a.end - b.end);
  let last = -1;
  sorted.forEach((f, i) => {
    const where = { n: i + 1 };
    if (f.end < f.start || f.end > text.length) throw badRequest('document.fix_outside', where);
    if (/\n/.test(f.original) || /\n/.test(f.replacement)) throw badRequest('document.fix_multiline', where);
    if (text.slice(f.start, f.end) !== f.replacement) throw badRequest('document.fix_mismatch', where);
    if (f.original === f.replacement) throw badRequest('document.fix_unchanged', where);
    if (f.start < last || (f.start === last && f.start === f.end)) throw badRequest('document.fix_overlap', where);
    last = f.end;
  });
  return sorted;
}

const sameSpot = (
  a: { start: number; end: number; original: string },
  b: { start: number; end: number; original: string },
) => a.start === b.start && a.end === b.end && a.original === b.original;

/** Findings the user has not ignored. */
export function openIssues(issues: StoredIssue[], ignored: Ignored[]): StoredIssue[] {
  if (!ignored.length) return issues;
  return issues.filter((i) => !ignored.some((g) => sameSpot(g, i)));
}

const commentOf = (issue: StoredIssue) =>
  `${issue.message}${issue.suggestions.length ? `（建议：${issue.suggestions.join('、')}）` : ''}`;

type Mark =
  { start: number; end: number; kind: 'fix'; fix: Fix } | { start: number; end: number; kind: 'comment'; text: string };

/**
 * Paragraphs for `buildTrackedDocx`: each accepted fix becomes a deletion of `original` and an insertion of
 * `replacement`; each open finding becomes a comment over its text (overlapping findings share one comment;
 * findings overlapping a fix are dropped, the fix decided them). h1-h3 keep their heading level.
 */
export function trackedParagraphs(blocks: Block[], fixes: Fix[], issues: StoredIssue[]): TrackedParagraph[] {
  const paragraphs: TrackedParagraph[] = [];
  let offset = 0;
  const sortedFixes = [...fixes].sort((a, b) => a.start - b.start);
  const sortedIssues = [...issues].sort((a, b) => a.start - b.start || b.end - a.end);
  for (const block of blocks) {
    const lineStart = offset;
    const lineEnd = offset + block.text.length;
    offset = lineEnd + 1;
    const inLine = (m: { start: number; end: number }) =>
      m.start >= lineStart && m.end <= lineEnd && (m.start < lineEnd || m.start === m.end);
    const marks: Mark[] = sortedFixes
      .filter(inLine)
      .map((fix) => ({ start: fix.start - lineStart, end: fix.end - lineStart, kind: 'fix' as const, fix }));
    const overlapsFix = (s: number, e: number) =>
      marks.some((m) => m.kind === 'fix' && s < Math.max(m.end, m.start + 1) && e > m.start);
    // merge overlapping findings into one comment span
    const comments: Array<{ start: number; end: number; texts: string[] }> = [];
    for (const issue of sortedIssues.filter(inLine)) {
      const s = issue.start - lineStart;
      const e = issue.end - lineStart;
      if (e <= s || overlapsFix(s, e)) continue;
      const lastComment = comments[comments.length - 1];
      if (lastComment && s < lastComment.end) {
        lastComment.end = Math.max(lastComment.end, e);
        lastComment.texts.push(commentOf(issue));
      } else comments.push({ start: s, end: e, texts: [commentOf(issue)] });
    }
    // a merged comment may have grown over a fix: drop it then
    for (const c of comments)
      if (!overlapsFix(c.start, c.end))
        marks.push({ start: c.start, end: c.end, kind: 'comment', text: c.texts.join('\n') });
    marks.sort((a, b) => a.start - b.start);
    const segments: TrackedSegment[] = [];
    let pos = 0;
    for (const m of marks) {
      if (m.start > pos) segments.push({ text: block.text.slice(pos, m.start) });
      if (m.kind === 'fix') {
        if (m.fix.original) segments.push({ deleted: m.fix.original });
        if (m.fix.replacement) segments.push({ inserted: m.fix.replacement });
      } else segments.push({ text: block.text.slice(m.start, m.end), comment: m.text });
      pos = m.end;
    }
    if (pos < block.text.length) segments.push({ text: block.text.slice(pos) });
    const level = /^h([1-3])$/.exec(block.tag)?.[1];
    paragraphs.push({
      segments,
      ...(level ? { heading: Number(level) as 1 | 2 | 3 } : {}),
      ...(block.format ? { format: block.format } : {}),
    });
  }
  return paragraphs;
}

const parse = <T>(json: string | null, fallback: T): T => (json ? (JSON.parse(json) as T) : fallback);
export const issuesOf = (row: { issues: string | null }) => parse<StoredIssue[]>(row.issues, []);
export const fixesOf = (row: { fixes: string | null }) => parse<Fix[]>(row.fixes, []);
export const ignoredOf = (row: { ignored: string | null }) => parse<Ignored[]>(row.ignored, []);

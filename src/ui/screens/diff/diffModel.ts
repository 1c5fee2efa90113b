// The side-by-side view of a compare result: each row's two paragraphs cut into plain and changed
// pieces, and long runs of equal rows folded. Pure, so the dom tests and the view share it.
import type { CompareResult } from '../../../machines/compareCalls';

export interface Piece {
  text: string;
  /** index into result.changes; null for unchanged text */
  change: number | null;
  /** a zero-width place where the other side has text (an insertion seen from the original) */
  marker?: boolean;
}

export interface SideBySideRow {
  index: number;
  status: 'equal' | 'changed' | 'deleted' | 'inserted';
  original: Piece[] | null;
  revised: Piece[] | null;
  originalParagraph: number | null;
  revisedParagraph: number | null;
  changes: number[];
}

/** Rows shown, or a fold standing for `count` equal rows starting at row `from`. */
export type DisplayItem = { kind: 'row'; row: SideBySideRow } | { kind: 'fold'; from: number; count: number };

interface Range {
  start: number;
  end: number;
  change: number;
}

/** Cuts text[start, end) into pieces at the ranges (sorted, inside the span, zero-width allowed). */
export function piecesOf(text: string, start: number, end: number, ranges: Range[]): Piece[] {
  const out: Piece[] = [];
  let at = start;
  for (const r of [...ranges].sort((a, b) => a.start - b.start || a.end - b.end)) {
    const from = Math.max(r.start, at);
    if (from > at) out.push({ text: text.slice(at, from), change: null });
    if (r.end > from) out.push({ text: text.slice(from, Math.min(r.end, end)), change: r.change });
    else out.push({ text: '', change: r.change, marker: true });
    at = Math.max(at, Math.min(r.end, end));
  }
  if (end > at) out.push({ text: text.slice(at, end), change: null });
  return out;
}

export function sideBySide(result: CompareResult): SideBySideRow[] {
  const originalSpans = result.original_paragraphs ?? [];
  const revisedSpans = result.revised_paragraphs ?? [];
  return (result.rows ?? []).map((row, index) => {
    const changes = row.changes.map((c) => ({ c, change: result.changes[c] }));
    const side = (which: 'original' | 'revised'): Piece[] | null => {
      const paragraph = row[which];
      if (paragraph === null) return null;
      const span = (which === 'original' ? originalSpans : revisedSpans)[paragraph];
      if (!span) return null;
      const text = which === 'original' ? result.original_text : result.revised_text;
      const ranges = changes
        .filter(
          ({ change }) => (which === 'original' ? change.original_paragraph : change.revised_paragraph) === paragraph,
        )
        .map(({ c, change }) => ({
          start: which === 'original' ? change.original_start : change.revised_start,
          end: which === 'original' ? change.original_end : change.revised_end,
          change: c,
        }));
      return piecesOf(text, span.start, span.end, ranges);
    };
    return {
      index,
      status: row.status,
      original: side('original'),
      revised: side('revised'),
      originalParagraph: row.original,
      revisedParagraph: row.revised,
      changes: row.changes,
    };
  });
}

/** Folds runs of more than `2 * context + 1` equal rows, keeping `context` rows next to each difference. */
export function foldEqualRuns(
  rows: SideBySideRow[],
  context = 1,
  expanded: ReadonlySet<number> = new Set(),
): DisplayItem[] {
  const out: DisplayItem[] = [];
  let k = 0;
  while (k < rows.length) {
    if (rows[k].status !== 'equal') {
      out.push({ kind: 'row', row: rows[k++] });
      continue;
    }
    let end = k;
    while (end < rows.length && rows[end].status === 'equal') end++;
    const keepHead = k === 0 ? 0 : context;
    const keepTail = end === rows.length ? 0 : context;
    const hidden = end - k - keepHead - keepTail;
    if (hidden > 1 && !expanded.has(k + keepHead)) {
      for (let i = k; i < k + keepHead; i++) out.push({ kind: 'row', row: rows[i] });
      out.push({ kind: 'fold', from: k + keepHead, count: hidden });
      for (let i = end - keepTail; i < end; i++) out.push({ kind: 'row', row: rows[i] });
    } else for (let i = k; i < end; i++) out.push({ kind: 'row', row: rows[i] });
    k = end;
  }
  return out;
}

/** The next change index in reading order, wrapping (direction 1 or -1; none selected yet: first or last). */
export function stepChange(count: number, current: number | null, direction: 1 | -1): number | null {
  if (count === 0) return null;
  if (current === null) return direction === 1 ? 0 : count - 1;
  return (current + direction + count) % count;
}

import { diffArrays, diffChars } from 'diff';

export type ChangeType = 'insert' | 'delete' | 'replace';

export interface Change {
  type: ChangeType;
  /** UTF-16 offsets into original_text / revised_text (paragraphs joined by "\n"). */
  original_start: number;
  original_end: number;
  revised_start: number;
  revised_end: number;
  original_paragraph: number | null;
  revised_paragraph: number | null;
  original_fragment: string;
  revised_fragment: string;
}

export interface ParagraphSpan {
  start: number;
  end: number;
}

/** One row of the side-by-side view: an original paragraph, a revised paragraph, or both. */
export interface AlignedRow {
  status: 'equal' | 'changed' | 'deleted' | 'inserted';
  original: number | null;
  revised: number | null;
  /** Indexes into `changes`. */
  changes: number[];
}

export interface CompareResult {
  original_text: string;
  revised_text: string;
  original_paragraphs: ParagraphSpan[];
  revised_paragraphs: ParagraphSpan[];
  rows: AlignedRow[];
  changes: Change[];
  stats: { equal: number; changed: number; deleted: number; inserted: number; changes: number };
}

const norm = (s: string) => s.replace(/[\s\u3000]+/g, '');

/** Dice coefficient over character bigrams: cheap similarity for pairing changed paragraphs. */
function similarity(a: string, b: string): number {
  const x = norm(a);
  const y = norm(b);
  if (x === y) return 1;
  if (!x || !y) return 0;
  if (Math.min(x.length, y.length) < 6) {
    // Short paragraphs (table cells, headings): shared characters instead of bigrams.
    const pool = [...x];
    let common = 0;
    for (const c of y) {
      const at = pool.indexOf(c);
      if (at >= 0) {
        common++;
        pool.splice(at, 1);
      }
    }
    return (2 * common) / (x.length + y.length);
  }
  const grams = new Map<string, number>();
  for (let i = 0; i < x.length - 1; i++) grams.set(x.slice(i, i + 2), (grams.get(x.slice(i, i + 2)) ?? 0) + 1);
  let hits = 0;
  for (let i = 0; i < y.length - 1; i++) {
    const g = y.slice(i, i + 2);
    const n = grams.get(g) ?? 0;
    if (n > 0) {
      hits++;
      grams.set(g, n - 1);
    }
  }
  return (2 * hits) / (x.length - 1 + y.length - 1);
}

const PAIR_THRESHOLD = 0.3;

/** Pairs removed and added paragraphs of one changed block in order (a small LCS-like DP on similarity). */
function pairBlock(removed: number[], added: number[], a: string[], b: string[]): [number | null, number | null][] {
  const n = removed.length;
  const m = added.length;
  if (n * m > 40000) {
    const out: [number | null, number | null][] = [];
    for (let k = 0; k < Math.max(n, m); k++) out.push([removed[k] ?? null, added[k] ?? null]);
    return out;
  }
  const sim = removed.map((i) => added.map((j) => similarity(a[i], b[j])));
  const score: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) {
      const pair = sim[i][j] >= PAIR_THRESHOLD ? sim[i][j] + score[i + 1][j + 1] : -1;
      score[i][j] = Math.max(pair, score[i + 1][j], score[i][j + 1]);
    }
  const out: [number | null, number | null][] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && sim[i][j] >= PAIR_THRESHOLD && score[i][j] === sim[i][j] + score[i + 1][j + 1])
      out.push([removed[i++], added[j++]]);
    else if (i < n && (j >= m || score[i][j] === score[i + 1][j])) out.push([removed[i++], null]);
    else out.push([null, added[j++]]);
  }
  return out;
}

/** Paragraph alignment, then character-level differences inside paired paragraphs. */
export function compareParagraphs(a: string[], b: string[]): CompareResult {
  const spans = (ps: string[]) => {
    let at = 0;
    return ps.map((p) => {
      const span = { start: at, end: at + p.length };
      at += p.length + 1;
      return span;
    });
  };
  const aSpans = spans(a);
  const bSpans = spans(b);
  const rows: AlignedRow[] = [];
  const changes: Change[] = [];
  const aIdx = a.map((_, i) => i);
  const bIdx = b.map((_, i) => i);
  // normalised once: the diff compares O(N·D) pairs
  const aNorm = a.map(norm);
  const bNorm = b.map(norm);
  const parts = diffArrays(aIdx, bIdx, { comparator: (x: number, y: number) => aNorm[x] === bNorm[y] });

  const addChange = (c: Omit<Change, 'original_fragment' | 'revised_fragment'>, row: AlignedRow) => {
    row.changes.push(changes.length);
    changes.push({
      ...c,
      original_fragment: originalText.slice(c.original_start, c.original_end),
      revised_fragment: revisedText.slice(c.revised_start, c.revised_end),
    });
  };
  const originalText = a.join('\n');
  const revisedText = b.join('\n');
  // Where an insertion/deletion sits on the other side: the end of the last paragraph before it.
  let lastA = -1;
  let lastB = -1;
  const anchor = (spansOf: ParagraphSpan[], last: number) => (last >= 0 ? spansOf[last].end : 0);

  const emitPair = (i: number | null, j: number | null) => {
    if (i !== null && j !== null) {
      const row: AlignedRow = { status: 'changed', original: i, revised: j, changes: [] };
      let oa = aSpans[i].start;
      let ob = bSpans[j].start;
      const pieces = diffChars(a[i], b[j]);
      for (let k = 0; k < pieces.length; k++) {
        const p = pieces[k];
        if (!p.added && !p.removed) {
          oa += p.value.length;
          ob += p.value.length;
          continue;
        }
        let del = '';
        let ins = '';
        while (k < pieces.length && (pieces[k].added || pieces[k].removed)) {
          if (pieces[k].removed) del += pieces[k].value;
          else ins += pieces[k].value;
          k++;
        }
        k--;
        addChange(
          {
            type: del && ins ? 'replace' : del ? 'delete' : 'insert',
            original_start: oa,
            original_end: oa + del.length,
            revised_start: ob,
            revised_end: ob + ins.length,
            original_paragraph: i,
            revised_paragraph: j,
          },
          row,
        );
        oa += del.length;
        ob += ins.length;
      }
      if (!row.changes.length) row.status = 'equal';
      rows.push(row);
      lastA = i;
      lastB = j;
    } else if (i !== null) {
      const row: AlignedRow = { status: 'deleted', original: i, revised: null, changes: [] };
      const at = anchor(bSpans, lastB);
      addChange(
        {
          type: 'delete',
          original_start: aSpans[i].start,
          original_end: aSpans[i].end,
          revised_start: at,
          revised_end: at,
          original_paragraph: i,
          revised_paragraph: null,
        },
        row,
      );
      rows.push(row);
      lastA = i;
    } else if (j !== null) {
      const row: AlignedRow = { status: 'inserted', original: null, revised: j, changes: [] };
      const at = anchor(aSpans, lastA);
      addChange(
        {
          type: 'insert',
          original_start: at,
          original_end: at,
          revised_start: bSpans[j].start,
          revised_end: bSpans[j].end,
          original_paragraph: null,
          revised_paragraph: j,
        },
        row,
      );
      rows.push(row);
      lastB = j;
    }
  };

  // Walk the parts by position (an equal part's values come from one side only).
  let ai = 0;
  let bi = 0;
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k];
    if (!part.added && !part.removed) {
      // Equal paragraphs (whitespace-insensitive) are paired; real whitespace edits still show as changes.
      for (let n = 0; n < part.value.length; n++, ai++, bi++) {
        if (a[ai] === b[bi]) {
          rows.push({ status: 'equal', original: ai, revised: bi, changes: [] });
          lastA = ai;
          lastB = bi;
        } else emitPair(ai, bi);
      }
      continue;
    }
    const removed: number[] = [];
    const added: number[] = [];
    while (k < parts.length && (parts[k].added || parts[k].removed)) {
      const count = parts[k].value.length;
      for (let n = 0; n < count; n++) {
        if (parts[k].removed) removed.push(ai++);
        else added.push(bi++);
      }
      k++;
    }
    k--;
    for (const [i, j] of pairBlock(removed, added, a, b)) emitPair(i, j);
  }
  const stats = { equal: 0, changed: 0, deleted: 0, inserted: 0, changes: changes.length };
  for (const r of rows) stats[r.status]++;
  return {
    original_text: originalText,
    revised_text: revisedText,
    original_paragraphs: aSpans,
    revised_paragraphs: bSpans,
    rows,
    changes,
    stats,
  };
}

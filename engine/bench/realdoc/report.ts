/**
 * Real documents: the engine over published Chinese prose it was not written for, every typo-category finding
 * labelled right or wrong by a person (labels.tsv). The figure is precision: where errors are rare, as in real
 * documents, the share of findings that are right is what a user feels.
 *
 * Sources: the installed manpages-zh pages (read in place, never committed; split by page name into a tuning half,
 * a held-out half and a reserve, see manpages.ts) and official.txt (committed, government-report style prose).
 * Typo categories: 0 (common misuse), 1, 2, 5 (spelling) and 3, 4, 7 (missing, doubled, order): everything a reader
 * would call a typo. Punctuation and spacing (10-x) are counted apart: a page that spaces Chinese and Latin text
 * consistently follows a style, it does not err. Other families (sensitive words, facts, key words) are counted only.
 *
 * Env: REALDOC_UNLABELLED=1 prints every unlabelled finding of the tuning half and official.txt as a labels.tsv line
 * with an empty label, to fill in; REALDOC_UNLABELLED=held-out does the same for the held-out half (only after the
 * engine work is done); REALDOC_WRONG=1 prints the tuning half's findings labelled wrong; REALDOC_GUARDS=0 gives the
 * figures without the guards of rules/precision.ts (the engine before them).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { check } from '../../index';
import type { Issue } from '../../types';
import { setPrecisionGuards } from '../../rules/precision';
import { halfOf, MAN_ZH, paraHash, readManPages, type Paragraph } from './manpages';

const here = path.dirname(fileURLToPath(import.meta.url));
export const TYPO_CATS = ['0', '1', '2', '3', '4', '5', '7'];
const LABELS = path.join(here, 'labels.tsv');

type Label = 'right' | 'wrong';

export interface Finding {
  page: string;
  hash: string;
  issue: Issue;
  /** a few characters around the finding, for the person labelling it (≤ 20 characters) */
  context: string;
}

/** a finding's stable key: page, paragraph hash, offset, original, first suggestion */
export const keyOf = (page: string, hash: string, start: number, original: string, suggestion: string) =>
  [page, hash, String(start), original, suggestion].join('\t');

export function readLabels(file = LABELS): Map<string, Label> {
  const out = new Map<string, Label>();
  if (!existsSync(file)) return out;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const [page, hash, start, original, suggestion, label] = line.split('\t');
    if (label === 'right' || label === 'wrong') out.set(keyOf(page, hash, Number(start), original, suggestion), label);
  }
  return out;
}

/** official.txt: one paragraph a line, `#` lines are notes */
export function readOfficial(): Paragraph[] {
  return readFileSync(path.join(here, 'official.txt'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((text) => ({ page: 'official', text, hash: paraHash(text) }));
}

/**
 * Each page is checked whole, its paragraphs joined by line breaks, as a user submits a document (the engine reads
 * a form that recurs in a document as a term of it); findings are mapped back to their paragraph.
 */
export function findings(paras: Paragraph[], mode: 3 | 4): { chars: number; found: Finding[] } {
  let chars = 0;
  const found: Finding[] = [];
  const pages = new Map<string, Paragraph[]>();
  for (const p of paras) pages.set(p.page, [...(pages.get(p.page) ?? []), p]);
  for (const [page, ps] of pages) {
    const starts: number[] = [];
    let at = 0;
    for (const p of ps) {
      starts.push(at);
      at += p.text.length + 1;
      chars += p.text.length;
    }
    const issues = check(ps.map((p) => p.text).join('\n'), { mode });
    for (const issue of issues) {
      let k = starts.length - 1;
      while (k > 0 && starts[k] > issue.start) k--;
      const p = ps[k];
      const start = issue.start - starts[k];
      const from = Math.max(0, start - 8);
      const context = p.text.slice(from, Math.min(p.text.length, from + 20));
      const local = { ...issue, start, end: issue.end - starts[k] };
      found.push({ page, hash: p.hash, issue: local, context });
    }
  }
  return { chars, found };
}

const labelKey = (f: Finding) => keyOf(f.page, f.hash, f.issue.start, f.issue.original, f.issue.suggestions[0] ?? '');

export interface Tally {
  chars: number;
  typo: number;
  punct: number;
  other: number;
  /** category -> [right, wrong, unlabelled] */
  byCat: Map<string, [number, number, number]>;
  unlabelled: Finding[];
  wrong: Finding[];
}

export function tally(chars: number, found: Finding[], labels: Map<string, Label>): Tally {
  const t: Tally = { chars, typo: 0, punct: 0, other: 0, byCat: new Map(), unlabelled: [], wrong: [] };
  for (const f of found) {
    const cat = f.issue.category;
    if (cat.startsWith('10-')) t.punct++;
    if (!TYPO_CATS.includes(cat)) {
      if (!cat.startsWith('10-')) t.other++;
      continue;
    }
    t.typo++;
    const row = t.byCat.get(cat) ?? [0, 0, 0];
    const label = labels.get(labelKey(f));
    if (label === 'right') row[0]++;
    else if (label === 'wrong') {
      row[1]++;
      t.wrong.push(f);
    } else {
      row[2]++;
      t.unlabelled.push(f);
    }
    t.byCat.set(cat, row);
  }
  return t;
}

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)} %` : '-');

/** a labels.tsv line, label left empty (context kept to 20 characters, no tabs) */
export const labelLine = (f: Finding, label = '') =>
  [labelKey(f), label, f.issue.category, f.context.replace(/\s/g, ' ').slice(0, 20)].join('\t');

function printTally(name: string, mode: number, t: Tally) {
  let right = 0,
    wrong = 0,
    unl = 0;
  const cats = [...t.byCat].sort(([a], [b]) => TYPO_CATS.indexOf(a) - TYPO_CATS.indexOf(b));
  for (const [, [r, w, u]] of cats) {
    right += r;
    wrong += w;
    unl += u;
  }
  const per10k = (n: number) => (t.chars ? ((n * 10000) / t.chars).toFixed(1) : '-');
  const byCat = cats.map(([c, [r, w, u]]) => `${c}: ${r}/${r + w}${u ? ` +${u}?` : ''}`).join(', ');
  console.log(
    `${name.padEnd(20)} ${String(mode).padStart(4)} ${String(t.chars).padStart(7)}  ${String(t.typo).padStart(5)} ` +
      `${per10k(t.typo).padStart(6)}  ${pct(right, right + wrong).padStart(7)}  ${String(unl).padStart(4)} | ` +
      `${String(t.punct).padStart(5)} ${per10k(t.punct).padStart(6)} | ${String(t.other).padStart(5)} | ${byCat}`,
  );
}

/** the "Real documents" section of npm run bench */
export function realDocuments(modes: Array<3 | 4>) {
  const labels = readLabels();
  const guards = process.env.REALDOC_GUARDS !== '0';
  setPrecisionGuards(guards);
  const sets: Array<[string, Paragraph[]]> = [['official.txt', readOfficial()]];
  const man = readManPages();
  console.log(
    '\nReal documents (engine/bench/realdoc: typo findings = categories 0-7, labelled right or wrong in ' +
      'labels.tsv; P = right / labelled; ? = unlabelled; punctuation and spacing (10-x) apart)',
  );
  if (!man) console.log(`note: ${MAN_ZH} is absent (Debian package manpages-zh); only the committed corpus is read.`);
  else {
    sets.push(['manpages tuning', man.filter((p) => halfOf(p.page) === 'tuning')]);
    sets.push(['manpages held-out', man.filter((p) => halfOf(p.page) === 'held-out')]);
  }
  console.log(
    'set                  mode   chars  typo  /10k      P      ?    | 10-x   /10k | other | ' +
      'by category (right/labelled)',
  );
  const ask = process.env.REALDOC_UNLABELLED;
  const toLabel = new Map<string, string>();
  for (const [name, paras] of sets) {
    for (const mode of modes) {
      const { chars, found } = findings(paras, mode);
      const t = tally(chars, found, labels);
      printTally(name, mode, t);
      const heldOut = name.includes('held-out');
      if (ask && (heldOut ? ask === 'held-out' : ask === '1'))
        for (const f of t.unlabelled) toLabel.set(labelKey(f), labelLine(f));
      if (process.env.REALDOC_WRONG === '1' && !heldOut)
        for (const f of t.wrong) console.log(`  wrong ${labelLine(f, 'wrong')}`);
    }
  }
  for (const line of toLabel.values()) console.log(`  unlabelled ${line}`);
  if (!guards) console.log('(REALDOC_GUARDS=0: without the guards of engine/rules/precision.ts)');
  setPrecisionGuards(true);
}

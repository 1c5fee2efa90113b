/**
 * Why the engine says what it says of a sentence: its findings, the segmentation, the non-word candidates with both
 * models' gains against their need, and the speller's best scored candidates per position. For engine work (which
 * edit fell short of its need, which candidate was never generated), not for users.
 * Usage: npx tsx engine/tools/explain.ts "我们明天讨论这个问提。" [--mode 4]
 */
import { check, engineParts } from '../index';
import { NONWORD3, NONWORD4 } from '../nonword';
import { FEATURE_NAMES, setSpellTrace, type TraceRow } from '../spell';

const args = process.argv.slice(2);
const mode = args.includes('--mode') && args[args.indexOf('--mode') + 1] === '4' ? 4 : 3;
const text = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--mode');
if (!text) {
  console.error('usage: npx tsx engine/tools/explain.ts "sentence" [--mode 4]');
  process.exit(2);
}

const e = engineParts();
const rows: TraceRow[] = [];
setSpellTrace((r) => rows.push(r));
const issues = check(text, { mode });
setSpellTrace(null);

console.log(`findings (mode ${mode}):`);
for (const i of issues)
  console.log(
    `  ${i.start}-${i.end} ${i.original} -> ${i.suggestions.join('/') || '(hint)'}  [${i.category}] ` +
      `conf ${i.confidence}  ${i.message}`,
  );
if (!issues.length) console.log('  (none)');

console.log(`segmentation: ${e.lm.segment(text).join(' / ')}`);

const p = mode === 4 ? NONWORD4 : NONWORD3;
const cands = e.nonword.check(text, new Uint8Array(text.length), { ...p, slack: 30 });
console.log('non-word candidates that survive their competition (score = gain − need; ≥ 0 accepted in mode 3):');
for (const c of cands.sort((x, y) => y.score - x.score).slice(0, 15)) {
  const rel = c.relation ? ` ${c.relation}` : '';
  console.log(
    `  ${c.kind}${rel} ${c.written} -> ${c.word}  g1 ${c.g1.toFixed(1)}  g2 ${c.g2.toFixed(1)}  ` +
      `score ${c.score.toFixed(1)}${c.named ? '  (possible name)' : ''}`,
  );
}
if (!cands.length) console.log('  (none)');

console.log("speller: each position's best candidates (reranker log-odds; g4/h4 = the two models' ±4 gains, nats)");
// (the reranker's gain features are nats divided by 10)
const G4 = FEATURE_NAMES.indexOf('g4'),
  H4 = FEATURE_NAMES.indexOf('lm2:g4');
const byPos = new Map<number, TraceRow[]>();
for (const r of rows) byPos.set(r.pos, [...(byPos.get(r.pos) ?? []), r]);
for (const [pos, rs] of [...byPos].sort((a, b) => a[0] - b[0])) {
  const best = rs
    .filter((r) => Number.isFinite(r.score))
    .sort((a, b) => b.score - a.score)
    .slice(0, 3);
  if (!best.length) continue;
  const list = best.map(
    (r) => `${r.cand} ${r.score.toFixed(2)} (g4 ${(r.x[G4] * 10).toFixed(1)}, h4 ${(r.x[H4] * 10).toFixed(1)})`,
  );
  console.log(`  ${pos} ${rs[0].orig}: ${list.join(' | ')}`);
}

// `npm test`: every vitest project (node, dom, e2e), then the closing line CI reads:
// `N passed, N failed` (vitest's own summary is not that line; STACK.md).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';

// The type check counts as one test: the code must compile before anything else is believed.
console.log('Type check (tsc --noEmit)…');
const typecheck = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'tsconfig.json'], {
  stdio: 'inherit',
});
const typecheckOk = typecheck.status === 0;
console.log(typecheckOk ? 'type check passed' : 'type check FAILED');

// The engine's precompiled lexicons, built once here instead of by every test file that loads the engine at once.
const image = spawnSync(process.execPath, ['--import', 'tsx', 'engine/tools/build-image.ts'], { stdio: 'inherit' });
if (image.status !== 0) console.log('engine image could not be prepared; the tests that load the engine build it');

const out = join('test-results', 'vitest.json');
mkdirSync('test-results', { recursive: true });
if (existsSync(out)) rmSync(out);
const args = [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${out}`,
  ...process.argv.slice(2),
];
const run = spawnSync('npx', args, { stdio: 'inherit', env: { ...process.env, FORCE_COLOR: '0' } });

let passed = 0;
let failed = 0;
if (existsSync(out)) {
  const report = JSON.parse(readFileSync(out, 'utf8'));
  passed = report.numPassedTests ?? 0;
  failed = report.numFailedTests ?? 0;
  // A file that failed to load has no test results of its own: count it once.
  for (const file of report.testResults ?? []) {
    if (file.status === 'failed' && (file.assertionResults ?? []).length === 0) failed += 1;
  }
  const pending = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  if (pending > 0) {
    console.log(`${pending} tests were skipped or todo: every test must run.`);
    failed += pending;
  }
} else {
  failed = 1;
  console.log('vitest wrote no report');
}
if (run.status !== 0 && failed === 0) failed = 1;
if (typecheckOk) passed += 1;
else failed += 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);

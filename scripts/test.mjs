// `npm test`: the type check beside every vitest project (node, dom, e2e), then the time taken and the closing line
// CI reads: `N passed, N failed` (vitest's own summary is not that line; STACK.md). The linter and the formatter
// check run in `.ci/run` (`npm run lint`, `npm run format:check`): the suite is bound by CPU on two cores, and the
// two took about fifty CPU-seconds of it, some twenty-five seconds of the run.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const started = performance.now();
const node = process.execPath;

/** Runs a command with its output kept, to be printed whole once it ends (the checks run side by side). */
function quiet(name, args) {
  return new Promise((resolve) => {
    const child = spawn(node, args, { env: { ...process.env, FORCE_COLOR: '0' } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) =>
      resolve({ name, ok: code === 0, output, seconds: Math.round((performance.now() - started) / 1000) }),
    );
  });
}

/** TypeScript 7 under its own name: `typescript` stays 5.9 for the tools that use its API (STACK.md). */
const TSC = 'node_modules/typescript-native/bin/tsc';

// The type check counts as one test: the code must compile before anything is believed.
const checks = Promise.all([
  // TypeScript 7 (the native compiler) checks in a third of 5.9's CPU time; single-threaded, as the tests use the cores
  quiet('type check (tsc --noEmit)', [TSC, '--noEmit', '-p', 'tsconfig.json', '--singleThreaded']),
]);

// The engine's precompiled lexicons, built once here instead of by every test file that loads the engine at once.
const image = spawnSync(node, ['--import', 'tsx', 'engine/tools/build-image.ts'], { stdio: 'inherit' });
if (image.status !== 0) console.log('engine image could not be prepared; the tests that load the engine build it');

const out = join('test-results', 'vitest.json');
mkdirSync('test-results', { recursive: true });
if (existsSync(out)) rmSync(out);
const args = [
  'node_modules/vitest/vitest.mjs',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${out}`,
  ...process.argv.slice(2),
];
const status = await new Promise((resolve) => {
  const run = spawn(node, args, { stdio: 'inherit', env: { ...process.env, FORCE_COLOR: '0' } });
  run.on('close', (code) => resolve(code));
});

let passed = 0;
let failed;
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
if (status !== 0 && failed === 0) failed = 1;

for (const check of await checks) {
  if (check.ok) passed += 1;
  else {
    failed += 1;
    console.log(check.output.trim());
  }
  console.log(`${check.name}: ${check.ok ? 'passed' : 'FAILED'} (done ${check.seconds} s after the start)`);
}
const seconds = (performance.now() - started) / 1000;
// (whole seconds first: 299.6 s is 5 min 0 s, not 4 min 60 s)
const whole = Math.round(seconds);
console.log(`npm test took ${Math.floor(whole / 60)} min ${whole % 60} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);

/**
 * The engine alone, as the server benchmark's yardstick (run.ts starts this as a child process under tsx):
 *
 *   node --import tsx server/bench/engine-limit.ts <checks.json> <threads> <seconds>
 *
 * `checks.json` holds the checks as the server would split them (an array of checks, each an array of unit texts).
 * `threads` worker threads load the engine, warm up on the first 40 checks, then each checks its share of the
 * others (each text once, as the server's distinct texts are) back to back for `seconds`, with the options the server
 * uses for them (mode 3, the standard checks, cn). Prints one JSON line: checks done, wall seconds, the process's
 * CPU milliseconds over the timed part (all threads), the checking threads' own share of it, and whether a thread
 * ran out of texts.
 */
import { readFileSync } from 'node:fs';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { check, loadEngine } from '../../engine';
import { ALL_STANDARD } from '../../engine/categories';

const WARM = 40;

interface ThreadData {
  warm: string[][];
  /** this thread's share of the timed checks */
  checks: string[][];
}
type ToMain = { ready: true } | { done: number; ranOut: boolean; cpuMs: number };

/** CPU milliseconds of the calling thread so far (Linux; a synchronous read runs on the calling thread). */
function threadCpuMs(): number {
  try {
    const fields = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

const OPTIONS = { mode: 3, checkOptions: ALL_STANDARD, lang: 'cn' } as const;

if (isMainThread) {
  const [file, threadsArg, secondsArg] = process.argv.slice(2);
  const checks = JSON.parse(readFileSync(file, 'utf8')) as string[][];
  const threads = Number(threadsArg);
  const seconds = Number(secondsArg);
  const workers = Array.from(
    { length: threads },
    (_, t) =>
      new Worker(new URL('./engine-thread.mjs', import.meta.url), {
        workerData: {
          warm: checks.slice(0, WARM),
          checks: checks.slice(WARM).filter((_, i) => i % threads === t),
        } satisfies ThreadData,
      }),
  );
  const next = (w: Worker) => new Promise<ToMain>((resolve) => w.once('message', resolve));
  await Promise.all(workers.map(next));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const done = workers.map(next);
  for (const w of workers) w.postMessage(t0 + seconds * 1000);
  const counts = await Promise.all(done);
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const total = counts.reduce((s, c) => s + ('done' in c ? c.done : 0), 0);
  const ranOut = counts.some((c) => 'ranOut' in c && c.ranOut);
  const threadsCpuMs = counts.reduce((s, c) => s + ('cpuMs' in c ? c.cpuMs : 0), 0);
  console.log(
    JSON.stringify({ checks: total, seconds: wall, cpuMs: (cpu.user + cpu.system) / 1000, threadsCpuMs, ranOut }),
  );
  await Promise.all(workers.map((w) => w.terminate()));
} else {
  const { warm, checks } = workerData as ThreadData;
  const port = parentPort!;
  loadEngine();
  // warm the JIT and the per-character caches as a running server's workers are
  for (const units of warm) for (const unit of units) check(unit, OPTIONS);
  port.once('message', (deadline: number) => {
    const cpu0 = threadCpuMs();
    let done = 0;
    while (done < checks.length && performance.now() < deadline) {
      for (const unit of checks[done]) check(unit, OPTIONS);
      done++;
    }
    port.postMessage({ done, ranOut: done === checks.length, cpuMs: threadCpuMs() - cpu0 } satisfies ToMain);
  });
  port.postMessage({ ready: true } satisfies ToMain);
}

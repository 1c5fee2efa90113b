import { parentPort } from 'node:worker_threads';
import { check, loadEngine, type CheckOptions } from '../../../engine';

/** A checker worker: loads the lexicons once, then checks one paragraph per message. */
export interface WorkerTask {
  id: number;
  text: string;
  options: CheckOptions;
}
export type WorkerReply = { id: number; ok: true; issues: ReturnType<typeof check>; ms: number } | { id: number; ok: false; error: string } | { ready: true; loadMs: number };

const port = parentPort!;
const fault = process.env.CHECKER_FAULT_MARKER;
const { loadMs } = loadEngine();
port.postMessage({ ready: true, loadMs } satisfies WorkerReply);
port.on('message', (task: WorkerTask) => {
  const t0 = performance.now();
  try {
    // Fault injection for tests (CHECKER_FAULT_MARKER unset in production): a paragraph containing it fails.
    if (fault && task.text.includes(fault)) throw new Error('checker fault injected');
    const issues = check(task.text, task.options);
    port.postMessage({ id: task.id, ok: true, issues, ms: performance.now() - t0 } satisfies WorkerReply);
  } catch (error) {
    port.postMessage({ id: task.id, ok: false, error: error instanceof Error ? error.message : String(error) } satisfies WorkerReply);
  }
});

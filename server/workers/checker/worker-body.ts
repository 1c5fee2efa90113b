import { parentPort, workerData } from 'node:worker_threads';
import { check, loadEngine, type CheckOptions, type CustomDictionaries, type ImageSource } from '../../../engine';

/**
 * A checker worker: loads the lexicons once, then checks one paragraph per message. A task may carry a
 * `dictKey`: the dictionaries sent with it are kept under that key (a few hundred at most), and later tasks
 * with the same key may leave them out.
 */
export interface WorkerTask {
  id: number;
  text: string;
  options: CheckOptions;
  dictKey?: string;
  dict?: CustomDictionaries;
}
export type WorkerReply =
  | { id: number; ok: true; issues: ReturnType<typeof check>; ms: number }
  | { id: number; ok: false; error: string }
  | { ready: true; loadMs: number; image: SharedArrayBuffer; source: ImageSource };

/** what the pool gives a worker: the engine image another worker loaded, when there is one, and its settings */
export interface WorkerStart {
  image: SharedArrayBuffer | null;
  /** tests only (config.checker.faultMarker): a paragraph containing it fails */
  faultMarker?: string;
}

export const WORKER_DICT_CACHE = 200;

const port = parentPort!;
const dicts = new Map<string, CustomDictionaries>();
const start: WorkerStart | undefined = workerData;
// Fault injection for tests (CHECKER_FAULT_MARKER unset in production): a paragraph containing it fails.
const fault = start?.faultMarker;
const { loadMs, image, source } = loadEngine({ image: start?.image ?? undefined });
port.postMessage({ ready: true, loadMs, image, source } satisfies WorkerReply);
port.on('message', (task: WorkerTask) => {
  const t0 = performance.now();
  try {
    if (fault && task.text.includes(fault)) throw new Error('checker fault injected');
    let dict = task.dict;
    if (task.dictKey) {
      if (dict) {
        dicts.delete(task.dictKey);
        dicts.set(task.dictKey, dict);
        if (dicts.size > WORKER_DICT_CACHE) dicts.delete(dicts.keys().next().value as string);
      } else {
        dict = dicts.get(task.dictKey);
        if (!dict) throw new Error(`dictionary ${task.dictKey} not known to this worker`);
        dicts.delete(task.dictKey);
        dicts.set(task.dictKey, dict);
      }
    }
    const issues = check(task.text, { ...task.options, ...dict });
    port.postMessage({ id: task.id, ok: true, issues, ms: performance.now() - t0 } satisfies WorkerReply);
  } catch (error) {
    port.postMessage({
      id: task.id,
      ok: false,
      error: error instanceof Error ? error.message : String(error),
    } satisfies WorkerReply);
  }
});

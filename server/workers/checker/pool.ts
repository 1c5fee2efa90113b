import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { CheckOptions, CustomDictionaries, ImageSource, Issue } from '../../../engine';
import type { WorkerReply, WorkerStart, WorkerTask } from './worker-body';
import type { CheckerSettings } from '../../config';
import { toolSettings } from '../../formats/tools';
import { workerEntry } from '../entry';

/** How many dictionaries a worker keeps (must not exceed WORKER_DICT_CACHE in worker-body.ts). */
const KNOWN_DICTS = 150;
/**
 * Tasks a worker holds at once: the one it runs and the next, waiting in its message queue. Without the second a
 * worker idles from each answer until the main thread, often busy with requests and sockets then, sends it another
 * (measured: about a tenth of the workers' time under load).
 */
const PIPELINE = 2;

/**
 * A small pool of `worker_threads` running the engine, so a long check never blocks the HTTP server.
 * The first worker loads the engine's precompiled lexicons (≈0.3 s; it builds them once, seconds, when the
 * engine or its data changed); the others start after it and view the same shared buffer, so the lexicons
 * are in memory once (≈70 MB) whatever the pool's size. Size: CHECK_WORKERS, default the number of cores
 * (at most 4). Tasks are taken round-robin across groups (one group per check), so a 100,000-character
 * check does not hold up the short checks of other users; each idle worker gets one before any gets a second.
 */
interface Task {
  id: number;
  text: string;
  options: CheckOptions;
  dict?: { key: string; value: CustomDictionaries };
  resolve: (issues: Issue[]) => void;
  reject: (error: Error) => void;
  group: string;
  /** cancelled while waiting in a worker (its result is dropped) */
  cancelled?: boolean;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /** where the worker's lexicons came from (see loadEngine) */
  source?: ImageSource;
  /** the tasks sent to the worker and not answered, in order: the first runs, the others wait (PIPELINE) */
  inFlight: Task[];
  /** dictionary keys this worker holds, oldest first */
  known: string[];
}

export class CheckerPool {
  private slots: Slot[] = [];
  private groups = new Map<string, Task[]>();
  private order: string[] = [];
  private nextId = 1;
  private closed = false;
  readonly size: number;
  private readyWaiters: Array<() => void> = [];
  /** Workers that died before loading their lexicons; after a few the pool gives up instead of looping. */
  private startFailures = 0;
  private broken: Error | null = null;
  /** the engine image the first worker loaded, shared with the others */
  private image: SharedArrayBuffer | null = null;

  constructor(
    /** workers and the test fault marker (config.checker); default: one per core, at most 4 */
    private readonly settings: Partial<CheckerSettings> = {},
    /** bundled workers to start instead of the sources (config.tools.workerBundles) */
    private readonly bundles = toolSettings().workerBundles,
  ) {
    this.size = Math.max(1, settings.workers ?? Math.min(4, availableParallelism()));
  }

  /** Starts the workers (lexicons load in the background); idempotent. */
  warm(): void {
    if (this.closed) return;
    // until one worker has the lexicons, one loads (or builds) them alone
    if (!this.image) {
      if (this.slots.length === 0) this.spawn();
      return;
    }
    while (this.slots.length < this.size) this.spawn();
  }

  /** Resolves when at least one worker has loaded its lexicons. */
  async ready(): Promise<void> {
    this.warm();
    if (this.broken) throw this.broken;
    if (this.slots.some((s) => s.ready)) return;
    await new Promise<void>((resolve) => this.readyWaiters.push(resolve));
    if (this.broken) throw this.broken;
  }

  /**
   * Checks one paragraph in a worker. `dict` (custom dictionaries with a key that changes whenever they do)
   * is sent to each worker once and then referred to by key.
   */
  check(
    text: string,
    options: CheckOptions,
    group = 'default',
    dict?: { key: string; value: CustomDictionaries },
  ): Promise<Issue[]> {
    if (this.closed) return Promise.reject(new Error('checker pool closed'));
    if (this.broken) return Promise.reject(this.broken);
    this.warm();
    return new Promise<Issue[]>((resolve, reject) => {
      const task: Task = { id: this.nextId++, text, options, dict, resolve, reject, group };
      let queue = this.groups.get(group);
      if (!queue) {
        this.groups.set(group, (queue = []));
        this.order.push(group);
      }
      queue.push(task);
      this.dispatch();
    });
  }

  /** The workers, how many have their lexicons (and from where) or a task, and the size of the one shared image. */
  status(): { workers: number; ready: number; busy: number; sources: ImageSource[]; imageBytes: number } {
    const ready = this.slots.filter((s) => s.ready);
    return {
      workers: this.slots.length,
      ready: ready.length,
      busy: this.slots.filter((s) => s.inFlight.length > 0).length,
      sources: ready.flatMap((s) => (s.source ? [s.source] : [])),
      imageBytes: this.image?.byteLength ?? 0,
    };
  }

  /** Drops the queued (not yet running) tasks of a group; they reject with `cancelled`. Returns how many. */
  cancelGroup(group: string): number {
    let dropped = 0;
    // those waiting in a worker behind its running task count as queued: the worker's answer will be ignored
    for (const slot of this.slots) {
      for (const task of slot.inFlight.slice(1)) {
        if (task.group !== group || task.cancelled) continue;
        task.cancelled = true;
        task.reject(new Error('cancelled'));
        dropped++;
      }
    }
    const queue = this.groups.get(group);
    if (!queue) return dropped;
    this.groups.delete(group);
    this.order = this.order.filter((g) => g !== group);
    for (const task of queue) task.reject(new Error('cancelled'));
    return dropped + queue.length;
  }

  queued(): number {
    let n = 0;
    for (const q of this.groups.values()) n += q.length;
    return n;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const group of [...this.groups.keys()]) this.cancelGroup(group);
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
    this.slots = [];
  }

  private spawn(): void {
    const worker = new Worker(workerEntry('checker-worker', new URL('./worker.mjs', import.meta.url), this.bundles), {
      workerData: { image: this.image, faultMarker: this.settings.faultMarker } satisfies WorkerStart,
    });
    worker.unref();
    const slot: Slot = { worker, ready: false, inFlight: [], known: [] };
    this.slots.push(slot);
    worker.on('message', (reply: WorkerReply) => {
      if ('ready' in reply) {
        slot.ready = true;
        slot.source = reply.source;
        this.startFailures = 0;
        if (!this.image) {
          this.image = reply.image;
          this.warm();
        }
        for (const wake of this.readyWaiters.splice(0)) wake();
        this.dispatch();
        return;
      }
      const at = slot.inFlight.findIndex((t) => t.id === reply.id);
      if (at >= 0) {
        const [task] = slot.inFlight.splice(at, 1);
        if (task.cancelled) {
          // rejected already when its group was cancelled
        } else if (reply.ok) task.resolve(reply.issues);
        else task.reject(new Error(reply.error));
      }
      this.dispatch();
    });
    const fail = (error: Error) => {
      // A crashed worker fails its task and is replaced; the process carries on.
      const [task, ...waiting] = slot.inFlight;
      slot.inFlight = [];
      this.slots = this.slots.filter((s) => s !== slot);
      if (!task?.cancelled) task?.reject(error);
      // the tasks waiting behind it never started: back to the front of their queues
      for (const next of waiting.reverse()) if (!next.cancelled) this.requeue(next);
      if (!slot.ready && ++this.startFailures >= 3) {
        // The workers cannot start (e.g. missing lexicons): fail checks instead of respawning forever.
        this.broken = new Error(`checker workers cannot start: ${error.message}`);
        for (const group of [...this.groups.keys()]) this.cancelGroup(group);
        for (const wake of this.readyWaiters.splice(0)) wake();
        return;
      }
      if (!this.closed) {
        this.spawn();
        this.dispatch();
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (this.slots.includes(slot)) fail(new Error(`checker worker exited with code ${code}`));
    });
  }

  private requeue(task: Task): void {
    let queue = this.groups.get(task.group);
    if (!queue) {
      this.groups.set(task.group, (queue = []));
      this.order.unshift(task.group);
    }
    queue.unshift(task);
  }

  private take(): Task | undefined {
    // a group with nothing in a worker goes first: a worker holds two tasks, which may both be one group's
    const inWorkers = new Set(this.slots.flatMap((s) => s.inFlight.map((t) => t.group)));
    const idle = this.order.findIndex((g) => !inWorkers.has(g) && (this.groups.get(g)?.length ?? 0) > 0);
    if (idle > 0) this.order.unshift(...this.order.splice(idle, 1));
    // round-robin over groups
    for (let i = 0; i < this.order.length; i++) {
      const group = this.order.shift()!;
      const queue = this.groups.get(group);
      if (!queue || queue.length === 0) {
        this.groups.delete(group);
        continue;
      }
      const task = queue.shift()!;
      if (queue.length > 0) this.order.push(group);
      else this.groups.delete(group);
      return task;
    }
    return undefined;
  }

  private dispatch(): void {
    // every idle worker gets a task before any gets a second
    fill: for (let depth = 0; depth < PIPELINE; depth++) {
      for (const slot of this.slots) {
        if (!slot.ready || slot.inFlight.length !== depth) continue;
        const task = this.take();
        if (!task) break fill;
        this.send(slot, task);
      }
    }
    for (const slot of this.slots) if (slot.inFlight.length === 0) slot.worker.unref();
  }

  private send(slot: Slot, task: Task): void {
    slot.inFlight.push(task);
    // Tasks hold the worker busy; keep the process alive while work is pending.
    slot.worker.ref();
    const message: WorkerTask = { id: task.id, text: task.text, options: task.options };
    if (task.dict) {
      message.dictKey = task.dict.key;
      const at = slot.known.indexOf(task.dict.key);
      if (at >= 0) slot.known.splice(at, 1);
      else message.dict = task.dict.value;
      slot.known.push(task.dict.key);
      if (slot.known.length > KNOWN_DICTS) slot.known.shift();
    }
    slot.worker.postMessage(message);
  }
}

let shared: CheckerPool | null = null;
let sharedSettings: CheckerSettings | undefined;

/**
 * The settings the process-wide pool starts with (buildApp gives its config's): one pool serves every app of the
 * process, so the first pool started keeps them.
 */
export function configureCheckerPool(settings: CheckerSettings): void {
  sharedSettings = settings;
}

/** The process-wide pool (created on first use). */
export function checkerPool(): CheckerPool {
  return (shared ??= new CheckerPool(sharedSettings));
}

/** Starts loading the lexicons in the background (call at server start so the first check is not slow). */
export function warmChecker(): void {
  checkerPool().warm();
}

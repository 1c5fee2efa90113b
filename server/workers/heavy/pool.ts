import { Worker } from 'node:worker_threads';
import { AppError, serviceBusy, tooLarge, tooManyRequests } from '../../errors';
import type { HeavyInput, HeavyOutput, HeavyTaskName } from './tasks';
import type { HeavyReply, HeavyRequest, HeavyStart } from './worker-body';
import { workerEntry } from '../entry';
import { toolSettings } from '../../formats/tools';
import type { HeavyLimits, ToolSettings } from '../../config';

// declared beside the config that reads them, which would otherwise import this file back
export type { HeavyLimits } from '../../config';

export interface RunOptions {
  /** overrides the pool's time limit for this task */
  timeoutMs?: number;
  /**
   * Work already bounded by its own queue (the document jobs): it waits for a worker instead of being
   * refused when the queue is full, so a burst of requests never fails a background job.
   */
  background?: boolean;
  /** set while the task runs; calling it stops the task (job cancelled) */
  signal?: { onAbort?: () => void };
  /**
   * The user a request's task is for: one user has at most PER_OWNER_MAX tasks waiting or running, so one account
   * cannot fill the queue that everyone's uploads, exports and saves share.
   */
  owner?: number;
}

/** Tasks of one user in the pool at once (a compare takes two; a third for the result). */
export const PER_OWNER_MAX = 3;

interface Task {
  id: number;
  name: HeavyTaskName;
  input: unknown;
  json: boolean;
  options: RunOptions;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer?: NodeJS.Timeout;
  started?: number;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  busy: Task | null;
  done: number;
}

/**
 * How long a worker may take to load a task's libraries before the task's own time limit starts (tasks.ts): loading
 * takes about a second on a busy machine, so only a worker that is stuck reaches this.
 */
const LIBRARY_LOAD_MS = 30_000;

/** A worker is replaced after this many tasks, so fragmentation of a long-lived heap never builds up. */
const TASKS_PER_WORKER = 200;

const overMemory = () => tooLarge('document.out_of_memory');
const overTime = (ms: number) => tooLarge('document.timed_out', { seconds: Math.round(ms / 1000) });

/**
 * The one bounded pool for heavy work: reading and writing documents, export, format check and compare run
 * here, in worker threads with a heap limit, a per-task time limit and an output limit, behind a queue with a
 * length limit. The event loop only hands work over, so /health and every other user stay responsive while
 * the pool is saturated; an overrun fails one task with a catalogue error and the worker is replaced.
 */
export class HeavyPool {
  private slots: Slot[] = [];
  private queue: Task[] = [];
  private nextId = 1;
  private closed = false;
  private startFailures = 0;
  private broken: Error | null = null;
  /** moving average of task time, for the Retry-After estimate */
  private averageMs = 1000;

  constructor(
    readonly limits: HeavyLimits,
    /** sent to each worker at its start (formats/tools.ts): the programs and fonts its tasks use */
    private readonly tools: ToolSettings = toolSettings(),
  ) {}

  run<K extends HeavyTaskName>(name: K, input: HeavyInput<K>, options: RunOptions = {}): Promise<HeavyOutput<K>> {
    return this.submit<HeavyOutput<K>>(name, input, options, false);
  }

  /**
   * Like `run`, but the answer is the API envelope `{code: 200, msg, result}` of the result as JSON bytes, made in
   * the worker: for results that are large object graphs (a format report, a compare), which would otherwise be
   * copied and serialised on the event loop. Send it as it is with an application/json type.
   */
  async runJson<K extends HeavyTaskName>(name: K, input: HeavyInput<K>, options: RunOptions = {}): Promise<Buffer> {
    const bytes = await this.submit<Uint8Array>(name, input, options, true);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private submit<T>(name: HeavyTaskName, input: unknown, options: RunOptions, json: boolean): Promise<T> {
    if (this.closed) return Promise.reject(new Error('heavy pool closed'));
    if (this.broken) return Promise.reject(this.broken);
    if (!options.background && this.waiting() >= this.limits.queueMax)
      return Promise.reject(serviceBusy(this.retryAfter()));
    if (options.owner !== undefined && this.ownedBy(options.owner) >= PER_OWNER_MAX)
      return Promise.reject(tooManyRequests(this.retryAfter(), 'rate.heavy_per_user', { max: PER_OWNER_MAX }));
    return new Promise<T>((resolve, reject) => {
      const task: Task = { id: this.nextId++, name, input, json, options, reject, resolve: (v) => resolve(v as T) };
      if (options.signal) {
        options.signal.onAbort = () => {
          this.queue = this.queue.filter((t) => t !== task);
          const slot = this.slots.find((s) => s.busy === task);
          if (slot) this.retire(slot);
          this.settle(task, () => reject(new Error('cancelled')));
        };
      }
      this.queue.push(task);
      this.dispatch();
    });
  }

  /** What the pool is doing (tests and diagnostics). */
  stats(): { workers: number; busy: number; queued: number } {
    return { workers: this.slots.length, busy: this.slots.filter((s) => s.busy).length, queued: this.queue.length };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) this.settle(task, () => task.reject(new Error('heavy pool closed')));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
    this.slots = [];
  }

  /** The user's tasks waiting or running. */
  private ownedBy(owner: number): number {
    const mine = (t: Task | null) => t !== null && t.options.owner === owner;
    return this.queue.filter(mine).length + this.slots.filter((s) => mine(s.busy)).length;
  }

  /** Interactive tasks waiting for a worker (background ones are bounded by their own queue). */
  private waiting(): number {
    return this.queue.filter((t) => !t.options.background).length;
  }

  /** Seconds until a slot is likely free: the queue ahead of a new task divided over the workers. */
  private retryAfter(): number {
    return Math.max(1, Math.ceil(((this.queue.length / this.limits.workers + 1) * this.averageMs) / 1000));
  }

  private settle(task: Task, fn: () => void): void {
    if (task.timer) clearTimeout(task.timer);
    task.timer = undefined;
    if (task.options.signal) task.options.signal.onAbort = undefined;
    fn();
  }

  private spawn(): void {
    const entry = workerEntry('heavy-worker', new URL('./worker.mjs', import.meta.url), this.tools.workerBundles);
    const worker = new Worker(entry, {
      workerData: { outputMax: this.limits.outputMax, tools: this.tools } satisfies HeavyStart,
      resourceLimits: { maxOldGenerationSizeMb: this.limits.heapMb },
    });
    worker.unref();
    const slot: Slot = { worker, ready: false, busy: null, done: 0 };
    this.slots.push(slot);
    worker.on('message', (reply: HeavyReply) => {
      if ('ready' in reply) {
        slot.ready = true;
        this.startFailures = 0;
        this.dispatch();
        return;
      }
      const task = slot.busy;
      if ('started' in reply) {
        if (task && task.id === reply.id) this.arm(slot, task, this.limitOf(task));
        return;
      }
      slot.busy = null;
      slot.done++;
      if (task && task.id === reply.id) {
        if (task.started) this.averageMs = this.averageMs * 0.8 + (Date.now() - task.started) * 0.2;
        if (reply.ok) this.settle(task, () => task.resolve(reply.result));
        else if ('code' in reply)
          this.settle(task, () => task.reject(new AppError(reply.status, reply.code, reply.params)));
        else this.settle(task, () => task.reject(new Error(reply.message)));
      }
      if (slot.done >= TASKS_PER_WORKER) this.retire(slot);
      this.dispatch();
    });
    const fail = (error: Error & { code?: string }) => {
      if (!this.slots.includes(slot)) return;
      this.slots = this.slots.filter((s) => s !== slot);
      const task = slot.busy;
      slot.busy = null;
      if (task) this.settle(task, () => task.reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? overMemory() : error));
      if (!slot.ready && ++this.startFailures >= 3) {
        // The workers cannot start at all: fail fast instead of respawning forever.
        this.broken = new Error(`heavy workers cannot start: ${error.message}`);
        for (const t of this.queue.splice(0)) this.settle(t, () => t.reject(this.broken!));
        return;
      }
      this.dispatch();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`heavy worker exited with code ${code}`)));
  }

  /** Stops a worker (timed out, cancelled, or due for replacement); its slot is freed at once. */
  private retire(slot: Slot): void {
    this.slots = this.slots.filter((s) => s !== slot);
    void slot.worker.terminate();
  }

  /** the task's own time limit: its option, else the pool's */
  private limitOf(task: Task): number {
    return task.options.timeoutMs ?? this.limits.timeoutMs;
  }

  /** (Re)starts the timer that stops `task` on `slot` after `ms`, answering with the task's time limit. */
  private arm(slot: Slot, task: Task, ms: number): void {
    if (task.timer) clearTimeout(task.timer);
    task.timer = setTimeout(() => {
      if (slot.busy !== task) return;
      slot.busy = null;
      this.retire(slot);
      this.settle(task, () => task.reject(overTime(this.limitOf(task))));
      this.dispatch();
    }, ms);
  }

  private dispatch(): void {
    if (this.closed) return;
    while (
      this.queue.length > 0 &&
      this.slots.length < this.limits.workers &&
      this.slots.every((s) => s.busy || !s.ready)
    ) {
      // every live worker is busy or starting: start another while under the size
      const starting = this.slots.filter((s) => !s.ready).length;
      if (starting >= this.queue.length) break;
      this.spawn();
    }
    for (const slot of this.slots) {
      if (!slot.ready || slot.busy) continue;
      const task = this.queue.shift();
      if (!task) break;
      slot.busy = task;
      task.started = Date.now();
      // the task's own limit starts when the worker says its libraries are loaded
      this.arm(slot, task, LIBRARY_LOAD_MS + this.limitOf(task));
      slot.worker.ref();
      slot.worker.postMessage({
        id: task.id,
        name: task.name,
        input: task.input,
        json: task.json,
      } satisfies HeavyRequest);
    }
    // Starting or busy workers keep the process alive while work is pending; idle ones do not.
    for (const slot of this.slots) {
      if (slot.busy || this.queue.length > 0) slot.worker.ref();
      else slot.worker.unref();
    }
  }
}

import { parentPort, workerData } from 'node:worker_threads';
import { AppError } from '../../errors';
import { heavyTasks, type HeavyTaskName } from './tasks';

/** A task sent to a heavy worker, and what comes back. */
export interface HeavyRequest {
  id: number;
  name: HeavyTaskName;
  input: unknown;
}
export type HeavyReply =
  | { ready: true }
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; status: number; message: string };

const { outputMax } = workerData as { outputMax: number };

/** Bytes (or UTF-16 units) a result holds, counted where it can be large: strings and byte arrays. */
function sizeOf(value: unknown, depth = 0): number {
  if (typeof value === 'string') return value.length;
  if (value instanceof Uint8Array) return value.byteLength;
  if (depth > 4 || value === null || typeof value !== 'object') return 0;
  let n = 0;
  for (const v of Array.isArray(value) ? value : Object.values(value)) n += sizeOf(v, depth + 1);
  return n;
}

function failure(id: number, error: unknown): HeavyReply {
  if (error instanceof AppError) return { id, ok: false, status: error.statusCode, message: error.message };
  // A recursive parser given a pathological input: the input's fault, not the server's.
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    return { id, ok: false, status: 400, message: '文档结构过于复杂，无法处理 (the document is nested too deeply)' };
  }
  return { id, ok: false, status: 500, message: (error as Error)?.message ?? String(error) };
}

parentPort!.on('message', async ({ id, name, input }: HeavyRequest) => {
  let reply: HeavyReply;
  try {
    const task = heavyTasks[name] as (input: unknown) => Promise<unknown>;
    const result = await task(input);
    if (sizeOf(result) > outputMax) {
      reply = { id, ok: false, status: 413, message: '处理结果过大，请拆分文档后重试 (the result exceeds the output limit)' };
    } else reply = { id, ok: true, result };
  } catch (error) {
    reply = failure(id, error);
  }
  parentPort!.postMessage(reply);
});
parentPort!.postMessage({ ready: true } satisfies HeavyReply);

import { parentPort, workerData } from 'node:worker_threads';
import { AppError } from '../../errors';
import type { MessageParams, ServerMessageCode } from '../../../openapi/messages';
import { heavyTaskLibraries, heavyTasks, type HeavyTaskName } from './tasks';
import { setToolSettings } from '../../formats/tools';
import type { ToolSettings } from '../../config';

/** A task sent to a heavy worker, and what comes back. */
export interface HeavyRequest {
  id: number;
  name: HeavyTaskName;
  input: unknown;
  /** answer with the API's JSON envelope of the result, serialised here (see HeavyPool.runJson) */
  json?: boolean;
}
export type HeavyReply =
  | { ready: true }
  /** the task's libraries are loaded: its time limit starts now */
  | { id: number; started: true }
  | { id: number; ok: true; result: unknown }
  /** a client's mistake (status < 500) travels as its message code; a crash as its text, for the log */
  | { id: number; ok: false; status: number; code: ServerMessageCode; params: MessageParams }
  | { id: number; ok: false; status: 500; message: string };

/** What the pool starts a worker with: the app's limit of results and the settings of the programs tasks run. */
export interface HeavyStart {
  outputMax: number;
  tools: ToolSettings;
}

const { outputMax, tools } = workerData as HeavyStart;
setToolSettings(tools);

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
  if (error instanceof AppError)
    return { id, ok: false, status: error.statusCode, code: error.msgCode, params: error.msgParams };
  // A recursive parser given a pathological input: the input's fault, not the server's.
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    return { id, ok: false, status: 400, code: 'document.too_complex', params: {} };
  }
  return { id, ok: false, status: 500, message: (error as Error)?.message ?? String(error) };
}

const tooLarge = (id: number): HeavyReply => ({
  id,
  ok: false,
  status: 413,
  code: 'document.result_too_large',
  params: {},
});

parentPort!.on('message', async ({ id, name, input, json }: HeavyRequest) => {
  let reply: HeavyReply;
  let transfer: ArrayBuffer[] = [];
  try {
    const libraries = heavyTaskLibraries[name];
    if (libraries) await Promise.all(libraries.map((load) => load()));
    parentPort!.postMessage({ id, started: true } satisfies HeavyReply);
    const task = heavyTasks[name] as (input: unknown) => Promise<unknown>;
    const result = await task(input);
    if (json) {
      // A large report costs the event loop hundreds of ms to copy and serialise: done here, it arrives as bytes
      // whose memory is handed over, not copied.
      const bytes = new TextEncoder().encode(JSON.stringify({ code: 200, msg: 'success', result }));
      if (bytes.byteLength > outputMax) reply = tooLarge(id);
      else {
        reply = { id, ok: true, result: bytes };
        transfer = [bytes.buffer as ArrayBuffer];
      }
    } else if (sizeOf(result) > outputMax) reply = tooLarge(id);
    else {
      reply = { id, ok: true, result };
      if (result instanceof Uint8Array && result.byteOffset === 0 && result.byteLength === result.buffer.byteLength) {
        transfer = [result.buffer as ArrayBuffer];
      }
    }
  } catch (error) {
    reply = failure(id, error);
  }
  parentPort!.postMessage(reply, transfer);
});
parentPort!.postMessage({ ready: true } satisfies HeavyReply);

// Calls of the AI writing screen (/gpt/v1/chat/*), typed by the contract. A run answers server-sent events, read
// here with eventsource-parser and handed on one by one.
import { createParser } from 'eventsource-parser';
import type { operations } from '../../openapi/schema';
import { api, unwrap } from '../api/client';
import { rememberServerMessage } from '../api/serverMessages';

type FunctionsOk = operations['getGptV1ChatFunction']['responses']['200']['content']['application/json'];
export type WritingFunctions = FunctionsOk['result'];
export type WritingFunction = WritingFunctions['functions'][number];
export type WritingRequest = NonNullable<
  operations['postGptV1ChatCompletions']['requestBody']
>['content']['application/json'];
export type FieldKey = keyof NonNullable<WritingRequest['fields']>;

/** One event of a run's stream (the contract's description of POST /gpt/v1/chat/completions). */
export type WritingEvent =
  | { kind: 'delta'; text: string }
  | { kind: 'done'; used: number; truncated: boolean }
  | { kind: 'error'; code: string; message: string };

export function writingFunctions(): Promise<WritingFunctions> {
  return unwrap(api.GET('/gpt/v1/chat/function'));
}

const record = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The event a `data:` line carries, or null for one this client does not know. */
export function readWritingEvent(data: string): WritingEvent | null {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  if (!record(json)) return null;
  if (typeof json.delta === 'string') return { kind: 'delta', text: json.delta };
  if (json.done === true) return { kind: 'done', used: Number(json.used) || 0, truncated: json.truncated === true };
  if (record(json.error)) {
    const code = String(json.error.code ?? 'ai.failed');
    const message = String(json.error.msg ?? '系统异常');
    // the message keeps its code, so it shows in the reader's language
    rememberServerMessage(message, code, {});
    return { kind: 'error', code, message };
  }
  return null;
}

/**
 * Runs a function, handing each event to `onEvent` as it arrives. Errors before the stream (402, 429, 503, …)
 * go through `unwrap` like every call (the quota dialog opens on 402); a stream cut without its last event ends
 * with an error event. Aborting `signal` stops the run.
 */
export async function streamWriting(
  body: WritingRequest,
  signal: AbortSignal,
  onEvent: (event: WritingEvent) => void,
): Promise<void> {
  const stream = await unwrap(api.POST('/gpt/v1/chat/completions', { body, parseAs: 'stream', signal }));
  if (!stream) throw new Error('系统异常');
  let ended = false;
  const parser = createParser({
    onEvent: (event) => {
      const parsed = readWritingEvent(event.data);
      if (!parsed) return;
      if (parsed.kind !== 'delta') ended = true;
      onEvent(parsed);
    },
  });
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } catch (error) {
    if (signal.aborted) return;
    throw error;
  } finally {
    reader.releaseLock();
  }
  if (!ended && !signal.aborted) onEvent({ kind: 'error', code: 'ai.failed', message: '网络连接失败' });
}

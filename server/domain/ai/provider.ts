/**
 * The AI writing assistant's language model behind a provider interface. The one provider speaks OpenAI's
 * streaming `POST /v1/chat/completions` (OpenAI itself, or any compatible server: vLLM, Ollama, LM Studio, a
 * cloud gateway), configured by AI_URL, AI_API_KEY and AI_MODEL. Without AI_URL the assistant is off and the page
 * says how to turn it on.
 */
import { createParser } from 'eventsource-parser';
import type { ServerConfig } from '../../config';
import { countProviderError } from '../../metrics';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatProvider {
  /** shown in logs */
  readonly name: string;
  /** The answer's text, piece by piece as the model writes it. Ends early when `signal` aborts. */
  stream(messages: ChatMessage[], options: { signal: AbortSignal }): AsyncGenerator<string>;
}

/** The service failed, answered something else than a stream, or fell silent for too long. */
export class ChatError extends Error {
  constructor(
    message: string,
    /** the service fell silent (AI_IDLE_TIMEOUT_MS) */
    readonly timeout = false,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ChatError';
    // every ChatError is the chat service failing (a user's own stop is no ChatError)
    countProviderError('ai');
  }
}

/** The configured provider (config.ai), or null when no chat service is configured. */
export function chatProvider(ai: ServerConfig['ai']): ChatProvider | null {
  if (!ai.url) return null;
  return new OpenAiChat(ai.url, ai.apiKey, ai.model, ai.idleTimeoutMs);
}

/** `…/v1/chat/completions` under a base URL (or the URL itself when it already names that path). */
export function completionsUrl(base: string): string {
  const trimmed = base.replace(/\/+$/, '');
  if (/\/chat\/completions$/.test(trimmed)) return trimmed;
  return /\/v1$/.test(trimmed) ? `${trimmed}/chat/completions` : `${trimmed}/v1/chat/completions`;
}

const SNIPPET = 300;
const record = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The text of one streamed chunk (`choices[0].delta.content`), or an error the service put in the stream. */
export function readChunk(data: string): { text: string } | { error: string } | null {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return { error: `not JSON: ${data.slice(0, SNIPPET)}` };
  }
  if (!record(json)) return null;
  if (record(json.error)) return { error: String(json.error.message ?? 'error') };
  const [choice] = Array.isArray(json.choices) ? json.choices : [];
  if (!record(choice) || !record(choice.delta)) return null;
  return typeof choice.delta.content === 'string' ? { text: choice.delta.content } : null;
}

export class OpenAiChat implements ChatProvider {
  readonly name = 'openai-chat';

  constructor(
    private readonly base: string,
    private readonly apiKey: string | undefined,
    private readonly model: string,
    /** longest wait for the service's next bytes (the first included) */
    private readonly idleMs: number,
  ) {}

  async *stream(messages: ChatMessage[], options: { signal: AbortSignal }): AsyncGenerator<string> {
    const idle = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => idle.abort(), this.idleMs);
    };
    const signal = AbortSignal.any([options.signal, idle.signal]);
    const silent = () => new ChatError(`the chat service sent nothing for ${this.idleMs} ms`, true);
    arm();
    try {
      let response: Response;
      try {
        response = await fetch(completionsUrl(this.base), {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'text/event-stream',
            ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
          },
          body: JSON.stringify({ model: this.model, messages, stream: true }),
          signal,
        });
      } catch (error) {
        if (options.signal.aborted) return;
        if (idle.signal.aborted) throw silent();
        throw new ChatError(`chat service unreachable: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (!response.ok || !response.body) {
        const body = await response.text().catch(() => '');
        throw new ChatError(
          `chat service answered ${response.status}: ${body.slice(0, SNIPPET)}`,
          false,
          response.status,
        );
      }
      const pieces: string[] = [];
      let failure: string | null = null;
      let finished = false;
      const parser = createParser({
        onEvent: (event) => {
          if (event.data === '[DONE]') {
            finished = true;
            return;
          }
          const chunk = readChunk(event.data);
          if (chunk && 'error' in chunk) failure = chunk.error;
          else if (chunk?.text) pieces.push(chunk.text);
        },
      });
      const decoder = new TextDecoder();
      const reader = response.body.getReader();
      try {
        while (!finished) {
          let read: ReadableStreamReadResult<Uint8Array>;
          try {
            read = await reader.read();
          } catch (error) {
            if (options.signal.aborted) return;
            if (idle.signal.aborted) throw silent();
            throw new ChatError(`chat stream broke: ${error instanceof Error ? error.message : String(error)}`);
          }
          if (read.done) break;
          arm();
          parser.feed(decoder.decode(read.value, { stream: true }));
          while (pieces.length) yield pieces.shift()!;
          if (failure) throw new ChatError(`chat service failed in the stream: ${failure}`);
        }
      } finally {
        reader.cancel().catch(() => {});
      }
      // a stream that stops without [DONE] was cut off
      if (!finished) throw new ChatError('chat stream ended before [DONE]');
    } finally {
      clearTimeout(timer);
    }
  }
}

import type { ServerMessageCode } from '../../../openapi/messages';
import { renderMessage } from '../../../openapi/messages';
import { badRequest, envelope, unavailable } from '../../errors';
import { buildMessages, findFunction, WRITING_FUNCTIONS, type FieldKey } from '../../domain/ai/functions';
import { ChatError, chatProvider } from '../../domain/ai/provider';
import { runWriting } from '../../domain/ai/writing';
import { caller, type Operations } from '../types';

/**
 * AI writing (spec §7 GET /gpt/v1/chat/function, and the added streamed run): the functions, and one run streamed
 * as server-sent events while right 512 is counted (domain/ai/writing.ts).
 */
export const gptOperations: Operations = {
  getGptV1ChatFunction: async (request) => {
    await caller(request);
    return envelope({
      available: chatProvider(request.server.config.ai) !== null,
      functions: WRITING_FUNCTIONS.map((f) => ({
        id: f.id,
        name: f.name,
        description: f.description,
        placeholder: f.placeholder,
        ...(f.fields ? { fields: f.fields } : {}),
      })),
    });
  },

  postGptV1ChatCompletions: async (request, reply) => {
    const { uid } = await caller(request);
    await request.server.limiters.aiWrite(request);
    const body = request.body;
    const fn = findFunction(body.function_id);
    if (!fn) throw badRequest('ai.unknown_function', { id: body.function_id });
    const fields: Partial<Record<FieldKey, string>> = {};
    for (const spec of fn.fields ?? []) {
      const value = body.fields?.[spec.key]?.trim() ?? '';
      if (spec.required && !value) throw badRequest('ai.missing_field', { field: spec.label });
      if (value) fields[spec.key] = value;
    }
    const provider = chatProvider(request.server.config.ai);
    if (!provider) throw unavailable('ai.not_configured');
    const messages = buildMessages(
      fn,
      { content: body.content, fields, history: body.history, lang: body.lang },
      new Date(),
    );

    // closing the connection stops the run (it pays for what it wrote)
    const closed = new AbortController();
    let started = false;
    // (a connection the client closed takes nothing more)
    const open = () => !reply.raw.destroyed && !reply.raw.writableEnded;
    const event = (data: unknown) => {
      if (open()) reply.raw.write(`data: ${JSON.stringify(data)}\n\n`);
    };
    const start = () => {
      if (started) return;
      started = true;
      reply.hijack();
      reply.raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
      });
    };
    reply.raw.on('close', () => closed.abort());
    try {
      // the quota is taken before the stream starts, so a 402 is an ordinary answer
      const result = await runWriting(request.server, provider, { uid, messages, signal: closed.signal }, (text) => {
        start();
        event({ delta: text });
      });
      start();
      event({ done: true, used: result.used, truncated: result.truncated });
    } catch (error) {
      if (!(error instanceof ChatError)) {
        if (!started) throw error;
        request.log.error({ err: error }, 'AI writing run failed');
      } else {
        request.log.warn({ provider: provider.name, err: error.message }, 'AI writing service failed');
      }
      const code: ServerMessageCode = error instanceof ChatError && error.timeout ? 'ai.timeout' : 'ai.failed';
      start();
      event({ error: { code, msg: renderMessage(code, {}) } });
    }
    if (open()) reply.raw.end();
  },
};

// Shared fakes for the client tests: only the transport (fetch) is fake.
import { createMemoryStore, setStores } from '../../src/api/storage';
import { subscribeNotices, type Notice } from '../../src/api/notify';

export interface FakeRoute {
  status?: number;
  body?: unknown;
  /** throw like fetch does when the network is down */
  networkDown?: boolean;
  /**
   * answer server-sent events instead of JSON: each entry is one event's data (an object is sent as JSON), `null`
   * keeps the stream open until the request is aborted
   */
  events?: Array<unknown>;
}

/** A text/event-stream body that sends `events` one per macrotask; a `null` entry waits for the abort. */
function eventStream(events: unknown[], signal: AbortSignal): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    async start(controller) {
      for (const event of events) {
        if (signal.aborted) return;
        if (event === null) {
          await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
          controller.error(new DOMException('aborted', 'AbortError'));
          return;
        }
        const data = typeof event === 'string' ? event : JSON.stringify(event);
        controller.enqueue(encoder.encode(`data: ${data}\n\n`));
        await new Promise((r) => setTimeout(r, 0));
      }
      controller.close();
    },
  });
}

export function freshStores() {
  const local = createMemoryStore();
  const session = createMemoryStore();
  setStores({ local, session });
  return { local, session };
}

/** A fetch that records every Request and answers from a table keyed by "METHOD /path". */
export function fakeFetch(
  routes: Record<string, FakeRoute> = {},
  fallback: FakeRoute = { body: { code: 200, msg: 'ok', result: null } },
) {
  const requests: Request[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    requests.push(request);
    const url = new URL(request.url);
    const route = routes[`${request.method} ${url.pathname}`] ?? fallback;
    if (route.networkDown) throw new TypeError('fetch failed');
    if (route.events) {
      return new Response(eventStream(route.events, request.signal), {
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
      });
    }
    const status = route.status ?? 200;
    const text = route.body === undefined ? '' : JSON.stringify(route.body);
    return new Response(text, { status, headers: { 'content-type': 'application/json' } });
  };
  return { fetch, requests };
}

export function collectNotices() {
  const notices: Notice[] = [];
  const unsubscribe = subscribeNotices((n) => notices.push(n));
  return { notices, unsubscribe };
}

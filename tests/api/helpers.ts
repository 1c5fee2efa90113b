// Shared fakes for the client tests: only the transport (fetch) is fake.
import { createMemoryStore, setStores } from '../../src/api/storage';
import { subscribeNotices, type Notice } from '../../src/api/notify';

export interface FakeRoute {
  status?: number;
  body?: unknown;
  /** throw like fetch does when the network is down */
  networkDown?: boolean;
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

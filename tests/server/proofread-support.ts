import WebSocket from 'ws';
import type { ServerMessage } from '../../openapi/socket-protocol';
import type { TestApp } from './helpers';
import { CLIENT_HEADERS } from './helpers';

/** Shared by the proofread / rights / dict / languagetool server tests: a real socket client and real HTTP. */
export class SocketClient {
  readonly socket: WebSocket;
  private queue: ServerMessage[] = [];
  private waiters: Array<(m: ServerMessage) => void> = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  sessionId = '';

  constructor(url: string) {
    this.socket = new WebSocket(url);
    this.closed = new Promise((resolve) =>
      this.socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    this.socket.on('message', (raw) => {
      const message = JSON.parse(raw.toString()) as ServerMessage;
      const waiter = this.waiters.shift();
      if (waiter) waiter(message);
      else this.queue.push(message);
    });
  }

  static async open(base: string, token: string): Promise<SocketClient> {
    const client = new SocketClient(`ws://${base}/ws?${new URLSearchParams({ token, endpoint: '1' })}`);
    const first = await client.next();
    if (first.type !== 3) throw new Error(`expected the session id first, got ${JSON.stringify(first)}`);
    client.sessionId = (first as { data: { session_id: string } }).data.session_id;
    return client;
  }

  next(timeoutMs = 20_000): Promise<ServerMessage> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error('no message within timeout'));
      }, timeoutMs);
      const waiter = (m: ServerMessage) => {
        clearTimeout(timer);
        resolve(m);
      };
      this.waiters.push(waiter);
    });
  }

  /** Messages that arrive within `ms` (nothing else expected). */
  async drain(ms: number): Promise<ServerMessage[]> {
    const out: ServerMessage[] = [];
    for (;;) {
      try {
        out.push(await this.next(ms));
      } catch {
        return out;
      }
    }
  }

  send(value: unknown) {
    this.socket.send(JSON.stringify(value));
  }

  async close() {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.close(1000);
    await this.closed;
  }
}

export interface CheckRun {
  checkId: string;
  status: number;
  messages: ServerMessage[];
  results: Array<{
    paragraph: number;
    offset: number;
    hash: string;
    done: boolean;
    used?: number;
    issues: Array<{
      start: number;
      end: number;
      original: string;
      suggestions: string[];
      category: string;
      type?: number;
      level: number;
      message: string;
    }>;
  }>;
  errors: string[][];
  used: number | undefined;
}

export async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `127.0.0.1:${address.port}`;
}

export async function http(
  base: string,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`http://${base}${path}`, {
    method,
    headers: {
      ...CLIENT_HEADERS,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, json, text };
}

/** POST check_text over HTTP, then read the socket until `done` (acknowledging every indexed message). */
export async function runCheck(
  base: string,
  token: string,
  client: SocketClient,
  body: Record<string, unknown>,
  ack = true,
): Promise<CheckRun> {
  const res = await http(base, 'POST', '/misscut/v1/check_text', token, body, { session: client.sessionId });
  const run: CheckRun = {
    checkId: res.json?.result?.check_id,
    status: res.status,
    messages: [],
    results: [],
    errors: [],
    used: undefined,
  };
  if (res.status !== 200) return run;
  for (;;) {
    const m = await client.next();
    run.messages.push(m);
    if (m.index !== undefined && ack) client.send({ type: 1, cmd: 2, index: m.index });
    if (m.type === 2 && m.cmd === 2) {
      if (m.status !== 200 && m.status !== undefined) {
        run.errors.push(m.data as string[]);
        continue;
      }
      const data = m.data as CheckRun['results'][number] & { check_id: string };
      if (data.check_id !== run.checkId) continue;
      run.results.push(data);
      if (data.done) {
        run.used = data.used;
        return run;
      }
    }
  }
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ServerMessage } from '../../openapi/socket-protocol';
import { SocketClose } from '../../openapi/socket-protocol';
import { ADMIN, call, login, register, startTestApp, type TestApp } from './helpers';

/** A check-result message (type 2 cmd 2) as the proofreading jobs will send it. */
const result = (paragraph: number, text: string) => ({
  type: 2 as const,
  cmd: 2 as const,
  status: 200 as const,
  data: { check_id: 'c1', paragraph, offset: 0, hash: text, done: false, issues: [] },
});

/** A real `ws` client that queues frames so tests can await them one by one. */
class Client {
  readonly socket: WebSocket;
  private queue: ServerMessage[] = [];
  private waiters: Array<(m: ServerMessage) => void> = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly opened: Promise<void>;

  constructor(url: string) {
    this.socket = new WebSocket(url);
    this.opened = new Promise((resolve, reject) => {
      this.socket.once('open', () => resolve());
      this.socket.once('error', reject);
    });
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

  next(timeoutMs = 2000): Promise<ServerMessage> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no message within timeout')), timeoutMs);
      this.waiters.push((m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
  }

  send(value: unknown) {
    this.socket.send(typeof value === 'string' ? value : JSON.stringify(value));
  }

  async close() {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.close(1000);
    await this.closed;
  }
}

let t: TestApp;
let base: string;
let token: string;
beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  base = `127.0.0.1:${address.port}`;
  token = await login(t.app, ADMIN.phone, ADMIN.password);
});
afterAll(async () => t.close());

const wsUrl = (query: Record<string, string>) => `ws://${base}/ws?${new URLSearchParams(query)}`;

async function sessionOf(client: Client): Promise<string> {
  const first = await client.next();
  expect(first).toMatchObject({ type: 3, cmd: 1, status: 200 });
  return (first as Extract<ServerMessage, { type: 3 }>).data.session_id;
}

describe('the API over real HTTP', () => {
  it('logs in and reads user_info through a real socket', async () => {
    const login = await fetch(`http://${base}/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cid: 'dev', endpoint: '1' },
      body: JSON.stringify({ phone: ADMIN.phone, password: ADMIN.password }),
    });
    const { result } = await login.json();
    const info = await fetch(`http://${base}/user/user_info`, {
      headers: { authorization: `Bearer ${result.token}`, cid: 'dev', endpoint: '1' },
    });
    expect(info.status).toBe(200);
    expect((await info.json()).result.role).toBe('root');
    const bad = await fetch(`http://${base}/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"phone":',
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 400, result: null });
  });
});

describe('realtime socket', () => {
  it('sends the session id first (type 3 cmd 1), with a fresh id for an endpoint code', async () => {
    const client = new Client(wsUrl({ token, endpoint: '1' }));
    const id = await sessionOf(client);
    expect(id).toMatch(/^[\w.:-]+$/);
    await client.close();
  });

  it('answers heartbeats', async () => {
    const client = new Client(wsUrl({ token, session_id: 'heartbeat-session' }));
    expect(await sessionOf(client)).toBe('heartbeat-session');
    client.send({ type: 1, cmd: 1 });
    expect(await client.next()).toMatchObject({ type: 1, cmd: 1, status: 200 });
    await client.close();
  });

  it('re-sends unacknowledged indexed messages after a reconnect with the same session id', async () => {
    const first = new Client(wsUrl({ token, session_id: 'resend-session' }));
    const sessionId = await sessionOf(first);
    const i1 = t.app.realtime.sendToSession(sessionId, result(0, 'one'));
    const i2 = t.app.realtime.sendToSession(sessionId, result(1, 'two'));
    expect([i1, i2]).toEqual([1, 2]);
    expect(await first.next()).toMatchObject({ type: 2, cmd: 2, index: 1, data: { hash: 'one' } });
    expect(await first.next()).toMatchObject({ index: 2, data: { hash: 'two' } });
    first.send({ type: 1, cmd: 2, index: 1 });
    // Heartbeat round-trip: the ack before it has been processed when the reply arrives.
    first.send({ type: 1, cmd: 1 });
    await first.next();
    expect(t.app.realtime.pending(sessionId)).toBe(1);
    await first.close();

    // Sent while offline: kept for the session.
    t.app.realtime.sendToSession(sessionId, {
      type: 2,
      cmd: 7,
      status: 200,
      data: { id: 9, status: 'running', progress: 50 },
    });

    const second = new Client(wsUrl({ token, session_id: sessionId }));
    expect(await sessionOf(second)).toBe(sessionId);
    expect(await second.next()).toMatchObject({ index: 2, data: { hash: 'two' } });
    expect(await second.next()).toMatchObject({ type: 2, cmd: 7, index: 3, data: { progress: 50 } });
    second.send({ type: 1, cmd: 2, index: 2 });
    second.send({ type: 1, cmd: 2, index: 3 });
    second.send({ type: 1, cmd: 1 });
    await second.next();
    expect(t.app.realtime.pending(sessionId)).toBe(0);
    await second.close();
  });

  it("sendToUser reaches every session of that account and nobody else's", async () => {
    const other = await register(t, '13812340001');
    const mine = new Client(wsUrl({ token, session_id: 'mine-a' }));
    const theirs = new Client(wsUrl({ token: other, session_id: 'theirs-a' }));
    await sessionOf(mine);
    await sessionOf(theirs);
    const reached = t.app.realtime.sendToUser(
      (await call(t.app, 'GET', '/user/user_info', undefined, other)).json.result.uid,
      {
        type: 5,
        cmd: 3,
        status: 200,
        data: { id: 1, enterprise_id: 7, enterprise_name: '校对组', inviter_name: '管理员' },
      },
    );
    expect(reached).toBe(1);
    expect(await theirs.next()).toMatchObject({ type: 5, cmd: 3 });
    mine.send({ type: 1, cmd: 1 });
    expect(await mine.next()).toMatchObject({ type: 1, cmd: 1 });
    await mine.close();
    await theirs.close();
  });

  it("another account cannot take over someone's session id", async () => {
    const victim = new Client(wsUrl({ token, session_id: 'private-session' }));
    await sessionOf(victim);
    t.app.realtime.sendToSession('private-session', result(0, 'secret'));
    await victim.next();
    const intruderToken = await register(t, '13812340002');
    const intruder = new Client(wsUrl({ token: intruderToken, session_id: 'private-session' }));
    const id = await sessionOf(intruder);
    expect(id).not.toBe('private-session');
    intruder.send({ type: 1, cmd: 1 });
    expect(await intruder.next()).toMatchObject({ type: 1, cmd: 1 });
    await intruder.close();
    await victim.close();
  });

  it('a missing, unknown or revoked token closes with 4401 and a reason', async () => {
    for (const query of [{ session_id: 'x' }, { token: 'bogus', session_id: 'x' }] as Record<string, string>[]) {
      const client = new Client(wsUrl(query));
      expect(await client.closed).toEqual({
        code: SocketClose.Unauthorized.code,
        reason: SocketClose.Unauthorized.reason,
      });
    }
    const revoked = await login(t.app, ADMIN.phone, ADMIN.password);
    await call(t.app, 'POST', '/user/logout', undefined, revoked);
    const client = new Client(wsUrl({ token: revoked, session_id: 'x' }));
    expect((await client.closed).code).toBe(4401);
  });

  it('logging out closes that token’s open socket with 4401', async () => {
    const own = await login(t.app, ADMIN.phone, ADMIN.password);
    const client = new Client(wsUrl({ token: own, session_id: 'logout-session' }));
    await sessionOf(client);
    expect((await call(t.app, 'POST', '/user/logout', undefined, own)).status).toBe(200);
    expect((await client.closed).code).toBe(4401);
  });

  it('a malformed frame closes with 4400', async () => {
    for (const frame of [
      'not json',
      JSON.stringify({ type: 9, cmd: 9 }),
      JSON.stringify({ type: 1, cmd: 2, index: -1 }),
    ]) {
      const client = new Client(wsUrl({ token, session_id: 'bad-frames' }));
      await sessionOf(client);
      client.send(frame);
      expect(await client.closed).toEqual({ code: SocketClose.BadMessage.code, reason: SocketClose.BadMessage.reason });
    }
  });

  it('a silent client is dropped; one that sends heartbeats stays', async () => {
    const quick = await startTestApp({ socketIdleMs: 300 });
    await quick.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (quick.app.server.address() as { port: number }).port;
    const quickToken = await login(quick.app, ADMIN.phone, ADMIN.password);
    const url = (id: string) =>
      `ws://127.0.0.1:${port}/ws?${new URLSearchParams({ token: quickToken, session_id: id })}`;
    const silent = new Client(url('silent'));
    const alive = new Client(url('alive'));
    await sessionOf(silent);
    await sessionOf(alive);
    const beat = setInterval(() => alive.send({ type: 1, cmd: 1 }), 100);
    const started = Date.now();
    expect((await silent.closed).code).toBe(1006);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(alive.socket.readyState).toBe(WebSocket.OPEN);
    clearInterval(beat);
    await alive.close();
    await quick.close();
  });

  it('a second connection with the same session id replaces the first (4409)', async () => {
    const first = new Client(wsUrl({ token, session_id: 'dup-session' }));
    await sessionOf(first);
    const second = new Client(wsUrl({ token, session_id: 'dup-session' }));
    expect(await sessionOf(second)).toBe('dup-session');
    expect((await first.closed).code).toBe(SocketClose.Replaced.code);
    await second.close();
  });
});

describe('an account with more windows than the server keeps sessions for', () => {
  it('closes the oldest with 4429, so its page says so, and keeps the newer ones', async () => {
    const small = await startTestApp({ config: { socketSessionsPerUser: 2 } });
    try {
      await small.app.listen({ port: 0, host: '127.0.0.1' });
      const address = small.app.server.address();
      if (!address || typeof address === 'string') throw new Error('no port');
      const own = await login(small.app, ADMIN.phone, ADMIN.password);
      const url = () => `ws://127.0.0.1:${address.port}/ws?${new URLSearchParams({ token: own, endpoint: '1' })}`;
      const clients: Client[] = [];
      for (let k = 0; k < 3; k++) {
        const client = new Client(url());
        await sessionOf(client);
        clients.push(client);
      }
      expect(await clients[0].closed).toEqual({ code: SocketClose.Evicted.code, reason: SocketClose.Evicted.reason });
      for (const client of clients.slice(1)) expect(client.socket.readyState).toBe(WebSocket.OPEN);
      await Promise.all(clients.slice(1).map((c) => c.close()));
    } finally {
      await small.close();
    }
  });
});

import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { RealtimeHub } from '../../server/realtime/hub';
import { SocketClose } from '../../openapi/socket-protocol';

/** Just enough of a ws socket for the hub: records frames and closes. */
class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  frames: any[] = [];
  closedWith: { code: number; reason: string } | null = null;
  send(data: string) {
    this.frames.push(JSON.parse(data));
  }
  close(code: number, reason: string) {
    this.closedWith = { code, reason };
    this.readyState = 3;
    this.emit('close');
  }
}

const progress = (n: number) => ({
  type: 2 as const,
  cmd: 7 as const,
  status: 200 as const,
  data: { id: 1, status: 'running' as const, progress: n },
});
const attach = (hub: RealtimeHub, socket: FakeSocket, uid: number, id?: string) =>
  hub.attach(socket as unknown as WebSocket, { uid, tokenHash: `t${uid}` }, id);

describe('realtime hub', () => {
  it('keeps at most maxOutbox unacknowledged messages, dropping the oldest', () => {
    const hub = new RealtimeHub({ maxOutbox: 3 });
    const socket = new FakeSocket();
    const id = attach(hub, socket, 1);
    for (let i = 1; i <= 5; i++) hub.sendToSession(id, progress(i * 10));
    expect(hub.pending(id)).toBe(3);
    socket.close(1000, 'bye');
    const again = new FakeSocket();
    attach(hub, again, 1, id);
    expect(again.frames.map((f) => f.index)).toEqual([undefined, 3, 4, 5]);
  });

  it('bounds the outbox by size too, so a client that never acknowledges costs a fixed amount', () => {
    const hub = new RealtimeHub({ maxOutboxChars: 2_500 });
    const socket = new FakeSocket();
    const id = attach(hub, socket, 1);
    const big = {
      type: 2 as const,
      cmd: 1 as const,
      status: 200 as const,
      data: { id: 1, status: 'failed' as const, progress: 0, issue_count: 0, error: 'x'.repeat(900) },
    };
    for (let i = 0; i < 10; i++) hub.sendToSession(id, big);
    expect(hub.pending(id)).toBe(2);
    // acknowledging frees the room
    hub.ack(id, 10);
    expect(hub.pending(id)).toBe(1);
  });

  it('keeps at most maxSessionsPerUser sessions of one account, dropping the oldest', () => {
    const hub = new RealtimeHub({ maxSessionsPerUser: 3 });
    const sockets = Array.from({ length: 4 }, () => new FakeSocket());
    const ids = sockets.map((s) => attach(hub, s, 7));
    expect(hub.sessionIds(7)).toEqual(ids.slice(1));
    // the dropped socket is told why, so its page says so instead of reconnecting
    expect(sockets[0].closedWith?.code).toBe(SocketClose.Evicted.code);
    expect(sockets.slice(1).map((s) => s.closedWith)).toEqual([null, null, null]);
    // another account is not affected
    attach(hub, new FakeSocket(), 8);
    expect(hub.sessionIds(7)).toHaveLength(3);
  });

  it('forgets a session left without a socket for sessionIdleMs', async () => {
    const hub = new RealtimeHub({ sessionIdleMs: 50 });
    const socket = new FakeSocket();
    const id = attach(hub, socket, 1, 'short-lived');
    hub.sendToSession(id, progress(1));
    socket.close(1000, 'bye');
    expect(hub.sessionIds(1)).toEqual(['short-lived']);
    await new Promise((r) => setTimeout(r, 120));
    expect(hub.sessionIds(1)).toEqual([]);
    expect(hub.sendToSession(id, progress(2))).toBeNull();
  });

  it('revoking a token closes only that token’s sockets', () => {
    const hub = new RealtimeHub();
    const a = new FakeSocket();
    const b = new FakeSocket();
    attach(hub, a, 1);
    attach(hub, b, 2);
    hub.revokeToken('t1');
    expect(a.closedWith?.code).toBe(4401);
    expect(b.closedWith).toBeNull();
    expect(hub.sessionIds(1)).toEqual([]);
    expect(hub.sessionIds(2)).toHaveLength(1);
  });
});

import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import { Socket, SocketClose, type ServerMessage } from '../../openapi/socket-protocol';

/** A message before the hub numbers it (`index` is assigned per session); distributes over the union. */
export type OutgoingMessage = ServerMessage extends infer M
  ? M extends ServerMessage
    ? Omit<M, 'index'>
    : never
  : never;

interface Session {
  id: string;
  uid: number;
  tokenHash: string;
  socket: WebSocket | null;
  nextIndex: number;
  /** Indexed messages not yet acknowledged, serialised, in index order (Map keeps insertion order). */
  outbox: Map<number, string>;
  /** UTF-16 units the outbox holds */
  outboxSize: number;
  idleTimer: NodeJS.Timeout | null;
}

/** What one process tells the others that share its database (see cluster.ts). */
export type ClusterEvent =
  | { kind: 'session'; sessionId: string; message: OutgoingMessage }
  | { kind: 'user'; uid: number; message: OutgoingMessage }
  | { kind: 'revokeToken'; tokenHash: string }
  | { kind: 'revokeUser'; uid: number }
  | { kind: 'jobs' }
  /** never sent: this process's bus connection came back after a break, in which events may have been lost */
  | { kind: 'resync' };

/** The other processes: a message bus and the shared registry of socket sessions. */
export interface HubCluster {
  publish(event: ClusterEvent): void;
  /** Resolves once other processes can find the session (never rejects: a failure is logged). */
  registerSession(sessionId: string, uid: number): Promise<void>;
  unregisterSession(sessionId: string): void;
  /** whether another process holds this session of the account */
  hasRemoteSession(uid: number, sessionId: string): Promise<boolean>;
  /** whether events from the other processes come in now (readiness) */
  connected(): boolean;
}

export interface HubOptions {
  /** How long a session without a socket keeps its outbox. */
  sessionIdleMs?: number;
  /** Oldest unacknowledged messages are dropped beyond this many per session. */
  maxOutbox?: number;
  /** ... or beyond this many UTF-16 units of JSON per session (a client that never acknowledges costs no more). */
  maxOutboxChars?: number;
  /** An account's sessions beyond this many: the oldest is dropped (each holds an outbox). */
  maxSessionsPerUser?: number;
}

/**
 * Per-session outboxes for the realtime socket (spec §7 "Realtime socket"). Later features call
 * `sendToSession` / `sendToUser`; messages carry an increasing `index` and stay in the outbox until
 * the client acknowledges them, so a reconnect with the same session id re-sends what was missed.
 */
export class RealtimeHub {
  private sessions = new Map<string, Session>();
  /** ids sessions had before renew(), to the current id: clients and checks in flight still use them */
  private renamed = new Map<string, string>();
  private readonly idleMs: number;
  private readonly maxOutbox: number;
  private readonly maxOutboxChars: number;
  private readonly maxSessionsPerUser: number;
  /** set when several processes share the database; null for a single process */
  cluster: HubCluster | null = null;

  constructor(options: HubOptions = {}) {
    this.idleMs = options.sessionIdleMs ?? 10 * 60 * 1000;
    this.maxOutbox = options.maxOutbox ?? 1000;
    this.maxOutboxChars = options.maxOutboxChars ?? 8 * 1024 * 1024;
    this.maxSessionsPerUser = options.maxSessionsPerUser ?? 30;
  }

  /**
   * Attaches an authenticated socket. A known session id of the same account is resumed (its
   * unacknowledged messages are re-sent); anything else gets a fresh session id.
   */
  attach(socket: WebSocket, auth: { uid: number; tokenHash: string }, requestedId?: string): string {
    let session = requestedId ? this.find(requestedId) : undefined;
    if (session && session.uid !== auth.uid) session = undefined;
    let registering: Promise<void> | undefined;
    if (!session) {
      const id =
        requestedId && !this.sessions.has(requestedId) && /^[\w.:-]{1,128}$/.test(requestedId)
          ? requestedId
          : randomUUID();
      const mine = [...this.sessions.values()].filter((s) => s.uid === auth.uid);
      if (mine.length >= this.maxSessionsPerUser) {
        // the oldest session without a socket goes first, else the oldest one
        const oldest = mine.find((s) => !s.socket) ?? mine[0];
        this.drop(oldest, SocketClose.Evicted);
      }
      session = {
        id,
        uid: auth.uid,
        tokenHash: auth.tokenHash,
        socket: null,
        nextIndex: 1,
        outbox: new Map(),
        outboxSize: 0,
        idleTimer: null,
      };
      this.sessions.set(id, session);
      registering = this.cluster?.registerSession(id, auth.uid);
    }
    const current = session;
    const connect = () => {
      if (this.sessions.get(current.id) !== current) return;
      if (socket.readyState !== socket.OPEN) {
        // closed while the session was being registered: it waits for a resume like any detached session
        if (!current.socket && !current.idleTimer) this.expireLater(current);
        return;
      }
      if (current.idleTimer) clearTimeout(current.idleTimer);
      current.idleTimer = null;
      if (current.socket && current.socket !== socket)
        current.socket.close(SocketClose.Replaced.code, SocketClose.Replaced.reason);
      current.socket = socket;
      current.tokenHash = auth.tokenHash;
      socket.on('close', () => this.detach(current, socket));
      this.send(socket, { ...Socket.SessionId, status: 200, data: { session_id: current.id } });
      for (const message of current.outbox.values()) this.sendRaw(socket, message);
    };
    // With several processes, the session id is announced only once the others can find it: a check submitted
    // through another process right after the announcement must not be refused for an unknown session.
    if (registering) void registering.then(connect);
    else connect();
    return session.id;
  }

  /** Removes an acknowledged message from the session's outbox. */
  ack(sessionId: string, index: number): void {
    const session = this.find(sessionId);
    const message = session?.outbox.get(index);
    if (!session || message === undefined) return;
    session.outbox.delete(index);
    session.outboxSize -= message.length;
  }

  /** Queues an indexed message for one session and sends it now if the socket is open; returns the index or null. */
  sendToSession(sessionId: string, message: OutgoingMessage): number | null {
    const session = this.find(sessionId);
    if (!session) {
      // another process may hold it: that process numbers and delivers the message
      this.cluster?.publish({ kind: 'session', sessionId, message });
      return null;
    }
    const index = session.nextIndex++;
    const json = JSON.stringify({ ...message, index });
    session.outbox.set(index, json);
    session.outboxSize += json.length;
    while (
      session.outbox.size > this.maxOutbox ||
      (session.outboxSize > this.maxOutboxChars && session.outbox.size > 1)
    ) {
      const oldest = session.outbox.keys().next().value as number;
      session.outboxSize -= session.outbox.get(oldest)!.length;
      session.outbox.delete(oldest);
    }
    if (session.socket) this.sendRaw(session.socket, json);
    return index;
  }

  /** Sends to every session of the account (in every process); returns how many sessions of this one received it. */
  sendToUser(uid: number, message: OutgoingMessage): number {
    this.cluster?.publish({ kind: 'user', uid, message });
    return this.sendToLocalUser(uid, message);
  }

  private sendToLocalUser(uid: number, message: OutgoingMessage): number {
    let count = 0;
    for (const session of this.sessions.values()) {
      if (session.uid === uid && this.sendToSession(session.id, message) !== null) count++;
    }
    return count;
  }

  /** Token revoked (logout, password change): close its sockets with 4401 and forget their sessions. */
  revokeToken(tokenHash: string): void {
    this.cluster?.publish({ kind: 'revokeToken', tokenHash });
    this.revokeLocalToken(tokenHash);
  }

  private revokeLocalToken(tokenHash: string): void {
    for (const session of [...this.sessions.values()]) {
      if (session.tokenHash === tokenHash) this.drop(session, SocketClose.Unauthorized);
    }
  }

  /** Account closed: every session goes. */
  revokeUser(uid: number): void {
    this.cluster?.publish({ kind: 'revokeUser', uid });
    this.revokeLocalUser(uid);
  }

  private revokeLocalUser(uid: number): void {
    for (const session of [...this.sessions.values()]) {
      if (session.uid === uid) this.drop(session, SocketClose.Unauthorized);
    }
  }

  /** An event published by another process. */
  receive(event: ClusterEvent): void {
    if (event.kind === 'session') {
      if (this.find(event.sessionId)) this.sendToSession(event.sessionId, event.message);
    } else if (event.kind === 'user') this.sendToLocalUser(event.uid, event.message);
    else if (event.kind === 'revokeToken') this.revokeLocalToken(event.tokenHash);
    else if (event.kind === 'revokeUser') this.revokeLocalUser(event.uid);
    else if (event.kind === 'resync') this.renew();
  }

  /**
   * Messages from other processes may have been lost: every session gets a new id, announced to its socket like a
   * new session's, and a client that sees its session change reloads what it shows (the jobs and notices are in
   * the database). The old id still reaches the session.
   */
  renew(): void {
    for (const session of [...this.sessions.values()]) {
      const old = session.id;
      const id = randomUUID();
      this.sessions.delete(old);
      session.id = id;
      this.sessions.set(id, session);
      for (const [from, to] of this.renamed) if (to === old) this.renamed.set(from, id);
      this.renamed.set(old, id);
      const announce = () => {
        if (this.sessions.get(id) === session && session.socket)
          this.send(session.socket, { ...Socket.SessionId, status: 200, data: { session_id: id } });
      };
      const registering = this.cluster?.registerSession(id, session.uid);
      if (registering) void registering.then(announce);
      else announce();
    }
  }

  /** The session of an id, current or from before renew(). */
  private find(sessionId: string): Session | undefined {
    const renamed = this.renamed.get(sessionId);
    return this.sessions.get(sessionId) ?? (renamed === undefined ? undefined : this.sessions.get(renamed));
  }

  /** A session is gone: so are its former ids, here and in the shared registry. */
  private forgetRenamed(id: string): void {
    for (const [from, to] of this.renamed) {
      if (to !== id) continue;
      this.renamed.delete(from);
      this.cluster?.unregisterSession(from);
    }
  }

  /** Whether the account has this socket session here or in another process. */
  async hasSession(uid: number, sessionId: string): Promise<boolean> {
    const local = this.find(sessionId);
    if (local) return local.uid === uid;
    return (await this.cluster?.hasRemoteSession(uid, sessionId)) ?? false;
  }

  /** Every session held by this process (to register them again in the shared registry). */
  localSessions(): Array<{ id: string; uid: number }> {
    return [...this.sessions.values()].map((s) => ({ id: s.id, uid: s.uid }));
  }

  sessionIds(uid: number): string[] {
    return [...this.sessions.values()].filter((s) => s.uid === uid).map((s) => s.id);
  }

  /** Sockets open on this process (metrics). */
  connections(): number {
    let open = 0;
    for (const session of this.sessions.values()) if (session.socket) open++;
    return open;
  }

  /** Unacknowledged message count of a session (for tests and diagnostics). */
  pending(sessionId: string): number {
    return this.find(sessionId)?.outbox.size ?? 0;
  }

  close(): void {
    for (const session of [...this.sessions.values()])
      this.drop(session, { code: 1001, reason: 'server shutting down' });
  }

  private drop(session: Session, close: { code: number; reason: string }): void {
    if (session.idleTimer) clearTimeout(session.idleTimer);
    this.sessions.delete(session.id);
    this.cluster?.unregisterSession(session.id);
    this.forgetRenamed(session.id);
    const socket = session.socket;
    session.socket = null;
    socket?.close(close.code, close.reason);
  }

  private detach(session: Session, socket: WebSocket): void {
    if (session.socket !== socket) return;
    session.socket = null;
    if (this.sessions.get(session.id) !== session) return;
    this.expireLater(session);
  }

  /** A session without a socket is forgotten after the idle time unless a socket resumes it. */
  private expireLater(session: Session): void {
    session.idleTimer = setTimeout(() => {
      if (session.socket) return;
      this.sessions.delete(session.id);
      this.cluster?.unregisterSession(session.id);
      this.forgetRenamed(session.id);
    }, this.idleMs);
    session.idleTimer.unref();
  }

  private send(socket: WebSocket, message: ServerMessage): void {
    this.sendRaw(socket, JSON.stringify(message));
  }

  private sendRaw(socket: WebSocket, json: string): void {
    if (socket.readyState === socket.OPEN) socket.send(json);
  }
}

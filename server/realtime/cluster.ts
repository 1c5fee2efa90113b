import { Redis } from 'ioredis';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { nowIso, type Db } from '../db';
import { deleteSocketSession, findSocketSessionUid, registerSocketSession } from '../db/repos/bus';
import type { ClusterEvent, HubCluster } from './hub';

const CHANNEL = 'workbench_events';
/** NOTIFY payloads must stay under 8,000 bytes: larger events travel as numbered base64 chunks, in order. */
const CHUNK = 7_000;
/** Notifications sent in one statement at most. */
const BATCH = 100;
/** Reconnecting a lost bus connection: the first wait, doubled after each failure up to the last. */
const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 5_000;
const CONNECT_TIMEOUT_MS = 10_000;

interface Envelope {
  /** the publishing process */
  o: string;
  /** event number within that process */
  n: number;
  /** chunk index and count */
  i: number;
  c: number;
  /** base64 of the event's JSON */
  d: string;
}

/**
 * What the processes sharing one database tell each other: events (socket messages, revocations, "new document
 * job") over a bus, and the socket sessions each holds, registered in `socket_sessions` so any process can tell
 * whether a session exists. The bus is PostgreSQL's LISTEN/NOTIFY (PgCluster) or, with REDIS_URL, Redis pub/sub
 * (RedisCluster).
 */
export abstract class SharedCluster implements HubCluster {
  constructor(
    protected readonly db: Db,
    protected readonly instance: string,
    protected readonly deliver: (event: ClusterEvent) => void,
    protected readonly log: FastifyBaseLogger,
  ) {}

  abstract start(): Promise<void>;
  abstract close(): Promise<void>;
  abstract publish(event: ClusterEvent): void;
  /** Whether events from the other processes come in now (readiness). */
  abstract connected(): boolean;

  /**
   * The bus came back after a break: what the other processes published meanwhile is lost. Jobs and notices are in
   * the database; the hub gives its sessions new ids, so their clients reload what they show.
   */
  protected resync(): void {
    this.log.warn('cluster bus reconnected: events of the break may be lost, sessions renewed');
    this.deliver({ kind: 'resync' });
  }

  registerSession(sessionId: string, uid: number): Promise<void> {
    return registerSocketSession(this.db, {
      session_id: sessionId,
      uid,
      instance: this.instance,
      created_at: nowIso(),
    }).catch((error) => this.log.warn({ err: error }, 'socket session not registered'));
  }

  unregisterSession(sessionId: string): void {
    void deleteSocketSession(this.db, sessionId, this.instance).catch((error) =>
      this.log.warn({ err: error }, 'socket session not removed'),
    );
  }

  async hasRemoteSession(uid: number, sessionId: string): Promise<boolean> {
    const owner = await findSocketSessionUid(this.db, sessionId);
    return owner !== undefined && Number(owner) === uid;
  }
}

/**
 * The bus over PostgreSQL: events go out with NOTIFY on one dedicated connection, so they arrive in the order they
 * were published, and come in by LISTEN on another. A lost connection (PostgreSQL restarted, a network break) is
 * made again: the listener at once with back-off, LISTENing again; the publisher with the next event to send.
 */
export class PgCluster extends SharedCluster {
  private listener: pg.Client | null = null;
  private publisher: pg.Client | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private pending: string[] = [];
  private sending = false;
  private counter = 0;
  private partial = new Map<string, string[]>();
  private closed = false;

  constructor(
    private readonly databaseUrl: string,
    db: Db,
    instance: string,
    deliver: (event: ClusterEvent) => void,
    log: FastifyBaseLogger,
  ) {
    super(db, instance, deliver, log);
  }

  async start(): Promise<void> {
    await Promise.all([this.listen(), this.connectPublisher()]);
  }

  connected(): boolean {
    return this.listener !== null;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    await this.chain.catch(() => {});
    await Promise.all([this.listener?.end().catch(() => {}), this.publisher?.end().catch(() => {})]);
  }

  /** A client that forgets itself here when its connection fails or ends. */
  private client(lost: (client: pg.Client) => void): pg.Client {
    // a connect that hangs (a half-open network) would stall the reconnection for good; keep-alive finds a dead peer
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
    });
    client.on('error', (error) => {
      if (!this.closed) this.log.error({ err: error }, 'cluster connection failed');
      lost(client);
    });
    client.on('end', () => lost(client));
    return client;
  }

  private async listen(): Promise<void> {
    const client = this.client((gone) => this.listenerLost(gone));
    client.on('notification', (note) => {
      if (note.channel === CHANNEL && note.payload) this.receive(note.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      client.end().catch(() => {});
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.listener = client;
  }

  private listenerLost(client: pg.Client): void {
    if (this.listener !== client) return;
    this.listener = null;
    client.end().catch(() => {});
    this.partial.clear();
    if (!this.closed) this.reconnect(RECONNECT_FIRST_MS);
  }

  private reconnect(waitMs: number): void {
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.closed) return;
      this.listen().then(
        () => {
          if (!this.closed) this.resync();
        },
        (error: Error) => {
          this.log.warn({ err: error, retryInMs: waitMs }, 'cluster bus still down');
          this.reconnect(Math.min(waitMs * 2, RECONNECT_MAX_MS));
        },
      );
    }, waitMs);
    this.reconnectTimer.unref();
  }

  private async connectPublisher(): Promise<pg.Client> {
    const client = this.client((gone) => {
      if (this.publisher === gone) this.publisher = null;
      gone.end().catch(() => {});
    });
    await client.connect();
    this.publisher = client;
    return client;
  }

  publish(event: ClusterEvent): void {
    if (this.closed) return;
    const data = Buffer.from(JSON.stringify(event)).toString('base64');
    const n = ++this.counter;
    const count = Math.max(1, Math.ceil(data.length / CHUNK));
    for (let i = 0; i < count; i++) {
      const envelope: Envelope = { o: this.instance, n, i, c: count, d: data.slice(i * CHUNK, (i + 1) * CHUNK) };
      this.pending.push(JSON.stringify(envelope));
    }
    if (!this.sending) this.chain = this.send();
  }

  /**
   * Sends what is pending in as few round trips as possible: everything published while the previous batch was on
   * its way goes in one statement (notifications of one statement are delivered in order).
   */
  private async send(): Promise<void> {
    this.sending = true;
    try {
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0, BATCH);
        const calls = batch.map((_, i) => `pg_notify($1, $${i + 2})`).join(', ');
        // a publisher lost with the database is made again for the next batch; this one is lost if that fails
        await (this.publisher ? Promise.resolve(this.publisher) : this.connectPublisher())
          .then((client) => client.query(`SELECT ${calls}`, [CHANNEL, ...batch]))
          .catch((error) => this.log.error({ err: error }, 'cluster events not published'));
      }
    } finally {
      this.sending = false;
    }
  }

  private receive(payload: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(payload) as Envelope;
    } catch {
      return;
    }
    if (envelope.o === this.instance) return;
    let data = envelope.d;
    if (envelope.c > 1) {
      const key = `${envelope.o}:${envelope.n}`;
      const parts = this.partial.get(key) ?? [];
      parts[envelope.i] = envelope.d;
      this.partial.set(key, parts);
      if (parts.filter((p) => p !== undefined).length < envelope.c) return;
      this.partial.delete(key);
      data = parts.join('');
    }
    try {
      this.deliver(JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as ClusterEvent);
    } catch (error) {
      this.log.warn({ err: error }, 'cluster event dropped');
    }
  }
}

/**
 * The bus over Redis pub/sub (REDIS_URL): one connection publishes, in order; another subscribes. Messages have no
 * size limit there, so events travel whole.
 */
export class RedisCluster extends SharedCluster {
  private publisher: Redis;
  private subscriber: Redis;
  private closed = false;
  /** the subscriber lost its connection since it was last ready (ioredis reconnects and subscribes again) */
  private broken = false;

  constructor(
    redisUrl: string,
    db: Db,
    instance: string,
    deliver: (event: ClusterEvent) => void,
    log: FastifyBaseLogger,
  ) {
    super(db, instance, deliver, log);
    const options = { lazyConnect: true, maxRetriesPerRequest: 3 };
    this.publisher = new Redis(redisUrl, options);
    this.subscriber = new Redis(redisUrl, options);
  }

  async start(): Promise<void> {
    for (const client of [this.publisher, this.subscriber]) {
      client.on('error', (error: Error) => this.log.error({ err: error }, 'cluster connection failed'));
    }
    this.subscriber.on('close', () => {
      if (!this.closed) this.broken = true;
    });
    this.subscriber.on('ready', () => {
      if (!this.broken || this.closed) return;
      this.broken = false;
      this.resync();
    });
    await Promise.all([this.publisher.connect(), this.subscriber.connect()]);
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel !== CHANNEL) return;
      try {
        const { o, e } = JSON.parse(message) as { o: string; e: ClusterEvent };
        if (o !== this.instance) this.deliver(e);
      } catch (error) {
        this.log.warn({ err: error }, 'cluster event dropped');
      }
    });
    await this.subscriber.subscribe(CHANNEL);
  }

  connected(): boolean {
    return this.subscriber.status === 'ready' && this.publisher.status === 'ready';
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([this.publisher.quit().catch(() => {}), this.subscriber.quit().catch(() => {})]);
  }

  publish(event: ClusterEvent): void {
    if (this.closed) return;
    this.publisher
      .publish(CHANNEL, JSON.stringify({ o: this.instance, e: event }))
      .catch((error: Error) => this.log.error({ err: error }, 'cluster event not published'));
  }
}

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
 * were published, and come in by LISTEN on another.
 */
export class PgCluster extends SharedCluster {
  private listener: pg.Client;
  private publisher: pg.Client;
  private chain: Promise<unknown> = Promise.resolve();
  private pending: string[] = [];
  private sending = false;
  private counter = 0;
  private partial = new Map<string, string[]>();
  private closed = false;

  constructor(
    databaseUrl: string,
    db: Db,
    instance: string,
    deliver: (event: ClusterEvent) => void,
    log: FastifyBaseLogger,
  ) {
    super(db, instance, deliver, log);
    this.listener = new pg.Client({ connectionString: databaseUrl });
    this.publisher = new pg.Client({ connectionString: databaseUrl });
  }

  async start(): Promise<void> {
    await Promise.all([this.listener.connect(), this.publisher.connect()]);
    // a dropped connection is logged; the process supervisor restarts a server whose database went away
    for (const client of [this.listener, this.publisher]) {
      client.on('error', (error) => this.log.error({ err: error }, 'cluster connection failed'));
    }
    this.listener.on('notification', (note) => {
      if (note.channel === CHANNEL && note.payload) this.receive(note.payload);
    });
    await this.listener.query(`LISTEN ${CHANNEL}`);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.chain.catch(() => {});
    await Promise.all([this.listener.end().catch(() => {}), this.publisher.end().catch(() => {})]);
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
        await this.publisher
          .query(`SELECT ${calls}`, [CHANNEL, ...batch])
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

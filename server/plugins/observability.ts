import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import fp from 'fastify-plugin';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { pingDatabase } from '../db/repos/health';
import { jobQueueByKind, type KindQueue } from '../db/repos/job-metrics';
import type { JobKind } from '../db/schema';
import { checkerPool } from '../workers/checker/pool';
import { checkCounts, providerErrorCounts } from '../metrics';

/** What GET /ready looks at; each is true when it works. */
export interface Readiness {
  database: boolean;
  /** the event bus between processes (true when there is none: one process on SQLite) */
  bus: boolean;
  /** DATA_DIR can be written */
  storage: boolean;
  /** a checker worker has its lexicons loaded */
  checker: boolean;
  /** the server is not closing */
  running: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's Prometheus metrics (GET /metrics). */
    metrics: Registry;
    /** Which of the server's parts work now (GET /ready). */
    readiness(): Promise<Readiness>;
  }
}

const within = <T>(promise: Promise<T>, ms: number): Promise<T> =>
  Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timed out')), ms).unref())]);

/**
 * Readiness and metrics, and the request id on every answer. The metrics read what is already counted: request
 * durations here, checks and provider errors in metrics.ts, the job queue in the jobs table, the pools'
 * and the hub's own counters.
 */
export default fp(
  async (app) => {
    let closing = false;
    app.addHook('preClose', async () => {
      closing = true;
    });

    // the id the request was logged under (logging.ts requestIds), for whoever reports a failure
    app.addHook('onRequest', async (request, reply) => {
      reply.header('x-request-id', request.id);
    });

    app.decorate('readiness', async (): Promise<Readiness> => {
      const [database, storage] = await Promise.all([
        within(pingDatabase(app.db), 2_000).then(
          () => true,
          () => false,
        ),
        access(app.config.dataDir, constants.W_OK).then(
          () => true,
          () => false,
        ),
      ]);
      const bus = app.realtime.cluster?.connected() ?? true;
      return { database, bus, storage, checker: checkerPool().status().ready > 0, running: !closing };
    });

    const registry = new Registry();
    app.decorate('metrics', registry);
    const registers = [registry];

    const duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from request to answer, by route (the pattern, not the URL) and status',
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    app.addHook('onResponse', async (request, reply) => {
      duration.observe(
        { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: reply.statusCode },
        reply.elapsedTime / 1000,
      );
    });

    new Counter({
      name: 'workbench_checks_total',
      help: 'Checks finished by this process, by kind (text, api, document, pdf, image, speech, website)',
      labelNames: ['kind'] as const,
      registers,
      collect() {
        this.reset();
        for (const { kind, count } of checkCounts()) this.inc({ kind }, count);
      },
    });
    new Counter({
      name: 'workbench_checked_characters_total',
      help: 'Characters checked by this process, by kind of check',
      labelNames: ['kind'] as const,
      registers,
      collect() {
        this.reset();
        for (const { kind, chars } of checkCounts()) this.inc({ kind }, chars);
      },
    });
    new Counter({
      name: 'workbench_provider_errors_total',
      help: 'Failed calls to external services (sms, storage, ai, asr) in this process',
      labelNames: ['provider'] as const,
      registers,
      collect() {
        this.reset();
        for (const provider of ['sms', 'storage', 'ai', 'asr'] as const) this.inc({ provider }, 0);
        for (const { provider, count } of providerErrorCounts()) this.inc({ provider }, count);
      },
    });

    // the queue is shared by every process: each reports the same figures, so take one series per kind, not a sum.
    // One query serves the three gauges of a scrape (each collects on its own).
    let snapshot: { at: number; rows: Promise<Map<JobKind, KindQueue>> } | null = null;
    const queue = () => {
      if (!snapshot || Date.now() - snapshot.at > 1_000) {
        const rows = jobQueueByKind(app.db).then((list) => new Map(list.map((row) => [row.kind, row])));
        snapshot = { at: Date.now(), rows };
      }
      return snapshot.rows;
    };
    // every kind, with zeros, so an alert on a kind has a series before its first job
    const kinds = Object.keys(app.config.jobs.concurrency) as JobKind[];
    const jobGauge = (name: string, help: string, value: (row: KindQueue | undefined, now: number) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['kind'] as const,
        registers,
        async collect() {
          const rows = await queue();
          const now = Date.now();
          for (const kind of kinds) this.set({ kind }, value(rows.get(kind), now));
        },
      });
    jobGauge('workbench_jobs_queued', 'Jobs waiting, by kind (all processes)', (row) => row?.queued ?? 0);
    jobGauge('workbench_jobs_running', 'Jobs running, by kind (all processes)', (row) => row?.running ?? 0);
    jobGauge(
      'workbench_jobs_oldest_queued_seconds',
      'Age of the oldest waiting job, by kind (0: none waits)',
      (row, now) => (row?.oldestQueuedAt ? Math.max(0, (now - Date.parse(row.oldestQueuedAt)) / 1000) : 0),
    );

    new Gauge({
      name: 'workbench_pool_workers',
      help: 'Worker threads of the checker and heavy pools',
      labelNames: ['pool'] as const,
      registers,
      collect() {
        this.set({ pool: 'checker' }, checkerPool().status().workers);
        this.set({ pool: 'heavy' }, app.heavy.stats().workers);
      },
    });
    new Gauge({
      name: 'workbench_pool_busy',
      help: 'Workers of the checker and heavy pools running a task',
      labelNames: ['pool'] as const,
      registers,
      collect() {
        this.set({ pool: 'checker' }, checkerPool().status().busy);
        this.set({ pool: 'heavy' }, app.heavy.stats().busy);
      },
    });
    new Gauge({
      name: 'workbench_pool_queued',
      help: 'Tasks waiting for a worker of the checker and heavy pools',
      labelNames: ['pool'] as const,
      registers,
      collect() {
        this.set({ pool: 'checker' }, checkerPool().queued());
        this.set({ pool: 'heavy' }, app.heavy.stats().queued);
      },
    });
    new Gauge({
      name: 'workbench_socket_connections',
      help: 'Realtime sockets open on this process',
      registers,
      collect() {
        this.set(app.realtime.connections());
      },
    });
    new Gauge({
      name: 'process_resident_memory_bytes',
      help: 'Resident memory of the process',
      registers,
      collect() {
        this.set(process.memoryUsage.rss());
      },
    });
  },
  // first of all (app.ts): its hooks see every request; it reads the database, pools and hub only when asked
  { name: 'observability' },
);

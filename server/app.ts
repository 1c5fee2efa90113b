import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { constants as zlib } from 'node:zlib';
import compress from '@fastify/compress';
import multipart from '@fastify/multipart';
import { loadConfig, type ServerConfig } from './config';
import { loggerOptions, requestIds } from './logging';
import observabilityPlugin from './plugins/observability';
import corsPlugin from './plugins/cors';
import apiDocsPlugin from './plugins/api-docs';
import dbPlugin from './plugins/db';
import { sharedSerializers } from './plugins/serializers';
import authPlugin from './plugins/auth';
import errorsPlugin from './plugins/errors';
import validationPlugin from './plugins/validation';
import rateLimitPlugin from './plugins/rate-limit';
import downloadsPlugin from './plugins/downloads';
import spaPlugin from './plugins/spa';
import websocketPlugin from './plugins/websocket';
import openapiPlugin from './plugins/openapi';
import jobsPlugin from './plugins/jobs';
import heavyPlugin from './plugins/heavy';
import instancePlugin from './plugins/instance';
import type { JobRunnerOptions } from './jobs/runner';
import { createSmsProvider, type SmsProvider } from './domain/accounts/sms';
import { createPaymentProvider } from './domain/commerce/pay/wechat';
import type { PaymentProvider } from './domain/commerce/pay/provider';
import type { RealtimeHub } from './realtime/hub';
import { setToolSettings } from './formats/tools';
import { configureCheckerPool } from './workers/checker/pool';
import { configureRights } from './domain/rights/ledger';
import type { UploadedFile } from './formats/documents/upload';
import './types';

export interface BuildOptions {
  /** Overrides for the environment-derived configuration. */
  config?: Partial<ServerConfig>;
  dataDir?: string;
  databaseUrl?: string;
  logger?: FastifyServerOptions['logger'];
  /** Another contract file (tests). */
  specification?: string;
  sms?: SmsProvider;
  /** The payment provider; null = payment not configured (default: WeChat Pay from the WXPAY_* variables). */
  payment?: PaymentProvider | null;
  realtime?: RealtimeHub;
  /** Close sockets silent for this long (default three heartbeat periods). */
  socketIdleMs?: number;
  /** Job runner settings (concurrency per kind, progress interval). */
  jobs?: JobRunnerOptions;
}

/** Assembles the server from its plugins; `server.ts` listens, tests call `inject()`. */
export async function buildApp(options: BuildOptions = {}): Promise<FastifyInstance> {
  const base = loadConfig();
  const config: ServerConfig = {
    ...base,
    ...options.config,
    ...(options.dataDir !== undefined && { dataDir: options.dataDir }),
    ...(options.databaseUrl !== undefined && { databaseUrl: options.databaseUrl || undefined }),
  };
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config.logLevel),
    bodyLimit: config.bodyLimit,
    requestTimeout: config.requestTimeoutMs,
    // The proxies by address, never `true`: with `true` the client's address is the left-most X-Forwarded-For entry,
    // which the client writes itself (a proxy appends to what it was sent), so every per-address limit could be
    // dodged. (Fastify ignores a bare hop count.)
    trustProxy: config.trustProxy,
    // x-request-id from a trusted proxy, else a new id: in every log line of the request and on its answer
    genReqId: requestIds(config.trustProxy),
    // JSON with __proto__ keys is stripped rather than trusted.
    onProtoPoisoning: 'remove',
    schemaController: { compilersFactory: { buildSerializer: sharedSerializers } },
  });
  app.decorate('config', config);
  // process-wide: the programs this process runs, the checker pool its first check starts (one per process), and
  // the rights' compare ceilings and team-pool rule (read where only a database is at hand)
  setToolSettings(config.tools);
  configureCheckerPool(config.checker);
  configureRights(config);
  // The console provider says on stdout, whatever LOG_LEVEL is, that it sent nothing (with the code outside
  // production); tests (logger: false) read the outbox only.
  const print = options.logger === false ? () => {} : (line: string) => console.log(line);
  const warn = (fields: Record<string, unknown>, message: string) => app.log.warn(fields, message);
  app.decorate('sms', options.sms ?? createSmsProvider(config.sms, config.dataDir, { print, warn }));

  app.decorate('payment', options.payment !== undefined ? options.payment : createPaymentProvider());

  await app.register(errorsPlugin);
  await app.register(observabilityPlugin);
  await app.register(import('./plugins/security-headers'));
  await app.register(corsPlugin);
  // The SPA bundle and large JSON results shrink ~4x; brotli at a quality cheap enough to do per request.
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
  });
  await app.register(validationPlugin);
  await app.register(dbPlugin);
  await app.register(downloadsPlugin);
  await app.register(authPlugin);
  await app.register(rateLimitPlugin);
  await app.register(multipart, {
    // Every file part is read whole into memory before the route's schema is checked: no call takes more than two
    // files and four fields, so a request of hundreds of parts (hundreds of megabytes) is refused as it streams in.
    limits: { fileSize: config.uploadLimit, files: 2, fields: 8, parts: 10, fieldSize: 64 * 1024 },
    // Parts are parsed before validation so the contract's multipart schemas check them; a file part
    // becomes `{filename, mimetype, data}` (see formats/documents/upload.ts UploadedFile).
    attachFieldsToBody: 'keyValues',
    async onFile(part) {
      const value: UploadedFile = { filename: part.filename, mimetype: part.mimetype, data: await part.toBuffer() };
      // what attachFieldsToBody puts in the body for this part
      Object.assign(part, { value });
    },
  });
  await app.register(websocketPlugin, { hub: options.realtime, socketIdleMs: options.socketIdleMs });
  await app.register(instancePlugin);
  await app.register(heavyPlugin);
  await app.register(jobsPlugin, { runner: options.jobs });
  await app.register(apiDocsPlugin);
  await app.register(openapiPlugin, { specification: options.specification });
  await app.register(spaPlugin);
  return app;
}

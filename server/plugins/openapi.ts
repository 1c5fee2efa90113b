import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import fp from 'fastify-plugin';
import openapiGlue from 'fastify-openapi-glue';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { errorBody } from './errors';
import { operations } from '../routes';
import type { OperationId, Operations } from '../routes/types';

export const DEFAULT_SPEC = fileURLToPath(new URL('../../openapi/workbench.yaml', import.meta.url));

// fastify-openapi-glue's types ask for a full RouteOptions; it fills in method, url and schema itself.
type GlueRoute = RouteOptions;
type AnyHandler = (request: FastifyRequest, reply: FastifyReply) => unknown;

export const NOT_AVAILABLE_MSG = 'server.unavailable' as const;

const notAvailable = async (_request: FastifyRequest, reply: FastifyReply) =>
  reply.code(501).send(errorBody(501, NOT_AVAILABLE_MSG));

// Answered in onRequest: a call that does not exist yet says so whatever its input or token.
const notAvailableRoute: Partial<GlueRoute> = { onRequest: notAvailable, handler: notAvailable };

/** Every media type the contract names (requests and responses). */
function mediaTypes(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) mediaTypes(item, found);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'content' && value && typeof value === 'object') {
        // `content` is also a common property name in schemas; only media-type keys count.
        for (const type of Object.keys(value)) if (/^[\w.+-]+\/[\w.+*-]+$/.test(type)) found.add(type);
      }
      mediaTypes(value, found);
    }
  }
  return found;
}

/** The parts of an OpenAPI document the security walk reads. */
interface SecuritySpec {
  paths?: Record<string, Record<string, unknown>>;
  security?: Array<Record<string, string[]>>;
}
const isOperation = (op: unknown): op is { operationId: string; security?: Array<Record<string, string[]>> } =>
  !!op && typeof op === 'object' && typeof (op as { operationId?: unknown }).operationId === 'string';

/** operationIds whose effective `security` asks for a bearer token. */
function securedOperations(spec: SecuritySpec): Set<string> {
  const secured = new Set<string>();
  for (const item of Object.values(spec.paths ?? {})) {
    for (const op of Object.values(item)) {
      if (!isOperation(op)) continue;
      const security = op.security ?? spec.security ?? [];
      // An empty alternative (`- {}`) makes the token optional: the handler decides (LanguageTool calls).
      if (security.length > 0 && !security.some((s) => Object.keys(s).length === 0)) secured.add(op.operationId);
    }
  }
  return secured;
}

const HAS_PARSER = /^(application\/json|text\/plain|multipart\/form-data|application\/x-www-form-urlencoded)$/;
const FORM = 'application/x-www-form-urlencoded';

/**
 * A handler typed by its operation serves the route the contract made for it: the contract's schemas validate
 * body, query and path before the handler runs, which is what lets the handler read them as typed.
 */
function toRoute(operation: NonNullable<Operations[OperationId]>): Omit<Partial<RouteOptions>, 'handler'> & {
  handler: AnyHandler;
} {
  const route = typeof operation === 'function' ? { handler: operation } : operation;
  return { ...route, handler: route.handler as AnyHandler };
}

/** The contract as parsed YAML, once per file and process: every app of a process serves the same contract. */
const specs = new Map<string, SecuritySpec>();
function loadSpec(file: string): SecuritySpec {
  const known = specs.get(file);
  if (known) return known;
  const spec: SecuritySpec = parse(readFileSync(file, 'utf8'));
  specs.set(file, spec);
  return spec;
}

/** fastify-openapi-glue's parser (internal to it: the package exports its plugin only). */
interface GlueParser {
  parse(specification: unknown, options: object): Promise<unknown>;
}
const isParserClass = (value: unknown): value is { prototype: GlueParser } =>
  typeof value === 'function' && typeof (value as { prototype?: { parse?: unknown } }).prototype?.parse === 'function';

let parseShared: Promise<void> | null = null;
/**
 * Makes fastify-openapi-glue validate the contract against the OpenAPI schema and resolve its references once per
 * contract and process instead of on every registration: that was most of an app's start (about 450 of 750 ms of
 * CPU), paid again by each of the test suite's hundreds of apps. Each registration gets a clone of the result, as
 * the glue hands its schemas to fastify, which may change them.
 */
function shareGlueParse(): Promise<void> {
  return (parseShared ??= (async () => {
    const glue = pathToFileURL(createRequire(import.meta.url).resolve('fastify-openapi-glue'));
    const { Parser } = await import(new URL('lib/Parser.js', glue).href);
    if (!isParserClass(Parser)) return;
    const original = Parser.prototype.parse;
    const done = new WeakMap<object, Map<string, Promise<unknown>>>();
    Parser.prototype.parse = async function (this: GlueParser, specification: unknown, options: object) {
      if (!specification || typeof specification !== 'object') return original.call(this, specification, options);
      let byOptions = done.get(specification);
      if (!byOptions) done.set(specification, (byOptions = new Map()));
      const key = JSON.stringify(options);
      let result = byOptions.get(key);
      if (!result) {
        byOptions.set(key, (result = original.call(this, specification, options)));
        result.catch(() => byOptions.delete(key));
      }
      return structuredClone(await result);
    };
  })());
}

/** Routes and request validation straight from openapi/workbench.yaml. */
export default fp(
  async (app, opts: { specification?: string; operations?: Operations }) => {
    const handlers = opts.operations ?? operations;
    const specification = opts.specification ?? DEFAULT_SPEC;
    const spec = loadSpec(specification);
    const secured = securedOperations(spec);
    // Binary media types of the contract (images, audio, octet-stream) arrive as Buffers.
    const binary = [...mediaTypes(spec)].filter((t) => !HAS_PARSER.test(t) && !app.hasContentTypeParser(t));
    // Form bodies (LanguageTool's /v2/* calls) become plain objects before validation; repeated keys keep the last
    // value.
    if (!app.hasContentTypeParser(FORM)) {
      app.addContentTypeParser(FORM, { parseAs: 'string' }, (_request, body, done) =>
        done(null, Object.fromEntries(new URLSearchParams(body as string))),
      );
    }
    if (binary.length > 0)
      app.addContentTypeParser(binary, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    await shareGlueParse();
    await app.register(openapiGlue, {
      specification: spec,
      operationResolver: (operationId) => {
        const operation = Object.hasOwn(handlers, operationId) ? handlers[operationId as OperationId] : undefined;
        if (!operation) return notAvailableRoute as GlueRoute;
        const route = toRoute(operation);
        if (!secured.has(operationId)) return route as GlueRoute;
        // Check the token before the body is parsed and validated: anonymous callers get 401, not schema hints.
        return {
          ...route,
          onRequest: async (request: FastifyRequest) => void (await app.authenticate(request)),
        } as GlueRoute;
      },
      securityHandlers: {
        // Secured operations: a live bearer token or 401 (the error handler writes the envelope).
        bearerAuth: async (request: FastifyRequest) => {
          if (!request.auth) await app.authenticate(request);
        },
      },
    });
  },
  { name: 'openapi', dependencies: ['auth', 'errors', 'validation'] },
);

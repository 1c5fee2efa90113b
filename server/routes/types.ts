import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { operations } from '../../openapi/schema';
import type { AuthContext } from '../domain/accounts/tokens';
import type { ServerMessageCode } from '../../openapi/messages';
import { isOperator } from '../domain/accounts/users';
import { forbidden } from '../errors';

/** The contract's operationIds (openapi/schema.d.ts, generated from openapi/workbench.yaml). */
export type OperationId = keyof operations;

type Content<R> = R extends { content: infer C } ? C : never;
type RequestContent<Op> = Op extends { requestBody: infer R }
  ? Content<R>
  : Op extends { requestBody?: infer R }
    ? Content<R>
    : never;
type FirstBody<C> = C extends { 'application/json': infer B }
  ? B
  : C extends { 'multipart/form-data': infer B }
    ? B
    : C extends { 'application/x-www-form-urlencoded': infer B }
      ? B
      : unknown;
type Param<Op, K extends string> = Op extends { parameters: infer P }
  ? P extends { [k in K]?: infer Q }
    ? Exclude<Q, undefined>
    : never
  : never;

/** What the contract says an operation receives; the OpenAPI file's schemas ran before the handler. */
export type BodyOf<K extends OperationId> = FirstBody<RequestContent<operations[K]>>;
export type QueryOf<K extends OperationId> = Param<operations[K], 'query'>;
export type ParamsOf<K extends OperationId> = Param<operations[K], 'path'>;

/** A request typed from the contract for operation K. */
export type OperationRequest<K extends OperationId> = FastifyRequest<{
  Body: BodyOf<K>;
  Querystring: QueryOf<K>;
  Params: ParamsOf<K>;
}>;

export type Handler<K extends OperationId = OperationId> = (
  request: OperationRequest<K>,
  reply: FastifyReply,
) => unknown;
export type Operation<K extends OperationId = OperationId> =
  Handler<K> | (Omit<Partial<RouteOptions>, 'handler'> & { handler: Handler<K> });

/** Handlers keyed by operationId, each typed by its own operation. */
export type Operations = { [K in OperationId]?: Operation<K> };

/** The caller of a secured operation (bearerAuth ran before the handler). */
export async function caller(request: FastifyRequest): Promise<AuthContext> {
  return request.auth ?? request.server.authenticate(request);
}

/** The site's operators (the account role root): they review applications, edit the guide, publish notices. */
export async function requireOperator(
  request: FastifyRequest,
  code: ServerMessageCode = 'admin.operators_only',
): Promise<number> {
  const { uid } = await caller(request);
  if (!(await isOperator(request.server.db, uid))) throw forbidden(code);
  return uid;
}

/** RFC 5987 attachment header so Chinese file names survive. */
export function attachment(rawName: string): string {
  // encodeURIComponent throws on a lone surrogate (a name from a JSON body may hold one): U+FFFD instead
  const name = rawName.toWellFormed();
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return (
    `attachment; filename="${fallback}"; filename*=UTF-8''` +
    `${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`
  );
}

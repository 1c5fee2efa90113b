import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { AuthContext } from '../services/tokens';

// Handlers get validated input (the OpenAPI file's schemas ran first), so bodies are read as typed.
export type Handler = (request: FastifyRequest, reply: FastifyReply) => unknown;
export type Operation = Handler | (Partial<RouteOptions> & { handler: Handler });

export const bodyOf = <T>(request: FastifyRequest) => request.body as T;

/** The caller of a secured operation (bearerAuth ran before the handler). */
export async function caller(request: FastifyRequest): Promise<AuthContext> {
  return request.auth ?? request.server.authenticate(request);
}

/** A file part of a multipart request, buffered (limit: UPLOAD_LIMIT). */
export interface UploadedFile {
  filename: string;
  mimetype: string;
  data: Buffer;
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

// Multipart uploads with byte progress. fetch cannot report upload progress, so the browser
// path uses XMLHttpRequest; the same headers (spec §7) come from the client's middleware and the
// answer goes through `unwrap`, so the error catalogue, 401 and 402 behave as for every other call.
// When a transport was injected (tests) or there is no XMLHttpRequest, the injected fetch is used.
import { apiTransport, withCallHeaders, unwrap, type ResultOf } from './client';
import { Messages } from './errors';

export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface UploadOptions {
  /** extra form fields (strings) */
  fields?: Record<string, string>;
  /** more file parts besides `file` (e.g. compare's `compare_file`) */
  files?: Record<string, File>;
  /** a 413 shows the server's own message when it sent one (limits from rights, e.g. compare) */
  serverLimitMessage?: boolean;
  /** the socket session the job's messages go to (`session` header) */
  session?: string | null;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
  /** replaces the global XMLHttpRequest (tests) */
  XMLHttpRequest?: typeof XMLHttpRequest;
}

export class UploadAborted extends Error {
  constructor() {
    super('upload aborted');
    this.name = 'UploadAborted';
  }
}

async function prepared(path: string, body: FormData, options: UploadOptions): Promise<Request> {
  const { baseUrl } = apiTransport();
  const headers = new Headers();
  if (options.session) headers.set('session', options.session);
  return withCallHeaders(new Request(baseUrl + path, { method: 'POST', body, headers, signal: options.signal }), path);
}

function viaXhr(
  XHR: typeof XMLHttpRequest,
  request: Request,
  body: FormData,
  options: UploadOptions,
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const xhr = new XHR();
    xhr.open('POST', request.url);
    // the browser sets the multipart content type with its boundary
    request.headers.forEach((value, key) => {
      if (key.toLowerCase() !== 'content-type') xhr.setRequestHeader(key, value);
    });
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.({ loaded: event.loaded, total: event.total });
    };
    xhr.onload = () => {
      const headers = new Headers();
      const type = xhr.getResponseHeader('content-type');
      if (type) headers.set('content-type', type);
      // a Response cannot carry status 0..199; an answer always has a real status here
      resolve(new Response(xhr.status === 204 ? null : xhr.responseText, { status: xhr.status, headers }));
    };
    xhr.onerror = () => reject(new TypeError('network error'));
    xhr.onabort = () => reject(new UploadAborted());
    if (options.signal) {
      if (options.signal.aborted) return reject(new UploadAborted());
      options.signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(body);
  });
}

async function parsed(
  response: Response,
  serverLimitMessage = false,
): Promise<{ data?: unknown; error?: unknown; response: Response }> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON (a proxy's error page): the status decides
  }
  // spec §8: a too-large upload says 文档上传失败, unless the call asks for the server's own limit message
  const own =
    serverLimitMessage &&
    typeof (body as { msg?: unknown } | null)?.msg === 'string' &&
    (body as { msg: string }).msg.trim();
  if (response.status === 413 && !own) body = { code: 413, msg: Messages.uploadFailed, result: null };
  return response.ok ? { data: body, response } : { error: body, response };
}

/**
 * POSTs `file` (field `file`) and `fields` as multipart to an API path; resolves to the envelope's
 * `result` or throws ApiError (the user has been told, per the catalogue) or UploadAborted.
 */
export async function uploadMultipart<T = unknown>(
  path: string,
  file: Blob,
  fileName: string,
  options: UploadOptions = {},
): Promise<T> {
  const form = new FormData();
  for (const [key, value] of Object.entries(options.fields ?? {})) form.append(key, value);
  form.append('file', file, fileName);
  for (const [field, part] of Object.entries(options.files ?? {})) form.append(field, part, part.name);
  const transport = apiTransport();
  const XHR =
    options.XMLHttpRequest ??
    (transport.fetch ? undefined : (globalThis as { XMLHttpRequest?: typeof XMLHttpRequest }).XMLHttpRequest);
  const request = await prepared(path, form, options);
  const size = file.size + Object.values(options.files ?? {}).reduce((n, f) => n + f.size, 0);
  options.onProgress?.({ loaded: 0, total: size });
  let outcome: Awaited<ReturnType<typeof parsed>>;
  try {
    const response = XHR ? await viaXhr(XHR, request, form, options) : await (transport.fetch ?? fetch)(request);
    if (!XHR) options.onProgress?.({ loaded: size, total: size });
    outcome = await parsed(response, options.serverLimitMessage);
  } catch (error) {
    // stopped on purpose: nothing to tell the user
    if (error instanceof UploadAborted || options.signal?.aborted) throw new UploadAborted();
    // no answer: unwrap says 网络连接失败
    return (await unwrap(Promise.reject(error))) as T;
  }
  return (await unwrap(Promise.resolve(outcome))) as ResultOf<T> as T;
}

// The realtime socket address (spec §7): socketURL from the runtime config, with the bearer token
// and the session id (or, for a first connection, the platform code) in the query.

export interface SocketUrlInput {
  /** runtime config socketURL: absolute ws(s)/http(s) address or a path such as '/ws' */
  socketURL: string;
  token: string;
  sessionId: string | null;
  /** platform code used when there is no session id yet */
  endpoint: string;
  /** the page's address, for relative socketURLs */
  pageUrl: string;
}

export function buildSocketUrl(input: SocketUrlInput): string {
  const url = new URL(input.socketURL || '/ws', input.pageUrl);
  if (url.protocol === 'http:') url.protocol = 'ws:';
  if (url.protocol === 'https:') url.protocol = 'wss:';
  url.searchParams.set('token', input.token);
  if (input.sessionId) {
    url.searchParams.set('session_id', input.sessionId);
    url.searchParams.delete('endpoint');
  } else {
    url.searchParams.set('endpoint', input.endpoint);
  }
  return url.toString();
}

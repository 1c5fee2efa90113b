import { deliverPending } from '../domain/notices/announcements';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import {
  HEARTBEAT_INTERVAL_MS,
  Socket,
  SocketClose,
  isClientMessage,
  isPair,
  type ClientMessage,
} from '../../openapi/socket-protocol';
import { resolveToken } from '../domain/accounts/tokens';

interface SocketQuery {
  token?: string;
  session_id?: string;
  endpoint?: string;
}

/** A client that sent nothing for three heartbeat periods is gone (its messages wait in the outbox). */
export const DEFAULT_SOCKET_IDLE_MS = 3 * HEARTBEAT_INTERVAL_MS;

/** `GET ${socketPath}?token=...&session_id=...` (or `&endpoint=<platform code>`), spec §7. */
export function registerSocketRoute(app: FastifyInstance, path: string, idleMs = DEFAULT_SOCKET_IDLE_MS): void {
  app.get<{ Querystring: SocketQuery }>(path, { websocket: true }, (socket: WebSocket, request) => {
    const { token, session_id: sessionId } = request.query;
    let sessionOf: string | null = null;
    const early: ClientMessage[] = [];
    let lastSeen = Date.now();
    const idleCheck = setInterval(
      () => {
        if (Date.now() - lastSeen > idleMs) socket.terminate();
      },
      Math.max(10, Math.floor(idleMs / 3)),
    );
    idleCheck.unref();
    socket.on('close', () => clearInterval(idleCheck));

    const handle = (message: ClientMessage) => {
      if (isPair(message, Socket.Heartbeat))
        socket.send(JSON.stringify({ ...Socket.Heartbeat, status: 200, data: { time: Date.now() } }));
      else app.realtime.ack(sessionOf!, message.index);
    };

    // Listen at once: frames that arrive while the token is checked are kept and handled after.
    socket.on('message', (raw, isBinary) => {
      lastSeen = Date.now();
      let parsed: unknown;
      try {
        parsed = isBinary ? undefined : JSON.parse(raw.toString());
      } catch {
        parsed = undefined;
      }
      if (!isClientMessage(parsed)) {
        socket.close(SocketClose.BadMessage.code, SocketClose.BadMessage.reason);
        return;
      }
      if (sessionOf) handle(parsed);
      else early.push(parsed);
    });

    resolveToken(app.db, typeof token === 'string' ? token : '')
      .then((auth) => {
        if (socket.readyState !== socket.OPEN) return;
        if (!auth) {
          socket.close(SocketClose.Unauthorized.code, SocketClose.Unauthorized.reason);
          return;
        }
        sessionOf = app.realtime.attach(
          socket,
          auth,
          typeof sessionId === 'string' && sessionId ? sessionId : undefined,
        );
        for (const message of early.splice(0)) handle(message);
        // announcements published while the user was away arrive now, once
        deliverPending(app, auth.uid).catch((err) => request.log.error(err, 'announcements not delivered'));
      })
      .catch((err) => {
        request.log.error(err, 'socket authentication failed');
        socket.close(1011, 'internal error');
      });
  });
}

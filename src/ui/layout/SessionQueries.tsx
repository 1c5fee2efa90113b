import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { isPair, Socket, type ServerMessage } from '../../../openapi/socket-protocol';
import { useSystemActor } from '../app-actor';

/**
 * The server gives the socket a new session when messages to it may have been lost (its bus to the other server
 * processes was down): what the pages show is fetched again, as jobs and notices are kept in the database.
 */
export function SessionQueries() {
  const socket = useSystemActor('socket');
  const client = useQueryClient();
  const current = useRef<string | null>(null);
  useEffect(() => {
    const subscription = socket.on('server message', (event: { message: ServerMessage }) => {
      const message = event.message;
      if (!isPair(message, Socket.SessionId) || !message.data || Array.isArray(message.data)) return;
      const id = message.data.session_id;
      const before = current.current;
      current.current = id;
      if (before !== null && before !== id) void client.invalidateQueries();
    });
    return () => subscription.unsubscribe();
  }, [socket, client]);
  return null;
}

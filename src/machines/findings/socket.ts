// Result screens hear the realtime socket through the app's socket actor (systemId 'socket'), which emits every
// server message it receives. One forwarder for every machine: it sends back the messages that are server messages.
import { fromCallback, type EventObject } from 'xstate';
import { isServerMessage, type ServerMessage } from '../../../openapi/socket-protocol';

export type ServerMessageEvent = { type: 'server message'; message: ServerMessage };

/** Forwards the socket actor's messages as `server message` events (nothing when the system has no socket). */
export const socketMessages = fromCallback<EventObject>(({ sendBack, system }) => {
  const socket = system.get('socket');
  if (!socket) return () => undefined;
  const subscription = socket.on('server message', (event: { message?: unknown }) => {
    if (isServerMessage(event.message)) sendBack({ type: 'server message', message: event.message });
  });
  return () => subscription.unsubscribe();
});

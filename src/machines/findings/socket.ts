// Result screens hear the realtime socket through the app's socket actor (systemId 'socket'), which emits every
// server message it receives. One forwarder for every machine that listens.
import { fromCallback, type ActorRefFrom, type AnyActorRef, type EventObject } from 'xstate';
import type { ServerMessage } from '../../../openapi/socket-protocol';
import type { socketMachine } from '../socket';
import { systemActor } from '../system';

export type ServerMessageEvent = { type: 'server message'; message: ServerMessage };
/** What a listener needs of the socket actor: its emitted `server message` events. */
export type SocketRef = Pick<ActorRefFrom<typeof socketMachine>, 'on'>;

/** Forwards the messages of the socket `find` gives as `server message` events (nothing when there is none). */
export function forwardServerMessages(find: (system: AnyActorRef['system']) => SocketRef | undefined) {
  return fromCallback<EventObject>(({ sendBack, system }) => {
    const socket = find(system);
    if (!socket) return () => undefined;
    const subscription = socket.on('server message', ({ message }) => sendBack({ type: 'server message', message }));
    return () => subscription.unsubscribe();
  });
}

/** The app's own socket, for machines that run in the app's system. */
export const socketMessages = forwardServerMessages((system) => systemActor(system, 'socket'));

// The root actor's long-lived children by systemId (app.ts): one typed way to reach them, for views and machines.
import type { ActorRefFrom, ActorSystem, AnyActorRef } from 'xstate';
import type { documentUploadsMachine } from './documentUploads';
import type { languageMachine } from './language';
import type { noticesMachine } from './notices';
import type { proofreadJobMachine } from './proofreadJob';
import type { quotaDialogMachine } from './quotaDialog';
import type { sessionMachine } from './session';
import type { socketMachine } from './socket';
import type { themeMachine } from './theme';

export interface SystemActors {
  session: ActorRefFrom<typeof sessionMachine>;
  socket: ActorRefFrom<typeof socketMachine>;
  quotaDialog: ActorRefFrom<typeof quotaDialogMachine>;
  language: ActorRefFrom<typeof languageMachine>;
  theme: ActorRefFrom<typeof themeMachine>;
  proofreadJob: ActorRefFrom<typeof proofreadJobMachine>;
  documentUploads: ActorRefFrom<typeof documentUploadsMachine>;
  notices: ActorRefFrom<typeof noticesMachine>;
}
export type SystemId = keyof SystemActors;

/** The child with this systemId, typed; undefined outside an app actor (a machine tested alone). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- XState's own AnyActorSystem (not exported)
export function systemActor<K extends SystemId>(system: ActorSystem<any>, id: K): SystemActors[K] | undefined {
  const ref: AnyActorRef | undefined = system.get(id);
  return ref;
}

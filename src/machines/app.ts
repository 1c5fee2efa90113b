// The root actor: one per page, invoking every long-lived flow with a systemId so views and other
// machines reach them (`actor.system.get('session')`). Implementations come from live.ts or tests.
import { setup, type ActorRefFrom } from 'xstate';
import { languageMachine } from './language';
import { quotaDialogMachine } from './quotaDialog';
import { sessionMachine } from './session';
import { socketMachine } from './socket';
import { themeMachine } from './theme';
import { proofreadJobMachine } from './proofreadJob';
import { documentUploadsMachine } from './documentUploads';
import { noticesMachine } from './notices';

export const appMachine = setup({
  actors: {
    session: sessionMachine,
    socket: socketMachine,
    quotaDialog: quotaDialogMachine,
    language: languageMachine,
    theme: themeMachine,
    proofreadJob: proofreadJobMachine,
    documentUploads: documentUploadsMachine,
    notices: noticesMachine,
  },
}).createMachine({
  id: 'app',
  // The socket is invoked before the session so a restored session finds it to connect.
  invoke: [
    { src: 'language', id: 'language', systemId: 'language' },
    { src: 'theme', id: 'theme', systemId: 'theme' },
    { src: 'socket', id: 'socket', systemId: 'socket' },
    { src: 'quotaDialog', id: 'quotaDialog', systemId: 'quotaDialog' },
    { src: 'session', id: 'session', systemId: 'session' },
    // announcements and the document list's flag; the session starts and stops it (before the session: it is
    // signed in at once when a stored login is restored)
    { src: 'notices', id: 'notices', systemId: 'notices' },
    // the home screen's check: kept here so results survive navigating away and back
    { src: 'proofreadJob', id: 'proofreadJob', systemId: 'proofreadJob' },
    // the document list's uploads (one upload pipeline each), kept while the user moves around
    { src: 'documentUploads', id: 'documentUploads', systemId: 'documentUploads' },
  ],
});

export type AppActorRef = ActorRefFrom<typeof appMachine>;

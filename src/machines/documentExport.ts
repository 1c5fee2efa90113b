// Exporting and sharing an open document (the editor view): an export saves unsaved changes first, and a tracked
// export (whose comments are the open findings) waits until the re-check of what was saved has ended, reloading the
// document every few seconds in case a socket flag was missed, for three minutes at most. Sharing asks for the
// document's share id and shows its link until closed.
import { assign, fromCallback, fromPromise, setup, type ActorRefFrom, type EventObject } from 'xstate';
import { settled, type DocumentEditorRef } from './documentEditor';
import { mustProvide, notProvided } from './provide';
import { exportFileName, type ExportedFile } from './documentCalls';

export type ExportMode = 'clean' | 'tracked';

export interface DocumentExportContext {
  editor: DocumentEditorRef;
  /** the export under way */
  mode: ExportMode | null;
  /** the share id shown (null: no share dialog) */
  shareId: string | null;
}

export type DocumentExportEvent =
  | { type: 'export requested'; mode: ExportMode }
  | { type: 'share requested' }
  | { type: 'share closed' }
  | { type: 'check ended' };

/** Sends back `check ended` once the editor shows the result of a finished (done or failed) check. */
const checkEnded = fromCallback<EventObject, { editor: DocumentEditorRef }>(({ input, sendBack }) => {
  let told = false;
  const check = () => {
    const s = input.editor.getSnapshot();
    const status = s.context.doc?.status;
    if (told || !s.matches({ ready: 'idle' }) || (status !== 'done' && status !== 'failed')) return;
    told = true;
    sendBack({ type: 'check ended' });
  };
  const subscription = input.editor.subscribe(check);
  check();
  return () => subscription.unsubscribe();
});

const documentId = (context: DocumentExportContext) => context.editor.getSnapshot().context.doc?.id ?? 0;

export const documentExportMachine = setup({
  types: {
    context: {} as DocumentExportContext,
    events: {} as DocumentExportEvent,
    input: {} as { editor: DocumentEditorRef },
  },
  actors: {
    // POST /misscut/document/v1/export -> the .docx and the name the server gave it
    'export document': fromPromise<ExportedFile, { id: number; mode: ExportMode }>(
      notProvided('documentExport', 'export document'),
    ),
    // GET /misscut/document/v1/get_share_id -> share_id
    'share id': fromPromise<string, { id: number }>(notProvided('documentExport', 'share id')),
    // whether the save the export asked for left everything saved
    'editor settled': fromPromise<boolean, { editor: DocumentEditorRef }>(({ input }) => settled(input.editor)),
    'check ended': checkEnded,
  },
  actions: {
    // saves the file under the name the download center shows (the view knows the browser)
    download: (_, _params: { blob: Blob; name: string; mode: ExportMode }) => mustProvide('documentExport', 'download'),
    // tells that the unsaved changes were saved on the way (as a save of its own would)
    'say saved': () => mustProvide('documentExport', 'say saved'),
    'ask to save': ({ context }) => context.editor.send({ type: 'save requested' }),
    'reload document': ({ context }) => context.editor.send({ type: 'reload' }),
    'forget export': assign({ mode: null }),
  },
  guards: {
    'has unsaved changes': ({ context }) => context.editor.getSnapshot().context.dirty,
    'is tracked': ({ context }) => context.mode === 'tracked',
  },
  delays: { poll: 3000, 'check limit': 180_000 },
}).createMachine({
  id: 'documentExport',
  context: ({ input }) => ({ editor: input.editor, mode: null, shareId: null }),
  type: 'parallel',
  states: {
    export: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'export requested': { target: 'starting', actions: assign({ mode: ({ event }) => event.mode }) },
          },
        },
        // the export reads the saved fixes: save first
        starting: { always: [{ guard: 'has unsaved changes', target: 'saving' }, { target: 'waiting' }] },
        saving: {
          entry: 'ask to save',
          invoke: {
            src: 'editor settled',
            input: ({ context }) => ({ editor: context.editor }),
            onDone: [
              { guard: ({ event }) => event.output, target: 'waiting', actions: 'say saved' },
              { target: 'idle', actions: 'forget export' },
            ],
          },
        },
        // the comments of a tracked export are the open findings: the re-check of what was saved must end
        waiting: {
          always: { guard: ({ context }) => context.mode !== 'tracked', target: 'exporting' },
          invoke: { src: 'check ended', input: ({ context }) => ({ editor: context.editor }) },
          on: { 'check ended': 'exporting' },
          after: { 'check limit': { target: 'idle', actions: 'forget export' } },
          initial: 'polling',
          states: {
            polling: { after: { poll: { target: 'polling', reenter: true, actions: 'reload document' } } },
          },
        },
        exporting: {
          invoke: {
            src: 'export document',
            input: ({ context }) => ({ id: documentId(context), mode: context.mode ?? 'clean' }),
            onDone: {
              target: 'idle',
              actions: [
                {
                  type: 'download',
                  params: ({ context, event }) => ({
                    blob: event.output.blob,
                    // the server's name; the same rule when a proxy hid the header
                    name:
                      event.output.name ??
                      exportFileName(context.editor.getSnapshot().context.doc?.name ?? '', context.mode ?? 'clean'),
                    mode: context.mode ?? 'clean',
                  }),
                },
                'forget export',
              ],
            },
            // the error catalogue told the user
            onError: { target: 'idle', actions: 'forget export' },
          },
        },
      },
    },
    share: {
      initial: 'idle',
      states: {
        idle: { on: { 'share requested': 'asking' } },
        asking: {
          invoke: {
            src: 'share id',
            input: ({ context }) => ({ id: documentId(context) }),
            onDone: { target: 'shown', actions: assign({ shareId: ({ event }) => event.output }) },
            onError: 'idle',
          },
        },
        shown: { on: { 'share closed': { target: 'idle', actions: assign({ shareId: null }) } } },
      },
    },
  },
});

export type DocumentExportRef = ActorRefFrom<typeof documentExportMachine>;

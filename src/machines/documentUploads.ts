// The document list's uploads: one upload pipeline per chosen file, kept in the app actor so
// progress survives navigating away and back. Files of a type the server does not take are refused here.
import { enqueueActions, setup, type ActorRefFrom } from 'xstate';
import { isDocumentFlag, type DocumentFlagData } from '../../openapi/socket-protocol';
import { socketMessages, type ServerMessageEvent } from './findings/socket';
import { mustProvide } from './provide';
import { uploadPipelineMachine, type UploadPipelineRef } from './uploadPipeline';

/** Extensions the document upload accepts (.doc/.wps need LibreOffice on the server, which says so). */
export const DOCUMENT_EXTENSIONS = ['.docx', '.pptx', '.txt', '.md', '.doc', '.wps'] as const;
export const UNSUPPORTED_FILE = '仅支持 .docx、.pptx、.txt、.md、.doc、.wps 文件';

export function isDocumentFile(name: string): boolean {
  const lower = name.toLowerCase();
  return DOCUMENT_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

export interface UploadItem {
  key: string;
  name: string;
  ref: UploadPipelineRef;
}

export type DocumentUploadsEvent =
  | { type: 'files chosen'; files: File[]; fields?: Record<string, string> }
  | { type: 'dismiss'; key: string }
  | ServerMessageEvent;

export const documentUploadsMachine = setup({
  types: {
    context: {} as { items: UploadItem[]; next: number },
    events: {} as DocumentUploadsEvent,
  },
  actors: { pipeline: uploadPipelineMachine, 'socket messages': socketMessages },
  actions: {
    notify: (_, _params: { status: 'error' | 'success' | 'info' | 'warning'; title: string }) =>
      mustProvide('documentUploads', 'notify'),
    // the document list's cached rows follow the job (live.ts patches the query cache)
    'document moved on': (_, _flag: DocumentFlagData) => mustProvide('documentUploads', 'document moved on'),
  },
}).createMachine({
  id: 'documentUploads',
  context: { items: [], next: 0 },
  invoke: { src: 'socket messages', id: 'socketMessages' },
  on: {
    'server message': {
      actions: enqueueActions(({ enqueue, event }) => {
        if (isDocumentFlag(event.message)) enqueue({ type: 'document moved on', params: event.message.data });
      }),
    },
    'files chosen': {
      actions: enqueueActions(({ enqueue, event }) => {
        const refused = event.files.filter((f) => !isDocumentFile(f.name));
        if (refused.length) enqueue({ type: 'notify', params: { status: 'error', title: UNSUPPORTED_FILE } });
        const accepted = event.files.filter((f) => isDocumentFile(f.name));
        if (!accepted.length) return;
        enqueue.assign(({ context, spawn }) => {
          const items = accepted.map((file, i) => {
            const key = `upload-${context.next + i}`;
            const ref = spawn('pipeline', {
              id: key,
              input: { channel: 'document', file, fields: event.fields ?? {} },
            }) as UploadPipelineRef;
            return { key, name: file.name, ref };
          });
          // newest first, like the table
          return { items: [...items.reverse(), ...context.items], next: context.next + accepted.length };
        });
      }),
    },
    dismiss: {
      actions: enqueueActions(({ enqueue, context, event }) => {
        const item = context.items.find((x) => x.key === event.key);
        if (!item) return;
        enqueue.stopChild(item.ref);
        enqueue.assign({ items: context.items.filter((x) => x.key !== event.key) });
      }),
    },
  },
});

export type DocumentUploadsRef = ActorRefFrom<typeof documentUploadsMachine>;

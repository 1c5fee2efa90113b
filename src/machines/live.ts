// The one seam where the machines meet the world: src/api calls, storage, notices, navigation and
// the browser WebSocket. Tests bind fakes to the same names with .provide().
import { assign, fromCallback, fromPromise, type EventObject } from 'xstate';
import type { QueryClient } from '@tanstack/react-query';
import { isServerMessage, type ServerMessage } from '../../openapi/socket-protocol';
import { onQuotaExhausted, onUnauthorized, PLATFORM_CODE, reportUnauthorized } from '../api/client';
import { getRuntimeConfig } from '../api/config';
import { notify as defaultNotify, type Notice } from '../api/notify';
import { prefetchSignedInData, queryKeys } from '../api/queries';
import { buildSocketUrl } from '../api/socketUrl';
import * as storage from '../api/storage';
import * as user from '../api/user';
import { appMachine } from './app';
import { languageMachine } from './language';
import { quotaDialogMachine } from './quotaDialog';
import { sessionMachine } from './session';
import { socketMachine, type ConnectionCommand, type ConnectionEvent, type ConnectionInput } from './socket';
import { themeMachine } from './theme';
import { systemActor } from './system';
import { forwardServerMessages, type SocketRef } from './findings/socket';
import { proofreadJobMachine } from './proofreadJob';
import * as proofread from './proofreadCalls';
import { checkFormatFile } from './formatCalls';
import { importWordsFile } from './dictCalls';
import { compareFiles } from './compareCalls';
import { cancelDocument, documentJob, documentJobStatus, uploadDocument } from './documentCalls';
import { documentUploadsMachine } from './documentUploads';
import { documentEditorMachine } from './documentEditor';
import * as documents from './documentCalls';
import { documentExportMachine, type ExportMode } from './documentExport';
import {
  uploadPipelineMachine,
  type JobChannel,
  type JobUpdate,
  type UploadInput,
  type UploadOutput,
  type UploadReport,
} from './uploadPipeline';
import { UploadAborted, type UploadProgress } from '../api/upload';
import { isApiError } from '../api/client';
import { noticesMachine } from './notices';
import { markNoticesRead, noticeList } from './noticeCalls';

/** The part of the browser WebSocket the connection uses (tests pass a fake class). */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}
export type WebSocketClass = new (url: string) => WebSocketLike;

const OPEN = 1;

export interface LiveAppOptions {
  /** App paths such as '/', '/login', '/share', '/upgrade' (the UI binds wouter with base /workbench). */
  navigate: (path: string) => void;
  notify?: (notice: Notice) => void;
  /** Signed-in data is prefetched into it on login and cleared on logout. */
  queryClient?: QueryClient;
  WebSocket?: WebSocketClass;
  /** The page address relative socket URLs resolve against. */
  pageUrl?: () => string;
}

function frames(data: unknown): ServerMessage[] {
  if (typeof data !== 'string') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return [];
  }
  // Spec §7: a status other than 200 may carry several messages as an array.
  const list = Array.isArray(parsed) ? parsed : [parsed];
  return list.filter(isServerMessage);
}

/** One WebSocket per connection attempt (socket machine's 'socket connection'). */
export function webSocketConnection(options: { WebSocket: WebSocketClass; pageUrl: () => string }) {
  return fromCallback<ConnectionCommand, ConnectionInput>(({ input, sendBack, receive }) => {
    const send = (event: ConnectionEvent) => sendBack(event);
    const token = storage.getToken();
    if (!token) {
      send({ type: 'socket closed', code: 4401, reason: 'no token' });
      return () => undefined;
    }
    const url = buildSocketUrl({
      socketURL: getRuntimeConfig().socketURL,
      token,
      sessionId: input.sessionId,
      endpoint: PLATFORM_CODE,
      pageUrl: options.pageUrl(),
    });
    const ws = new options.WebSocket(url);
    let closed = false;
    ws.onopen = () => send({ type: 'socket opened' });
    ws.onmessage = (event) => {
      for (const message of frames(event.data)) send({ type: 'socket message received', message });
    };
    ws.onclose = (event) => {
      closed = true;
      send({ type: 'socket closed', code: event.code, reason: event.reason });
    };
    ws.onerror = () => undefined;
    receive((command) => {
      if (ws.readyState === OPEN) ws.send(JSON.stringify(command.frame));
    });
    return () => {
      ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
      if (!closed) ws.close(1000, 'client closed');
    };
  });
}

export function liveSession(options: LiveAppOptions) {
  const notify = options.notify ?? defaultNotify;
  return sessionMachine.provide({
    actors: {
      'log in': fromPromise(({ input }) => user.login(input.phone, input.password)),
      register: fromPromise(({ input }) => user.register(input)),
      'load user': fromPromise(() => user.userInfo()),
      'load link user': fromPromise(({ input }) => user.userInfoOf(input.token)),
      // The token may already be revoked: logging out must not raise the 401 message.
      'log out': fromPromise(() => user.logout({ silent: true })),
      'unauthorized listener': fromCallback(({ sendBack }) => onUnauthorized(() => sendBack({ type: 'unauthorized' }))),
    },
    actions: {
      'store token': (_, params) => storage.saveSession(params.token),
      'clear stored session': () => {
        storage.clearSession();
        options.queryClient?.clear();
      },
      'load signed-in data': ({ context }) => {
        if (context.user) options.queryClient?.setQueryData(queryKeys.userInfo, context.user);
        void prefetchSignedInData(options.queryClient);
      },
      'say logged in': () => notify({ status: 'success', title: '登录成功' }),
      'say link refused': (_, params) => notify({ status: 'error', title: params.message }),
      'go to last route': () => options.navigate(storage.getLastRoute() ?? '/'),
      'go to login': () => options.navigate('/login'),
    },
    guards: {
      'has stored token': () => storage.getToken() !== null,
      'is stored token': (_, params) => storage.getToken() === params.token,
    },
  });
}

/** The browser's WebSocket behind the WebSocketLike face the connection uses. */
class BrowserSocket implements WebSocketLike {
  private readonly ws: WebSocket;
  onopen: WebSocketLike['onopen'] = null;
  onmessage: WebSocketLike['onmessage'] = null;
  onclose: WebSocketLike['onclose'] = null;
  onerror: WebSocketLike['onerror'] = null;
  constructor(url: string) {
    this.ws = new globalThis.WebSocket(url);
    this.ws.onopen = (event) => this.onopen?.(event);
    this.ws.onmessage = (event) => this.onmessage?.(event);
    this.ws.onclose = (event) => this.onclose?.(event);
    this.ws.onerror = (event) => this.onerror?.(event);
  }
  get readyState(): number {
    return this.ws.readyState;
  }
  send(data: string): void {
    this.ws.send(data);
  }
  close(code?: number, reason?: string): void {
    this.ws.close(code, reason);
  }
}

export function liveSocket(options: LiveAppOptions) {
  const WebSocketImpl: WebSocketClass = options.WebSocket ?? BrowserSocket;
  const pageUrl = options.pageUrl ?? (() => globalThis.location?.href ?? 'http://localhost/');
  return socketMachine.provide({
    actors: { 'socket connection': webSocketConnection({ WebSocket: WebSocketImpl, pageUrl }) },
    actions: { 'report unauthorized': () => reportUnauthorized() },
  });
}

export function liveQuotaDialog(options: LiveAppOptions) {
  return quotaDialogMachine.provide({
    actors: {
      'quota listener': fromCallback(({ sendBack }) =>
        onQuotaExhausted((event) => sendBack({ type: 'quota exhausted', kind: event.kind })),
      ),
    },
    actions: {
      'go to share': () => options.navigate('/share'),
      'go to upgrade': () => options.navigate('/upgrade'),
    },
  });
}

export const liveLanguage = () =>
  languageMachine.provide({
    actions: {
      'restore locale': assign({ locale: () => storage.getLanguage() }),
      'persist locale': (_, params) => storage.setLanguage(params.locale),
    },
  });

export const liveTheme = () =>
  themeMachine.provide({
    actions: {
      'restore theme': assign({ mode: () => storage.getTheme() }),
      'persist theme': (_, params) => storage.setTheme(params.mode),
    },
  });

/** The text proofreading job bound to the check calls and the socket's server messages. */
export function liveProofreadJob(
  options: Pick<LiveAppOptions, 'notify'>,
  /** the socket session the results stream to; by default the socket actor's */
  sessionIdOf?: () => string | null,
) {
  const notify = options.notify ?? defaultNotify;
  return proofreadJobMachine.provide({
    actors: {
      'submit check': fromPromise(async ({ input, system }) => {
        const socket = systemActor(system, 'socket');
        const sessionId = sessionIdOf ? sessionIdOf() : socket?.getSnapshot().context.sessionId;
        if (!sessionId) {
          notify({ status: 'error', title: '网络连接失败' });
          throw new Error('网络连接失败');
        }
        return proofread.checkText(input, sessionId);
      }),
      'cancel check': fromPromise(async ({ input }) => {
        if (input.checkId) await proofread.cancelCheck(input.checkId).catch(() => undefined);
      }),
      'fine right': fromPromise(() => proofread.fineProofreadingAvailable()),
    },
    actions: {
      notify: (_, params) => notify(params),
    },
  });
}

/** How one screen uploads: the call, and how its answer names the server-side job. */
export interface UploadBinding {
  /** sends the file; reports byte progress; resolves with the job (null: no processing) and the result */
  upload: (
    file: File,
    options: {
      fields: Record<string, string>;
      session: string | null;
      onProgress: (p: UploadProgress) => void;
      signal: AbortSignal;
    },
  ) => Promise<UploadOutput>;
  /** the job's state by id, asked while waiting in case a socket message was missed */
  jobStatus?: (channel: JobChannel, id: number) => Promise<JobUpdate | null>;
  /** stops the server-side job */
  cancelJob?: (channel: JobChannel, id: number) => Promise<void>;
}

/** The upload pipeline bound to a screen's upload call (documents, format check, compare, PDF, image). */
export function liveUploadPipeline(binding: UploadBinding) {
  return uploadPipelineMachine.provide({
    actors: {
      upload: fromCallback<EventObject, UploadInput>(({ input, sendBack, system }) => {
        const socket = systemActor(system, 'socket');
        const controller = new AbortController();
        binding
          .upload(input.file, {
            fields: input.fields,
            session: socket?.getSnapshot().context.sessionId ?? null,
            onProgress: (p) =>
              sendBack({ type: 'upload progress', loaded: p.loaded, total: p.total } satisfies UploadReport),
            signal: controller.signal,
          })
          .then(
            (output) => sendBack({ type: 'upload succeeded', output } satisfies UploadReport),
            (error: unknown) => {
              if (error instanceof UploadAborted || controller.signal.aborted) return;
              const status = isApiError(error) ? error.status : 0;
              const message = error instanceof Error && error.message ? error.message : '系统异常';
              sendBack({ type: 'upload failed', error: { status, message } } satisfies UploadReport);
            },
          );
        return () => controller.abort();
      }),
      'job status': fromPromise(async ({ input }) =>
        binding.jobStatus ? binding.jobStatus(input.channel, input.id) : null,
      ),
      'cancel job': fromPromise(async ({ input }) => {
        if (binding.cancelJob && input.channel && input.id !== null)
          await binding.cancelJob(input.channel, input.id).catch(() => undefined);
      }),
    },
  });
}

/** Document uploads (POST /misscut/document/v1/upload): a document job processed on the server. */
export function documentUploadBinding(options: { XMLHttpRequest?: typeof XMLHttpRequest } = {}): UploadBinding {
  return {
    upload: async (file, call) => {
      const doc = await uploadDocument(file, file.name, { ...call, ...options });
      return { job: documentJob(doc), result: doc };
    },
    jobStatus: (_channel, id) => documentJobStatus(id),
    cancelJob: async (_channel, id) => void (await cancelDocument(id)),
  };
}

/** Dictionary import (POST /dict/v1/upload_words): the answer is the summary of added and failed rows. */
export const dictImportBinding: UploadBinding = {
  upload: async (file, options) => ({ job: null, result: await importWordsFile(file, options) }),
};

/** Format check (POST /misscut/v1/doc/format_check): the answer is the report, there is no server-side job. */
export const formatCheckBinding: UploadBinding = {
  upload: async (file, options) => ({ job: null, result: await checkFormatFile(file, options) }),
};

/**
 * Document compare (POST /misscut/v1/doc/diff): the pipeline's file is the original; the revised one is
 * the screen's current choice (a retry sends both again).
 */
export const compareBinding = (revised: () => File | null): UploadBinding => ({
  upload: async (file, options) => {
    const other = revised();
    if (!other) throw new Error('请选择修改后的文档');
    return { job: null, result: await compareFiles(file, other, options) };
  },
});
/** The document list's uploads, each a pipeline bound to the document upload call. */
export function liveDocumentUploads(
  options: Pick<LiveAppOptions, 'notify' | 'queryClient'>,
  binding: UploadBinding = documentUploadBinding(),
) {
  const notify = options.notify ?? defaultNotify;
  return documentUploadsMachine.provide({
    actors: { pipeline: liveUploadPipeline(binding) },
    actions: {
      notify: (_, params) => notify(params),
      'document moved on': (_, flag) => {
        if (options.queryClient) documents.applyDocumentFlag(options.queryClient, flag);
      },
    },
  });
}

/** Export and share of an open document bound to the document calls; the view saves files and says "saved". */
export function liveDocumentExport(view: {
  download(blob: Blob, name: string, mode: ExportMode): void;
  saved(): void;
}) {
  return documentExportMachine.provide({
    actors: {
      'export document': fromPromise(({ input }) => documents.exportDocument(input.id, input.mode)),
      'share id': fromPromise(async ({ input }) => (await documents.shareId(input.id)).share_id),
    },
    actions: {
      download: (_, params) => view.download(params.blob, params.name, params.mode),
      'say saved': () => view.saved(),
    },
  });
}

/** The document editor bound to the document calls (a share id reads the public shared view). */
export function liveDocumentEditor(options: { socket?: () => SocketRef | undefined } = {}) {
  return documentEditorMachine.provide({
    actors: {
      // a view creates the editor in its own actor system: the app's socket is passed in
      ...(options.socket ? { 'socket messages': forwardServerMessages(options.socket) } : {}),
      load: fromPromise(({ input }) =>
        input.shareId ? documents.sharedDocument(input.shareId) : documents.documentDetail(input.id ?? 0),
      ),
      save: fromPromise(({ input }) => documents.saveDocument(input)),
    },
  });
}

/** The root machine with every implementation bound; create the actor once per page. */
export function createLiveApp(options: LiveAppOptions) {
  return appMachine.provide({
    actors: {
      session: liveSession(options),
      socket: liveSocket(options),
      quotaDialog: liveQuotaDialog(options),
      language: liveLanguage(),
      theme: liveTheme(),
      proofreadJob: liveProofreadJob(options),
      documentUploads: liveDocumentUploads(options),
      notices: liveNotices(),
    },
  });
}

/** The notices bound to the /notice calls. */
export function liveNotices() {
  return noticesMachine.provide({
    actors: {
      load: fromPromise(() => noticeList()),
      'mark read': fromPromise(({ input }) => markNoticesRead(input.ids)),
    },
  });
}

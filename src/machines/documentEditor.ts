// The document editor (route /editor?id=): a stored document's text (one line per block),
// its findings, the fixes the user accepted and the findings ignored, kept consistent through edits;
// saving sends them (edit_upload_save) and the server re-checks in the background, its end arriving
// on the socket (type 2 cmd 1), after which the document is loaded again. A shared document
// (get_share_doc) is the same view, read-only.
//
// loading -> ready (idle | saving | tooLong) | failed ; ready --(flag: this document done, nothing unsaved)--> loading
// tooLong: the save was refused for being over the plan's per-check limit (413 check.too_long, not a spent quota);
// any edit or `too long dismissed` goes back to idle
import { assign, fromPromise, raise, setup, type ActorRefFrom } from 'xstate';
import { notProvided } from './provide';
import { isPair, Socket, type ServerMessage, type SocketIssue } from '../../openapi/socket-protocol';
import type { DocumentDetail, DocumentFix, DocumentIgnored } from './documentCalls';
import { diffRange, shiftRanges } from './findings/edits';
import { socketMessages } from './findings/socket';
import { tooLongOf, type TooLong } from './findings/parts';

/** A finding of the document (absolute UTF-16 offsets into `text`) with a stable id. */
export interface DocFinding extends SocketIssue {
  id: string;
  /** kept for the shared finding card's type (the home screen groups by paragraph hash) */
  paragraph: string;
}

export interface DocumentEditorContext {
  id: number | null;
  shareId: string | null;
  doc: DocumentDetail | null;
  text: string;
  findings: DocFinding[];
  fixes: DocumentFix[];
  ignored: DocumentIgnored[];
  /** edits not saved yet */
  dirty: boolean;
  error: string | null;
  /** the last save's refusal for being longer than one check of the plan allows */
  tooLong: TooLong | null;
}

export type DocumentEditorEvent =
  | { type: 'accept'; id: string; suggestion?: string }
  | { type: 'accept all of kind'; id: string }
  | { type: 'ignore'; id: string }
  | { type: 'ignore all'; id: string }
  | { type: 'word added'; word: string }
  | { type: 'text edited'; text: string }
  | { type: 'save requested' }
  | { type: 'too long dismissed' }
  | { type: 'reload' }
  | { type: 'server message'; message: ServerMessage };

export interface EditorInput {
  id?: number | null;
  shareId?: string | null;
}

export interface SaveBody {
  id: number;
  text: string;
  fixes: DocumentFix[];
  ignored: DocumentIgnored[];
}

// ---- pure helpers -------------------------------------------------------------------------------

function findingId(f: { start: number; end: number; category: string }): string {
  return `${f.start}-${f.end}-${f.category}`;
}

function withIds(issues: readonly SocketIssue[], text: string): DocFinding[] {
  return issues
    .filter((i) => i.end <= text.length && text.slice(i.start, i.end) === i.original)
    .map((i) => ({ ...i, id: findingId(i), paragraph: '' }))
    .sort((a, b) => a.start - b.start || a.end - b.end);
}

function reId(findings: DocFinding[]): DocFinding[] {
  return findings.map((f) => (f.id === findingId(f) ? f : { ...f, id: findingId(f) }));
}

/** A new text: findings, fixes and ignored findings follow the edit. */
export function editText(context: DocumentEditorContext, text: string): Partial<DocumentEditorContext> {
  if (text === context.text) return {};
  const edit = diffRange(context.text, text);
  return {
    text,
    findings: reId(shiftRanges(context.findings, edit)),
    fixes: shiftRanges(context.fixes, edit),
    ignored: shiftRanges(context.ignored, edit),
    dirty: true,
  };
}

/** Replaces a finding with a suggestion and records the fix (as it stands in the new text). */
export function acceptFinding(
  context: DocumentEditorContext,
  f: DocFinding,
  suggestion: string,
): Partial<DocumentEditorContext> {
  const text = context.text.slice(0, f.start) + suggestion + context.text.slice(f.end);
  const next = editText(context, text);
  const fix: DocumentFix = {
    start: f.start,
    end: f.start + suggestion.length,
    original: f.original,
    replacement: suggestion,
    category: f.category.slice(0, 20),
    message: f.message.slice(0, 1000),
  };
  const fixes = [...(next.fixes ?? context.fixes), fix].sort((a, b) => a.start - b.start);
  return { ...next, fixes, findings: (next.findings ?? context.findings).filter((x) => x.id !== f.id) };
}

function ignoreOne(context: DocumentEditorContext, f: DocFinding): Partial<DocumentEditorContext> {
  return {
    ignored: [...context.ignored, { start: f.start, end: f.end, original: f.original }],
    findings: context.findings.filter((x) => x.id !== f.id),
    dirty: true,
  };
}

function loaded(doc: DocumentDetail): Partial<DocumentEditorContext> {
  return {
    doc,
    text: doc.text,
    findings: withIds(doc.issues, doc.text),
    fixes: doc.fixes ?? [],
    ignored: doc.ignored ?? [],
    dirty: false,
    error: null,
  };
}

function flagOf(message: ServerMessage): { id: number; status: string } | null {
  if (!isPair(message, Socket.DocumentFlag) || (message.status !== undefined && message.status !== 200)) return null;
  const data = message.data as { id?: unknown; status?: unknown };
  return typeof data.id === 'number' && typeof data.status === 'string' ? { id: data.id, status: data.status } : null;
}

// ---- the machine --------------------------------------------------------------------------------

/** Own document whose first check finished (a saved document may be re-checked meanwhile). */
const canEdit = ({ context }: { context: DocumentEditorContext }) =>
  context.shareId === null &&
  context.doc !== null &&
  !context.doc.read_only &&
  (context.doc.status === 'done' || context.doc.edited);

export const documentEditorMachine = setup({
  types: {
    context: {} as DocumentEditorContext,
    events: {} as DocumentEditorEvent,
    input: {} as EditorInput,
  },
  actors: {
    // edit_upload_get (own document) or get_share_doc (share id)
    load: fromPromise<DocumentDetail, { id: number | null; shareId: string | null }>(
      notProvided('documentEditor', 'load'),
    ),
    // edit_upload_save
    save: fromPromise<DocumentDetail, SaveBody>(notProvided('documentEditor', 'save')),
    'socket messages': socketMessages,
  },
  guards: { 'can edit': canEdit },
}).createMachine({
  id: 'documentEditor',
  context: ({ input }) => ({
    id: input?.id ?? null,
    shareId: input?.shareId ?? null,
    doc: null,
    text: '',
    findings: [],
    fixes: [],
    ignored: [],
    dirty: false,
    error: null,
    tooLong: null,
  }),
  invoke: { src: 'socket messages', id: 'socketMessages' },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({ id: context.id, shareId: context.shareId }),
        onDone: { target: 'ready', actions: assign(({ event }) => loaded(event.output)) },
        onError: {
          target: 'failed',
          actions: assign(({ event }) => ({ error: (event.error as Error)?.message || '系统异常' })),
        },
      },
    },
    failed: { on: { reload: 'loading' } },
    ready: {
      initial: 'idle',
      on: {
        reload: { guard: ({ context }) => !context.dirty, target: 'loading' },
        'server message': [
          {
            // this document's (re-)check ended: load its findings (unsaved edits are never thrown away)
            guard: ({ context, event }) => {
              const flag = flagOf(event.message);
              return (
                !!flag &&
                flag.id === context.id &&
                context.shareId === null &&
                !context.dirty &&
                (flag.status === 'done' || flag.status === 'failed')
              );
            },
            target: 'loading',
          },
          {
            // progress of this document's job: the status shown follows
            guard: ({ context, event }) => {
              const flag = flagOf(event.message);
              return !!flag && flag.id === context.id && context.doc !== null;
            },
            actions: assign(({ context, event }) => {
              const data = event.message.data as { status: DocumentDetail['status']; progress: number };
              return { doc: { ...context.doc!, status: data.status, progress: data.progress } };
            }),
          },
        ],
      },
      states: {
        idle: {
          on: {
            'text edited': {
              guard: 'can edit',
              actions: assign(({ context, event }) => editText(context, event.text)),
            },
            accept: {
              guard: 'can edit',
              actions: assign(({ context, event }) => {
                const f = context.findings.find((x) => x.id === event.id);
                const suggestion = event.suggestion ?? f?.suggestions[0];
                if (!f || suggestion === undefined) return {};
                return acceptFinding(context, f, suggestion);
              }),
            },
            'accept all of kind': {
              guard: 'can edit',
              actions: assign(({ context, event }) => {
                const f = context.findings.find((x) => x.id === event.id);
                if (!f || f.suggestions[0] === undefined) return {};
                const same = context.findings.filter(
                  (x) => x.original === f.original && x.category === f.category && x.suggestions[0] !== undefined,
                );
                // from the end, so earlier offsets stay valid
                let ctx = context;
                for (const x of [...same].sort((a, b) => b.start - a.start)) {
                  const current = ctx.findings.find(
                    (y) => y.start === x.start && y.end === x.end && y.original === x.original,
                  );
                  if (current) ctx = { ...ctx, ...acceptFinding(ctx, current, current.suggestions[0]) };
                }
                return {
                  text: ctx.text,
                  findings: ctx.findings,
                  fixes: ctx.fixes,
                  ignored: ctx.ignored,
                  dirty: ctx.dirty,
                };
              }),
            },
            ignore: {
              guard: 'can edit',
              actions: assign(({ context, event }) => {
                const f = context.findings.find((x) => x.id === event.id);
                return f ? ignoreOne(context, f) : {};
              }),
            },
            'ignore all': {
              guard: 'can edit',
              actions: assign(({ context, event }) => {
                const f = context.findings.find((x) => x.id === event.id);
                if (!f) return {};
                let ctx = context;
                for (const x of context.findings.filter((y) => y.original === f.original))
                  ctx = { ...ctx, ...ignoreOne(ctx, x) };
                return { ignored: ctx.ignored, findings: ctx.findings, dirty: true };
              }),
            },
            // the word is in the personal dictionary now: its findings go (the next check agrees)
            'word added': {
              actions: assign(({ context, event }) => ({
                findings: context.findings.filter((f) => f.original !== event.word),
              })),
            },
            'save requested': { guard: ({ context }) => canEdit({ context }) && context.id !== null, target: 'saving' },
          },
        },
        saving: {
          invoke: {
            src: 'save',
            input: ({ context }) => ({
              id: context.id!,
              text: context.text,
              fixes: context.fixes,
              ignored: context.ignored,
            }),
            onDone: {
              target: 'idle',
              actions: assign(({ context, event }) => {
                const doc = event.output;
                // the server normalises white space: its text is the truth, findings that still match stay
                return {
                  doc,
                  text: doc.text,
                  fixes: doc.fixes ?? context.fixes,
                  ignored: doc.ignored ?? context.ignored,
                  findings: context.findings.filter((f) => doc.text.slice(f.start, f.end) === f.original),
                  dirty: false,
                  error: null,
                };
              }),
            },
            onError: [
              {
                guard: ({ event }) => tooLongOf(event.error) !== null,
                target: 'tooLong',
                actions: assign(({ event }) => ({ tooLong: tooLongOf(event.error) })),
              },
              {
                target: 'idle',
                actions: assign(({ event }) => ({ error: (event.error as Error)?.message || '系统异常' })),
              },
            ],
          },
        },
        // the limit is shown until it is dismissed; any other event (an edit, a save) is idle's again
        tooLong: {
          exit: assign({ tooLong: null }),
          on: {
            'too long dismissed': 'idle',
            '*': { target: 'idle', actions: raise(({ event }) => event) },
          },
        },
      },
    },
  },
});

export type DocumentEditorRef = ActorRefFrom<typeof documentEditorMachine>;

/** Resolves when the editor is no longer saving, telling whether everything is saved (no unsaved edit, no error). */
export function settled(ref: DocumentEditorRef): Promise<boolean> {
  return new Promise((resolve) => {
    const check = () => {
      const s = ref.getSnapshot();
      if (!s.matches({ ready: 'saving' })) {
        sub.unsubscribe();
        resolve(!s.context.dirty && !s.context.error);
      }
    };
    const sub = ref.subscribe(check);
    queueMicrotask(check);
  });
}

/** Whether the document can be changed in this view (own document, check finished). */
export function isEditable(context: DocumentEditorContext): boolean {
  return canEdit({ context });
}

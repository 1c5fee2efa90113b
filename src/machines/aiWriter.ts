// The AI writing screen (/ai): a draft the user writes in, and an assistant that runs a writing function (polish,
// continue, an official-document draft, …) on a text, streaming the result in as it is written. A result can be
// proofread in place (a proofreading job of its own, the same machine as the home screen's) and inserted into the
// draft at the caret, corrected.
//
// loading -> unavailable (no chat service) | failed (retry) | ready: idle | running -> done | failed | cancelled
import { assign, enqueueActions, fromCallback, fromPromise, setup, stopChild, type ActorRefFrom } from 'xstate';
import { mustProvide, notProvided } from './provide';
import { proofreadJobMachine } from './proofreadJob';
import type { FieldKey, WritingFunction, WritingFunctions, WritingRequest } from './aiCalls';

export interface AiWriterContext {
  functions: WritingFunction[];
  functionId: string;
  /** the text the function runs on */
  input: string;
  fields: Partial<Record<FieldKey, string>>;
  /** the result as it streams in */
  output: string;
  /** characters the last run was charged */
  used: number;
  /** the last run stopped at its limit */
  truncated: boolean;
  /** the draft the results are inserted into */
  draft: string;
  lang: 'cn' | 'hk';
  error: string | null;
}

export type AiWriterEvent =
  | { type: 'retry' }
  | { type: 'choose'; id: string }
  | { type: 'input changed'; text: string }
  | { type: 'field changed'; key: FieldKey; value: string }
  | { type: 'draft changed'; text: string }
  | { type: 'language changed'; lang: 'cn' | 'hk' }
  | { type: 'generate' }
  | { type: 'cancel' }
  | { type: 'proofread' }
  /** puts the result (corrected when proofread) into the draft in place of [from, to) */
  | { type: 'insert'; from: number; to: number }
  // from the run
  | { type: 'delta'; text: string }
  | { type: 'finished'; used: number; truncated: boolean }
  | { type: 'run failed'; message: string };

/** What a run is asked to do (the contract's body of POST /gpt/v1/chat/completions). */
export type RunInput = WritingRequest;

const errorText = (error: unknown) => (error instanceof Error && error.message ? error.message : '系统异常');

/** The function's required fields are filled and there is text to run it on. */
export function readyToRun(context: Pick<AiWriterContext, 'functions' | 'functionId' | 'input' | 'fields'>) {
  const fn = context.functions.find((f) => f.id === context.functionId);
  if (!fn || !context.input.trim()) return false;
  return (fn.fields ?? []).every((f) => !f.required || Boolean(context.fields[f.key as FieldKey]?.trim()));
}

// the function and its text can change whenever no run is streaming (a run keeps what it was sent)
const EDITABLE = {
  choose: { actions: 'choose' },
  'input changed': { actions: 'edit' },
  'field changed': { actions: 'edit' },
  generate: { guard: 'ready to run', target: 'running' },
} as const;

export const aiWriterMachine = setup({
  types: {
    context: {} as AiWriterContext,
    events: {} as AiWriterEvent,
    children: {} as { proofreader: 'proofreader' },
  },
  actors: {
    /** GET /gpt/v1/chat/function */
    'load functions': fromPromise<WritingFunctions, void>(notProvided('aiWriter', 'load functions')),
    /** POST /gpt/v1/chat/completions: sends back delta, finished or run failed; stopping it stops the run */
    run: fromCallback<AiWriterEvent, RunInput>(() => mustProvide('aiWriter', 'run')),
    /** the result's own proofreading job */
    proofreader: proofreadJobMachine,
  },
  guards: {
    'ready to run': ({ context }) => readyToRun(context),
  },
  actions: {
    choose: assign(({ context, event }) => {
      if (event.type !== 'choose' || !context.functions.some((f) => f.id === event.id)) return {};
      return { functionId: event.id };
    }),
    edit: assign(({ context, event }) => {
      if (event.type === 'input changed') return { input: event.text };
      if (event.type === 'field changed') return { fields: { ...context.fields, [event.key]: event.value } };
      if (event.type === 'draft changed') return { draft: event.text };
      if (event.type === 'language changed') return { lang: event.lang };
      return {};
    }),
    insert: enqueueActions(({ context, event, self, enqueue }) => {
      if (event.type !== 'insert') return;
      const checked = self.getSnapshot().children.proofreader?.getSnapshot().context.text;
      const text = checked ?? context.output;
      if (!text) return;
      const from = Math.max(0, Math.min(event.from, context.draft.length));
      const to = Math.max(from, Math.min(event.to, context.draft.length));
      enqueue.assign({ draft: context.draft.slice(0, from) + text + context.draft.slice(to) });
    }),
  },
}).createMachine({
  id: 'aiWriter',
  context: {
    functions: [],
    functionId: 'polish',
    input: '',
    fields: {},
    output: '',
    used: 0,
    truncated: false,
    draft: '',
    lang: 'cn',
    error: null,
  },
  on: {
    'draft changed': { actions: 'edit' },
    'language changed': { actions: 'edit' },
  },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'load functions',
        onDone: [
          {
            guard: ({ event }) => !event.output.available,
            target: 'unavailable',
            actions: assign(({ event }) => ({ functions: event.output.functions })),
          },
          { target: 'ready', actions: assign(({ event }) => ({ functions: event.output.functions })) },
        ],
        onError: { target: 'failed', actions: assign(({ event }) => ({ error: errorText(event.error) })) },
      },
    },
    failed: { on: { retry: { target: 'loading', actions: assign({ error: null }) } } },
    unavailable: { on: { retry: 'loading' } },
    ready: {
      initial: 'idle',
      on: {
        insert: { actions: 'insert' },
      },
      states: {
        idle: { on: EDITABLE },
        running: {
          entry: [stopChild('proofreader'), assign({ output: '', used: 0, truncated: false, error: null })],
          invoke: {
            src: 'run',
            input: ({ context }) => ({
              function_id: context.functionId,
              content: context.input,
              lang: context.lang,
              ...(Object.keys(context.fields).length ? { fields: context.fields } : {}),
            }),
          },
          on: {
            delta: { actions: assign(({ context, event }) => ({ output: context.output + event.text })) },
            finished: {
              target: 'done',
              actions: assign(({ event }) => ({ used: event.used, truncated: event.truncated })),
            },
            'run failed': { target: 'failed', actions: assign(({ event }) => ({ error: event.message })) },
            cancel: 'cancelled',
          },
        },
        done: {
          on: {
            ...EDITABLE,
            proofread: {
              guard: ({ context }) => context.output.trim().length > 0,
              actions: enqueueActions(({ context, enqueue }) => {
                enqueue.stopChild('proofreader');
                enqueue.spawnChild('proofreader', { id: 'proofreader' });
                enqueue.sendTo('proofreader', { type: 'language changed', lang: context.lang });
                enqueue.sendTo('proofreader', { type: 'text edited', text: context.output });
                enqueue.sendTo('proofreader', { type: 'check requested' });
              }),
            },
          },
        },
        failed: { on: EDITABLE },
        cancelled: { on: EDITABLE },
      },
    },
  },
});

export type AiWriterRef = ActorRefFrom<typeof aiWriterMachine>;

// The guide modal (spec §2): after login, when the server says the user has not finished or skipped the guide's
// version, its slides open; previous / next (arrow keys), skip (Esc), finish on the last slide. Finishing or
// skipping is recorded on the server, so the version shows once per user; a new version shows again.
//
// closed -> open (slide index) -> finishing | skipping -> closed
import { assign, fromPromise, setup } from 'xstate';
import type { components } from '../../openapi/schema';
import { notProvided } from './provide';

export type Guide = components['schemas']['Guide'];

export interface GuideContext {
  guide: Guide | null;
  index: number;
}

export type GuideEvent =
  /** the answer of GET /wizard/v1/show (after each login) */
  | { type: 'guide loaded'; guide: Guide }
  | { type: 'next' }
  | { type: 'previous' }
  | { type: 'go to'; index: number }
  | { type: 'skip' };

export const guideMachine = setup({
  types: {
    context: {} as GuideContext,
    events: {} as GuideEvent,
  },
  actors: {
    /** GET /wizard/v1/access: type 1 finished, 2 skipped */
    record: fromPromise<void, { type: 1 | 2; ver: string }>(notProvided('guide', 'record')),
  },
  guards: {
    'to show': ({ event }) => event.type === 'guide loaded' && event.guide.show && event.guide.slides.length > 0,
    'on the last slide': ({ context }) => context.index >= (context.guide?.slides.length ?? 0) - 1,
  },
}).createMachine({
  id: 'guide',
  context: { guide: null, index: 0 },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'guide loaded': {
          guard: 'to show',
          target: 'open',
          actions: assign(({ event }) => ({ guide: event.guide, index: 0 })),
        },
      },
    },
    open: {
      on: {
        next: [
          { guard: 'on the last slide', target: 'finishing' },
          { actions: assign(({ context }) => ({ index: context.index + 1 })) },
        ],
        previous: { actions: assign(({ context }) => ({ index: Math.max(0, context.index - 1) })) },
        'go to': {
          actions: assign(({ context, event }) => ({
            index: Math.max(0, Math.min(event.index, (context.guide?.slides.length ?? 1) - 1)),
          })),
        },
        skip: 'skipping',
      },
    },
    // the modal closes at once; a record that fails only means the guide shows again at the next login
    finishing: {
      invoke: {
        src: 'record',
        input: ({ context }) => ({ type: 1 as const, ver: context.guide?.ver ?? '' }),
        onDone: 'closed',
        onError: 'closed',
      },
    },
    skipping: {
      invoke: {
        src: 'record',
        input: ({ context }) => ({ type: 2 as const, ver: context.guide?.ver ?? '' }),
        onDone: 'closed',
        onError: 'closed',
      },
    },
  },
});

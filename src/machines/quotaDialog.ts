// The quota-exhausted dialog (spec §2, §4, §9): 'free speed-up' goes to /share, 'upgrade now' to
// /upgrade; kind 2 closes itself after 6 s.
import { assign, fromCallback, setup, type ActorRefFrom } from 'xstate';
import { mustProvide } from './provide';

export const QUOTA_DIALOG_AUTO_CLOSE_MS = 6000;

export type QuotaKind = 1 | 2;

export interface QuotaDialogContext {
  kind: QuotaKind;
}

export type QuotaDialogEvent =
  | { type: 'quota exhausted'; kind: QuotaKind }
  | { type: 'free speed-up chosen' }
  | { type: 'upgrade chosen' }
  | { type: 'dismissed' };

export const quotaDialogMachine = setup({
  types: {
    context: {} as QuotaDialogContext,
    events: {} as QuotaDialogEvent,
  },
  actors: {
    /** Sends {type: 'quota exhausted', kind} whenever a call reports an exhausted quota */
    'quota listener': fromCallback(() => mustProvide('quotaDialog', 'quota listener')),
  },
  actions: {
    'remember kind': assign({
      kind: ({ event }) => (event.type === 'quota exhausted' && event.kind === 2 ? 2 : 1),
    }),
    'go to share': () => mustProvide('quotaDialog', 'go to share'),
    'go to upgrade': () => mustProvide('quotaDialog', 'go to upgrade'),
  },
  guards: {
    'closes itself': ({ context }) => context.kind === 2,
  },
  delays: {
    'auto close': QUOTA_DIALOG_AUTO_CLOSE_MS,
  },
}).createMachine({
  id: 'quotaDialog',
  context: { kind: 1 },
  invoke: { src: 'quota listener' },
  initial: 'closed',
  states: {
    closed: {
      on: { 'quota exhausted': { target: 'open', actions: 'remember kind' } },
    },
    open: {
      after: { 'auto close': { guard: 'closes itself', target: 'closed' } },
      on: {
        // A new exhaustion while open restarts the timer with the new kind.
        'quota exhausted': { target: 'open', reenter: true, actions: 'remember kind' },
        'free speed-up chosen': { target: 'closed', actions: 'go to share' },
        'upgrade chosen': { target: 'closed', actions: 'go to upgrade' },
        dismissed: { target: 'closed' },
      },
    },
  },
});

export type QuotaDialogActorRef = ActorRefFrom<typeof quotaDialogMachine>;

// Light and dark (spec §1, §4): two buttons choose, a toggle flips; the choice is kept.
import { assign, setup, type ActorRefFrom } from 'xstate';
import { mustProvide } from './provide';
import type { ThemeMode } from '../api/storage';

export type { ThemeMode };

export interface ThemeContext {
  mode: ThemeMode;
}

export type ThemeEvent = { type: 'theme chosen'; mode: ThemeMode } | { type: 'theme toggled' };

export const themeMachine = setup({
  types: {
    context: {} as ThemeContext,
    events: {} as ThemeEvent,
  },
  actions: {
    /** Reads the stored choice into context (an assign action). */
    'restore theme': () => mustProvide('theme', 'restore theme'),
    'persist theme': (_, _params: { mode: ThemeMode }) => mustProvide('theme', 'persist theme'),
  },
}).createMachine({
  id: 'theme',
  context: { mode: 'light' },
  entry: 'restore theme',
  on: {
    'theme chosen': {
      guard: ({ event }) => event.mode === 'light' || event.mode === 'dark',
      actions: [
        assign({ mode: ({ event }) => event.mode }),
        { type: 'persist theme', params: ({ event }) => ({ mode: event.mode }) },
      ],
    },
    'theme toggled': {
      actions: [
        assign({ mode: ({ context }) => (context.mode === 'light' ? 'dark' : 'light') }),
        // the assign above has already run: context holds the new mode
        { type: 'persist theme', params: ({ context }) => ({ mode: context.mode }) },
      ],
    },
  },
});

export type ThemeActorRef = ActorRefFrom<typeof themeMachine>;

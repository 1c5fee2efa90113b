// The interface language (spec §1): cn, en or hk; default cn, an unknown stored value falls back
// to hk; the choice is kept in local storage.
import { assign, setup, type ActorRefFrom } from 'xstate';
import { mustProvide } from './provide';
import type { Locale } from '../api/storage';

export type { Locale };

export interface LanguageContext {
  locale: Locale;
}

export type LanguageEvent = { type: 'language chosen'; locale: Locale };

export function isLocale(value: unknown): value is Locale {
  return value === 'cn' || value === 'en' || value === 'hk';
}

/** Intl needs real tags: cn and hk are not BCP-47. */
export const INTL_TAGS: Record<Locale, string> = { cn: 'zh-CN', en: 'en', hk: 'zh-HK' };

export const languageMachine = setup({
  types: {
    context: {} as LanguageContext,
    events: {} as LanguageEvent,
  },
  actions: {
    /** Reads the stored choice into context (an assign action). */
    'restore locale': () => mustProvide('language', 'restore locale'),
    'persist locale': (_, _params: { locale: Locale }) => mustProvide('language', 'persist locale'),
  },
  guards: {
    'is known locale': ({ event }) => isLocale(event.locale),
  },
}).createMachine({
  id: 'language',
  context: { locale: 'cn' },
  entry: 'restore locale',
  on: {
    'language chosen': {
      guard: 'is known locale',
      actions: [
        assign({ locale: ({ event }) => event.locale }),
        { type: 'persist locale', params: ({ event }) => ({ locale: event.locale }) },
      ],
    },
  },
});

export type LanguageActorRef = ActorRefFrom<typeof languageMachine>;

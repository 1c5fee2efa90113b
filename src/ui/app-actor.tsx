import { createActorContext, useSelector } from '@xstate/react';
import { appMachine } from '../machines/app';
import { systemActor, type SystemActors, type SystemId } from '../machines/system';
import type { Locale, ThemeMode } from '../api/storage';
import type { UserInfo } from '../api/user';

/** The root actor for views (CONVENTIONS.md: createActorContext; the live logic is passed in main.tsx). */
export const AppActorContext = createActorContext(appMachine);

/** A child of the root actor by its systemId (ARCHITECTURE.md: one root actor invokes the rest). */
export function useSystemActor<K extends SystemId>(systemId: K): SystemActors[K] {
  const app = AppActorContext.useActorRef();
  const ref = systemActor(app.system, systemId);
  if (!ref) throw new Error(`the app actor has no child with systemId "${systemId}"`);
  return ref;
}

export type SessionStatus = 'restoring' | 'loggedOut' | 'loggingIn' | 'registering' | 'loggedIn' | 'loggingOut';

export type SessionUser = UserInfo;

export type SessionEvent =
  | { type: 'login submitted'; phone: string; password: string }
  | { type: 'register submitted'; phone: string; code: string; password: string; name?: string }
  | { type: 'token received'; token: string }
  | { type: 'logout requested' };

/** The session as views see it: a status name, the user and the last error. */
export function useSession() {
  const ref = useSystemActor('session');
  const status = useSelector(ref, (s) => topState(s.value) as SessionStatus);
  const user = useSelector(ref, (s) => (s.context?.user ?? null) as SessionUser | null);
  const error = useSelector(ref, (s) => (s.context?.error ?? null) as string | null);
  return { status, user, error, send: (event: SessionEvent) => ref.send(event) };
}

/**
 * The switch dialog (session loggedIn.confirmingSwitch): a link brought another account's login while this one is
 * signed in. Only the user's answer switches.
 */
export function useAccountSwitch() {
  const ref = useSystemActor('session');
  const open = useSelector(ref, (s) => s.matches({ loggedIn: 'confirmingSwitch' }));
  const current = useSelector(ref, (s) => s.context.user);
  const linked = useSelector(ref, (s) => s.context.linkUser);
  return {
    open,
    current,
    linked,
    confirm: () => ref.send({ type: 'switch confirmed' }),
    decline: () => ref.send({ type: 'switch declined' }),
  };
}

export function useLanguage() {
  const ref = useSystemActor('language');
  const locale = useSelector(ref, (s) => s.context.locale as Locale);
  return { locale, choose: (next: Locale) => ref.send({ type: 'language chosen', locale: next }) };
}

export function useThemeMode() {
  const ref = useSystemActor('theme');
  const mode = useSelector(ref, (s) => s.context.mode as ThemeMode);
  return {
    mode,
    choose: (next: ThemeMode) => ref.send({ type: 'theme chosen', mode: next }),
    toggle: () => ref.send({ type: 'theme toggled' }),
  };
}

export type QuotaDialogEvent = { type: 'free speed-up chosen' } | { type: 'upgrade chosen' } | { type: 'dismissed' };

export function useQuotaDialog() {
  const ref = useSystemActor('quotaDialog');
  const open = useSelector(ref, (s) => s.matches('open') as boolean);
  const kind = useSelector(ref, (s) => s.context.kind as 1 | 2);
  return { open, kind, send: (event: QuotaDialogEvent) => ref.send(event) };
}

function topState(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') return Object.keys(value)[0] ?? '';
  return '';
}

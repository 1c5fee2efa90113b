import { i18n, type Messages } from '@lingui/core';
// Every catalogue is its own chunk, the source language's too (it holds every screen's texts and would otherwise
// grow the first load with each screen): main.tsx fetches the chosen one beside the runtime configuration.

export type Locale = 'cn' | 'en' | 'hk';

export const LOCALES: readonly Locale[] = ['cn', 'en', 'hk'];

/** `cn`/`hk` are not BCP-47 tags; Intl gets real ones (STACK.md, ARCHITECTURE.md). */
export const INTL_TAGS: Record<Locale, string[]> = {
  cn: ['zh-CN'],
  en: ['en'],
  hk: ['zh-HK', 'zh-Hant'],
};

/** The tag written to `<html lang>`. */
export const HTML_LANG: Record<Locale, string> = { cn: 'zh-CN', en: 'en', hk: 'zh-HK' };

const catalogs: Partial<Record<Locale, Messages>> = {};
// A locale's catalogue and the server's messages in it (the source language needs no server catalogue: the
// server writes its messages in that language).
/** Catalogues laid over each other: later ones win, but an entry a later one leaves empty keeps the earlier one's. */
export function mergeCatalogues(parts: readonly Messages[]): Messages {
  const messages: Messages = {};
  for (const part of parts)
    for (const [id, text] of Object.entries(part)) if (text !== '' && text !== undefined) messages[id] = text;
  return messages;
}
const merged = async (...parts: Array<Promise<{ messages: Messages }>>) => ({
  messages: mergeCatalogues((await Promise.all(parts)).map((p) => p.messages)),
});
const hk = () => merged(import('../../locales/hk/messages.po'), import('../../locales/hk/server.po'));
const loaders: Record<Locale, () => Promise<{ messages: Messages }>> = {
  cn: () => import('../../locales/cn/messages.po'),
  // spec §1: hk is the fallback language: what the English catalogue lacks reads in hk
  en: () => merged(hk(), import('../../locales/en/messages.po'), import('../../locales/en/server.po')),
  hk,
};
/** the locale asked for last: a catalogue that arrives after another choice does not win */
let wanted: Locale | null = null;
/** the catalogue shown (a locale may be shown before its catalogue arrives: the source language without one) */
let shown: Messages | null = null;

/** Fetches a locale's catalogue once (each is its own chunk). */
export async function loadLocale(locale: Locale): Promise<void> {
  catalogs[locale] ??= (await loaders[locale]()).messages;
}

/** Activates a locale: at once when its catalogue is here, else as soon as it has loaded. */
export function activateLocale(locale: Locale): void {
  wanted = locale;
  const messages = catalogs[locale];
  if (i18n.locale === locale && shown === (messages ?? shown)) return;
  if (!messages) {
    // meanwhile (and if the catalogue cannot be fetched) the page speaks the source language rather than nothing:
    // its catalogue when here (main.tsx fetches the chosen one before the first render; the notices' texts are their
    // own ids); a page already shown stays in its language until the chosen catalogue has arrived
    if (!i18n.locale) show('cn', catalogs.cn ?? {});
    loadLocale(locale).then(
      () => {
        if (wanted === locale) activateLocale(locale);
      },
      () => undefined,
    );
    return;
  }
  show(locale, messages);
}

function show(locale: Locale, messages: Messages) {
  shown = messages;
  i18n.loadAndActivate({ locale, locales: INTL_TAGS[locale], messages });
  if (typeof document !== 'undefined') document.documentElement.lang = HTML_LANG[locale];
}

export { i18n };

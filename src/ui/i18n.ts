import { i18n, type Messages } from '@lingui/core';
// The source language's catalogue is part of the first load; the others come when chosen (loadLocale).
import { messages as cn } from '../../locales/cn/messages.po';

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

const catalogs: Partial<Record<Locale, Messages>> = { cn };
// A locale's catalogue and the server's messages in it (the source language needs no server catalogue: the
// server writes its messages in that language).
const merged = async (...parts: Array<Promise<{ messages: Messages }>>) => ({
  messages: Object.assign({}, ...(await Promise.all(parts)).map((p) => p.messages)) as Messages,
});
const loaders: Record<Exclude<Locale, 'cn'>, () => Promise<{ messages: Messages }>> = {
  en: () => merged(import('../../locales/en/messages.po'), import('../../locales/en/server.po')),
  hk: () => merged(import('../../locales/hk/messages.po'), import('../../locales/hk/server.po')),
};
/** the locale asked for last: a catalogue that arrives after another choice does not win */
let wanted: Locale | null = null;

/** Fetches a locale's catalogue once (each is its own chunk). */
export async function loadLocale(locale: Locale): Promise<void> {
  if (locale !== 'cn') catalogs[locale] ??= (await loaders[locale]()).messages;
}

/** Activates a locale: at once when its catalogue is here, else as soon as it has loaded. */
export function activateLocale(locale: Locale): void {
  wanted = locale;
  if (i18n.locale === locale) return;
  const messages = catalogs[locale];
  if (!messages) {
    // meanwhile (and if the catalogue cannot be fetched) the page speaks the source language rather than nothing
    if (!i18n.locale) show('cn', cn);
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
  i18n.loadAndActivate({ locale, locales: INTL_TAGS[locale], messages });
  if (typeof document !== 'undefined') document.documentElement.lang = HTML_LANG[locale];
}

export { i18n };

import { i18n } from '@lingui/core';
import { messages as cn } from '../../locales/cn/messages.po';
import { messages as en } from '../../locales/en/messages.po';
import { messages as hk } from '../../locales/hk/messages.po';

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

const catalogs = { cn, en, hk };

export function activateLocale(locale: Locale): void {
  if (i18n.locale === locale) return;
  i18n.loadAndActivate({ locale, locales: INTL_TAGS[locale], messages: catalogs[locale] });
  if (typeof document !== 'undefined') document.documentElement.lang = HTML_LANG[locale];
}

export { i18n };

// A finding's message in the reader's language: its note (engine/messages.ts) rendered in the current locale, the
// Chinese fragments in it (the user's words, marks, pinyin) marked as Chinese; the message as stored otherwise.
import { useLingui } from '@lingui/react/macro';
import { renderNoteParts, type WireNote } from '../../../engine/messages';
import { LEVELS } from '../../../engine/categories';
import type { Locale } from '../i18n';

const ZH: Record<Locale, string> = { cn: 'zh-CN', en: 'zh-CN', hk: 'zh-HK' };

/** the current Lingui locale as one of ours (the source language until one is active) */
export function localeOf(locale: string | undefined): Locale {
  return locale === 'en' || locale === 'hk' ? locale : 'cn';
}

export function FindingMessage(props: { finding: { message: string; note?: WireNote } }) {
  const { i18n } = useLingui();
  const locale = localeOf(i18n.locale);
  const { message, note } = props.finding;
  // a note this catalogue cannot render (a newer engine's) or none (a result stored before notes): the message
  const parts = note ? renderNoteParts(note, locale) : undefined;
  if (!parts) return <span lang={ZH[locale]}>{message}</span>;
  return (
    <>
      {parts.map((p, k) =>
        p.quoted ? (
          <span key={k} lang={ZH[locale]} translate="no" data-testid="finding-message-quote">
            {p.text}
          </span>
        ) : (
          p.text
        ),
      )}
    </>
  );
}

/** a finding level's label (1 error, 2 suggestion, 3 hint) in a locale, from the engine's table */
export function levelLabel(level: number, locale: Locale): string | undefined {
  return LEVELS.find((l) => l.level === level)?.[locale];
}

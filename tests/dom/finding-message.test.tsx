// A finding's message in the reader's language: the note (engine/messages.ts) rendered in the Lingui locale with the
// Chinese fragments marked, its category and level labels in that language too; a finding stored before notes
// existed shows its message.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { ChakraProvider } from '@chakra-ui/react';
import { I18nProvider } from '@lingui/react';
import type { Finding } from '../../src/machines/proofreadJob';
import { FindingCard } from '../../src/ui/findings/FindingCard';
import { activateLocale, i18n, type Locale } from '../../src/ui/i18n';
import { system } from '../../src/ui/system';
import { useLabelOf } from '../../src/ui/findings/useFindingReview';

afterEach(cleanup);

// as the engine reports 截止本月十日 (a confusable word with its reason, a nested note)
const CONFUSABLE: Finding = {
  id: 'a',
  paragraph: 'p',
  start: 1,
  end: 2,
  original: '止',
  suggestions: ['至'],
  category: '0',
  level: 1,
  message: '“止”应为“至”：后接时间表示“到某时为止”用“截至”，“截止”不带宾语。',
  note: { id: 'usage.should', args: { orig: '止', cand: '至', reason: { id: 'reason.jiezhi' } } },
};

// a sensitive word: the category label is a nested note
const SENSITIVE: Finding = {
  id: 'b',
  paragraph: 'p',
  start: 0,
  end: 2,
  original: '违禁',
  suggestions: [],
  category: '8-6',
  type: 4,
  level: 3,
  message: '“违禁”是自定义敏感词（非法信息）。',
  note: { id: 'sensitive.personal', args: { word: '违禁', label: { id: 'category.8-6' } } },
};

function Card(props: { finding: Finding }) {
  const labelOf = useLabelOf(undefined, i18n.locale as Locale);
  return (
    <FindingCard
      finding={props.finding}
      label={labelOf(props.finding.category)}
      selected
      context="截止本月十日"
      onAction={() => undefined}
    />
  );
}

function show(locale: Locale, finding: Finding) {
  activateLocale(locale);
  render(
    <ChakraProvider value={system}>
      <I18nProvider i18n={i18n}>
        <Card finding={finding} />
      </I18nProvider>
    </ChakraProvider>,
  );
  return screen.getByTestId('finding-message');
}

describe('a finding’s message in the reader’s language', () => {
  it('reads in English with the Chinese words marked as Chinese, the category and level in English', () => {
    const message = show('en', CONFUSABLE);
    expect(message.textContent).toBe('“止” should be “至”: before a time, “up to” is “截至”; “截止” takes no object.');
    const quotes = [...message.querySelectorAll('span[lang="zh-CN"]')].map((e) => e.textContent);
    expect(quotes).toEqual(['止', '至', '截至', '截止']);
    // what is not marked is English: no Han character outside the marked words
    const unmarked = [...message.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent);
    expect(unmarked.join('')).not.toMatch(/\p{Script=Han}/u);
    const meta = message.nextElementSibling!.textContent!;
    expect(meta).toContain('Common misuse');
    expect(screen.getByTestId('finding-level').textContent).toContain('Error');
  });

  it('nests a category label in the sentence in the same language', () => {
    const message = show('en', SENSITIVE);
    expect(message.textContent).toBe('“违禁” is one of your sensitive words (Illegal information).');
    expect(screen.getByTestId('finding-level').textContent).toContain('Hint');
  });

  it('reads in traditional characters in hk, the words marked zh-HK', () => {
    const message = show('hk', CONFUSABLE);
    expect(message.textContent).toBe('“止”應為“至”：後接時間表示“到某時為止”用“截至”，“截止”不帶賓語。');
    expect([...message.querySelectorAll('span[lang="zh-HK"]')].map((e) => e.textContent)).toEqual(['止', '至']);
    expect(message.nextElementSibling!.textContent).toContain('默認');
    expect(screen.getByTestId('finding-level').textContent).toContain('錯誤');
  });

  it('shows the message as stored when a finding has no note or one this catalogue does not know', () => {
    const { note: _none, ...old } = CONFUSABLE;
    expect(show('en', old).textContent).toBe(CONFUSABLE.message);
    cleanup();
    const newer = { ...CONFUSABLE, note: { id: 'usage.future', args: { orig: '止' } } };
    const message = show('en', newer);
    expect(message.textContent).toBe(CONFUSABLE.message);
    expect(message.querySelector('span')!.getAttribute('lang')).toBe('zh-CN');
  });
});

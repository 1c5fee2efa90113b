// Findings grouped by what they are (src/ui/findings/groups.ts) and the result panel's groups: a wrong word and a
// sensitive word of the user's dictionary, a built-in typo and a built-in sensitive word each land in the group of
// their kind, and no two groups share a title (categories 0 and 8-1 are both called 默认).
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { ChakraProvider } from '@chakra-ui/react';
import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Finding } from '../../src/machines/proofreadJob';
import { FindingGroups } from '../../src/ui/findings/FindingsPanel';
import { groupFindings, kindOf } from '../../src/ui/findings/groups';
import { activateLocale, i18n } from '../../src/ui/i18n';
import { system } from '../../src/ui/system';

afterEach(cleanup);

const TEXT = '他高兴的跑了，赌博网站和重点工程都在关健时刻，见《通知》,2月30日。';

function finding(id: string, original: string, category: string, type?: number, library?: number): Finding {
  const start = TEXT.indexOf(original);
  return {
    id,
    paragraph: 'p',
    start,
    end: start + original.length,
    original,
    suggestions: [],
    category,
    ...(type === undefined ? {} : { type }),
    ...(library === undefined ? {} : { library }),
    level: 1,
    message: `${original}`,
  };
}

const MIXED: Finding[] = [
  finding('typo', '的', '0'),
  finding('own-wrong', '关健', '0', 5),
  finding('own-sensitive', '赌博', '8-1', 4),
  finding('builtin-sensitive', '网站', '8-1', 3),
  finding('team-key', '重点工程', '11', 10),
  finding('comma', ',', '10-1'),
  finding('date', '2月30日', '9-2'),
  finding('homophone', '高兴', '1'),
  finding('library-wrong', '跑了', '0', 5, 2),
];

describe('findings grouped by kind', () => {
  it('puts each finding in the group of what it is, in a fixed order, keeping their order', () => {
    expect(kindOf({ category: '0' })).toBe('typo');
    expect(kindOf({ category: '0', type: 5 })).toBe('dictionary-personal');
    expect(kindOf({ category: '0', type: 7 })).toBe('dictionary-team');
    expect(kindOf({ category: '8-1', type: 4 })).toBe('dictionary-personal');
    expect(kindOf({ category: '8-3', type: 6 })).toBe('dictionary-team');
    expect(kindOf({ category: '8-1', type: 3 })).toBe('sensitive');
    expect(kindOf({ category: '11', type: 9 })).toBe('dictionary-personal');
    expect(kindOf({ category: '12-2', type: 11 })).toBe('advanced');
    expect(kindOf({ category: '10-4' })).toBe('punctuation');
    expect(kindOf({ category: '9-1' })).toBe('facts');
    const groups = groupFindings(MIXED);
    expect(groups.map((g) => [g.kind, g.list.map((f) => f.id)])).toEqual([
      ['typo', ['typo', 'homophone']],
      ['sensitive', ['builtin-sensitive']],
      ['punctuation', ['comma']],
      ['facts', ['date']],
      ['dictionary-personal', ['own-wrong', 'own-sensitive']],
      ['dictionary-team', ['team-key']],
      ['dictionary-personal', ['library-wrong']],
    ]);
    expect(groups.map((g) => g.key)).toEqual([
      'typo',
      'sensitive',
      'punctuation',
      'facts',
      'dictionary-personal',
      'dictionary-team',
      'library-2',
    ]);
  });

  it.each([
    [
      'cn',
      ['错别字', '敏感词', '标点', '地址日期', '词库命中：我的词库', '词库命中：共享词库', '词库命中：政务常用词'],
    ],
    ['en', ['Typos', 'Sensitive word', 'Punctuation', 'Addresses and dates', 'Dictionary hits: my dictionary']],
    [
      'hk',
      ['錯別字', '敏感詞', '標點', '地址日期', '詞庫命中：我的詞庫', '詞庫命中：共享詞庫', '詞庫命中：政務常用詞'],
    ],
  ] as const)('shows one titled group per kind in a result panel with mixed findings (%s)', (locale, titles) => {
    activateLocale(locale);
    const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
    // the word libraries' names, as GET /user/get_word_library gives them
    queryClient.setQueryData(
      ['user', 'word-library'],
      [{ id: 2, name: '政务常用词', name_en: 'Government terms', name_hk: '政務常用詞' }],
    );
    render(
      <ChakraProvider value={system}>
        <QueryClientProvider client={queryClient}>
          <I18nProvider i18n={i18n}>
            <FindingGroups
              list={MIXED}
              limit={50}
              selectedId={null}
              text={TEXT}
              labelOf={(category) => category}
              onAction={() => undefined}
            />
          </I18nProvider>
        </QueryClientProvider>
      </ChakraProvider>,
    );
    const shown = screen.getAllByTestId('finding-group-title').map((t) => t.textContent);
    expect(new Set(shown).size).toBe(shown.length);
    expect(shown.slice(0, titles.length)).toEqual(titles);
    const groups = screen.getAllByTestId('finding-group');
    const personal = groups.find((g) => g.dataset.kind === 'dictionary-personal')!;
    expect([...personal.querySelectorAll('[data-testid="finding-original"]')].map((e) => e.textContent)).toEqual([
      '关健',
      '赌博',
    ]);
    const typos = groups.find((g) => g.dataset.kind === 'typo')!;
    expect([...typos.querySelectorAll('[data-testid="finding-original"]')].map((e) => e.textContent)).toEqual([
      '的',
      '高兴',
    ]);
  });
});

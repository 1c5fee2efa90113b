// The findings column every result screen shows beside its text: a header with the count and next/previous, the
// cards (the first ones and the selected one: thousands of cards would slow typing) and the review keys.
import { useMemo, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Box, Flex, HStack, IconButton, Kbd, Stack, Text } from '@chakra-ui/react';
import { ChevronDown, ChevronUp } from 'lucide-react';
import { FindingCard, type FindingAction } from './FindingCard';
import type { Finding } from '../../machines/proofreadJob';
import { paletteOf } from './categories';
import { groupFindings, KIND_CATEGORY, KIND_TITLES, type FindingGroup } from './groups';
import { wordLibraries } from '../../machines/dictCalls';

export function FindingsPanel(props: { count: number; onStep(direction: 1 | -1): void; children: ReactNode }) {
  const { t } = useLingui();
  const { count, onStep, children } = props;
  return (
    <Stack w={{ base: 'full', lg: '380px' }} flexShrink={0} gap="3" data-testid="findings-panel">
      <Flex align="center" gap="2">
        <Text fontWeight="semibold">
          <Trans>校对结果</Trans>
        </Text>
        <Badge colorPalette={count ? 'red' : 'gray'} data-testid="finding-count">
          {count}
        </Badge>
        <Box flex="1" />
        <IconButton
          size="xs"
          variant="ghost"
          aria-label={t`上一个问题`}
          onClick={() => onStep(-1)}
          disabled={!count}
          data-testid="finding-prev"
        >
          <ChevronUp />
        </IconButton>
        <IconButton
          size="xs"
          variant="ghost"
          aria-label={t`下一个问题`}
          onClick={() => onStep(1)}
          disabled={!count}
          data-testid="finding-next"
        >
          <ChevronDown />
        </IconButton>
      </Flex>
      <Box bg="panel" borderWidth="1px" borderRadius="xl" p="3" maxH={{ lg: 'calc(100vh - 230px)' }} overflowY="auto">
        {children}
      </Box>
    </Stack>
  );
}

type FindingCardsProps = Parameters<typeof FindingCards>[0];

/** The cards grouped by what the findings are (groups.ts): one titled group per kind, `limit` cards in each. */
export function FindingGroups(props: FindingCardsProps) {
  const { t, i18n } = useLingui();
  const { list, ...cards } = props;
  const groups = useMemo(() => groupFindings(list), [list]);
  const hasLibraryHits = groups.some((g) => g.library !== undefined);
  // the names of the word libraries whose hits are listed (the dictionary page reads the same list)
  const libraries = useQuery({ queryKey: ['user', 'word-library'], queryFn: wordLibraries, enabled: hasLibraryHits });
  const titleOf = (group: FindingGroup<Finding>) => {
    if (group.library === undefined) return i18n._(KIND_TITLES[group.kind]);
    const library = libraries.data?.find((l) => l.id === group.library);
    const name = !library
      ? `#${group.library}`
      : i18n.locale === 'en'
        ? library.name_en
        : i18n.locale === 'hk'
          ? library.name_hk
          : library.name;
    return t`词库命中：${name}`;
  };
  return (
    <Stack gap="4">
      {groups.map((group) => (
        <Stack key={group.key} gap="2" data-testid="finding-group" data-kind={group.kind} data-library={group.library}>
          <HStack>
            <Box w="2.5" h="2.5" borderRadius="full" bg={`${paletteOf(KIND_CATEGORY[group.kind])}.solid`} />
            <Text fontSize="sm" fontWeight="medium" data-testid="finding-group-title">
              {titleOf(group)}
            </Text>
            <Badge size="sm" variant="subtle">
              {group.list.length}
            </Badge>
          </HStack>
          <FindingCards list={group.list} {...cards} />
        </Stack>
      ))}
    </Stack>
  );
}

/** The first `limit` cards of a list and the selected one, with how many more there are. */
export function FindingCards(props: {
  list: readonly Finding[];
  limit: number;
  selectedId: string | null;
  /** the text the findings' offsets point into (each card quotes around its finding) */
  text: string;
  labelOf(category: string): string;
  /** one stable handler for every card (see FindingCard) */
  onAction(action: FindingAction, finding: Finding, suggestion?: string): void;
  readOnly?: boolean;
  /** findings of a text that cannot be changed here, each with a link to its place in the original */
  report?: { sourceOf(f: Finding): string | undefined; sourceLabel: string };
}) {
  const { list, limit, selectedId, text, labelOf, onAction, readOnly, report } = props;
  const head = list.length > limit ? list.slice(0, limit) : list;
  const selected = selectedId && list.length > limit ? list.find((f) => f.id === selectedId) : undefined;
  const shown = selected && !head.includes(selected) ? [...head, selected] : head;
  return (
    <Stack gap="2" pointerEvents={readOnly ? 'none' : undefined}>
      {shown.map((f) => (
        <Box key={f.id} data-testid="finding-wrap" data-id={f.id}>
          <FindingCard
            finding={f}
            label={labelOf(f.category)}
            selected={f.id === selectedId}
            context={text.slice(Math.max(0, f.start - 12), Math.min(text.length, f.end + 12))}
            onAction={onAction}
            report={report ? { source: report.sourceOf(f), sourceLabel: report.sourceLabel } : undefined}
          />
        </Box>
      ))}
      {list.length > shown.length ? (
        <Text fontSize="xs" color="fg.muted" textAlign="center" data-testid="finding-more-count">
          <Trans>还有 {list.length - shown.length} 处，用 Alt+↓ 逐个查看</Trans>
        </Text>
      ) : null}
    </Stack>
  );
}

/** The review keys, as a hint under the text (wide screens only). */
export function ReviewKeys({ editable }: { editable: boolean }) {
  return (
    <Text display={{ base: 'none', md: 'block' }}>
      <Kbd size="sm">Alt</Kbd>+<Kbd size="sm">↓</Kbd>/<Kbd size="sm">↑</Kbd> <Trans>切换问题</Trans>
      {editable ? (
        <>
          {' · '}
          <Kbd size="sm">Alt</Kbd>+<Kbd size="sm">Enter</Kbd> <Trans>采纳</Trans> · <Kbd size="sm">Alt</Kbd>+
          <Kbd size="sm">⌫</Kbd> <Trans>忽略</Trans>
        </>
      ) : null}
    </Text>
  );
}

// Two documents side by side: paragraphs aligned row by row, deleted text struck through on the left,
// inserted text marked on the right, long equal stretches folded. Next/previous difference with the
// buttons, Alt+↓/Alt+↑ anywhere or j/k; the current difference is outlined on both sides and scrolled
// into view.
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Box, Button, Flex, Grid, HStack, IconButton, Kbd, Stack, Text } from '@chakra-ui/react';
import { ChevronDown, ChevronUp } from 'lucide-react';
import type { CompareResult } from '../../../machines/compareCalls';
import { foldEqualRuns, sideBySide, stepChange, type Piece, type SideBySideRow } from './diffModel';

const ROW_BG: Record<SideBySideRow['status'], { original?: string; revised?: string }> = {
  equal: {},
  changed: { original: 'red.subtle/40', revised: 'green.subtle/40' },
  deleted: { original: 'red.subtle' },
  inserted: { revised: 'green.subtle' },
};

function Pieces({ pieces, side, current }: { pieces: Piece[]; side: 'original' | 'revised'; current: number | null }) {
  return (
    <>
      {pieces.map((p, i) => {
        if (p.change === null) return <span key={i}>{p.text}</span>;
        const isCurrent = p.change === current;
        const common = {
          'data-change': p.change,
          'data-current': isCurrent || undefined,
          style: isCurrent ? { outline: '2px solid var(--chakra-colors-blue-solid)', outlineOffset: '1px', borderRadius: '2px' } : undefined,
        };
        if (p.marker)
          return (
            <Box as="span" key={i} {...common} display="inline-block" w="2px" h="1em" verticalAlign="text-bottom" bg={side === 'original' ? 'green.solid' : 'red.solid'} data-testid="diff-marker" />
          );
        return side === 'original' ? (
          <Box as="del" key={i} {...common} bg="red.muted" color="red.fg" textDecorationThickness="1px" borderRadius="2px" data-testid="diff-del">
            {p.text}
          </Box>
        ) : (
          <Box as="ins" key={i} {...common} bg="green.muted" color="green.fg" textDecoration="none" borderRadius="2px" data-testid="diff-ins">
            {p.text}
          </Box>
        );
      })}
    </>
  );
}

const Cell = memo(function Cell({ row, side, current }: { row: SideBySideRow; side: 'original' | 'revised'; current: number | null }) {
  const pieces = row[side];
  const paragraph = side === 'original' ? row.originalParagraph : row.revisedParagraph;
  return (
    <Flex gap="2" px="3" py="1.5" bg={ROW_BG[row.status][side]} minH="8" data-testid={`diff-${side}`} data-status={row.status}>
      <Text as="span" fontSize="xs" color="fg.subtle" minW="7" textAlign="right" pt="0.5" userSelect="none" aria-hidden>
        {paragraph === null ? '' : paragraph + 1}
      </Text>
      <Text as="div" flex="1" minW="0" whiteSpace="pre-wrap" wordBreak="break-word" lineHeight="tall">
        {pieces ? <Pieces pieces={pieces} side={side} current={current} /> : null}
      </Text>
    </Flex>
  );
});

export function DiffView({ result }: { result: CompareResult }) {
  const { t } = useLingui();
  const rows = useMemo(() => sideBySide(result), [result]);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const [current, setCurrent] = useState<number | null>(null);
  const items = useMemo(() => foldEqualRuns(rows, 1, expanded), [rows, expanded]);
  const root = useRef<HTMLDivElement>(null);
  const total = result.changes.length;
  const stats = result.stats ?? { equal: 0, changed: 0, deleted: 0, inserted: 0, changes: total };

  const step = useCallback((direction: 1 | -1) => setCurrent((c) => stepChange(total, c, direction)), [total]);

  useEffect(() => {
    if (current === null) return;
    const el = root.current?.querySelector(`[data-change="${current}"]`);
    el?.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
  }, [current]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!root.current || root.current.closest('[hidden]')) return;
      const target = e.target as HTMLElement | null;
      const typing = !!target && (target.tagName === 'TEXTAREA' || target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.isContentEditable);
      const plain = !typing && !e.altKey && !e.ctrlKey && !e.metaKey;
      let handled = true;
      if ((e.altKey && e.key === 'ArrowDown') || (plain && e.key === 'j')) step(1);
      else if ((e.altKey && e.key === 'ArrowUp') || (plain && e.key === 'k')) step(-1);
      else handled = false;
      if (handled) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [step]);

  const change = current === null ? null : result.changes[current];

  return (
    <Stack gap="3" ref={root} data-testid="diff-view">
      <Flex gap="3" align="center" wrap="wrap" bg="panel" borderWidth="1px" borderRadius="xl" p="3" position="sticky" top="0" zIndex="1">
        <HStack gap="2" wrap="wrap" data-testid="diff-stats">
          <Badge colorPalette={total ? 'blue' : 'green'} size="lg" data-testid="diff-change-count">
            <Trans>共 {total} 处差异</Trans>
          </Badge>
          <Badge colorPalette="orange" variant="subtle">
            <Trans>修改 {stats.changed} 段</Trans>
          </Badge>
          <Badge colorPalette="green" variant="subtle">
            <Trans>新增 {stats.inserted} 段</Trans>
          </Badge>
          <Badge colorPalette="red" variant="subtle">
            <Trans>删除 {stats.deleted} 段</Trans>
          </Badge>
        </HStack>
        <Box flex="1" />
        <Text fontSize="sm" color="fg.muted" display={{ base: 'none', md: 'block' }}>
          <Kbd size="sm">Alt</Kbd>+<Kbd size="sm">↓</Kbd>/<Kbd size="sm">↑</Kbd> <Trans>切换差异</Trans>
        </Text>
        <Text fontSize="sm" minW="20" textAlign="right" data-testid="diff-position" aria-live="polite">
          {current === null ? <Trans>未选择</Trans> : <Trans>第 {current + 1} / {total} 处</Trans>}
        </Text>
        <IconButton size="sm" variant="outline" aria-label={t`上一处差异`} onClick={() => step(-1)} disabled={!total} data-testid="diff-prev">
          <ChevronUp />
        </IconButton>
        <IconButton size="sm" variant="outline" aria-label={t`下一处差异`} onClick={() => step(1)} disabled={!total} data-testid="diff-next">
          <ChevronDown />
        </IconButton>
      </Flex>
      {change ? (
        <Text fontSize="sm" color="fg.muted" data-testid="diff-current-summary">
          {change.type === 'insert' ? (
            <Trans>新增：“{change.revised_fragment}”</Trans>
          ) : change.type === 'delete' ? (
            <Trans>删除：“{change.original_fragment}”</Trans>
          ) : (
            <Trans>
              “{change.original_fragment}” 改为 “{change.revised_fragment}”
            </Trans>
          )}
        </Text>
      ) : null}

      <Box bg="panel" borderWidth="1px" borderRadius="xl" overflow="hidden">
        <Grid templateColumns="1fr 1fr" borderBottomWidth="1px" bg="bg.muted" fontSize="sm" fontWeight="semibold">
          <Text px="3" py="2" truncate data-testid="diff-original-name">
            {result.original_name ?? t`原文档`}
          </Text>
          <Text px="3" py="2" truncate borderLeftWidth="1px" data-testid="diff-revised-name">
            {result.revised_name ?? t`修改后文档`}
          </Text>
        </Grid>
        {total === 0 ? (
          <Text textAlign="center" py="8" color="fg.muted" data-testid="diff-identical">
            <Trans>两份文档的文字完全相同</Trans>
          </Text>
        ) : null}
        {items.map((item) =>
          item.kind === 'fold' ? (
            <Flex key={`fold-${item.from}`} justify="center" py="1" bg="bg.subtle" borderTopWidth="1px">
              <Button size="xs" variant="ghost" onClick={() => setExpanded(new Set(expanded).add(item.from))} data-testid="diff-fold">
                <Trans>展开 {item.count} 段相同内容</Trans>
              </Button>
            </Flex>
          ) : (
            <Grid key={item.row.index} templateColumns="1fr 1fr" borderTopWidth="1px" data-testid="diff-row" data-status={item.row.status}>
              <Cell row={item.row} side="original" current={item.row.changes.includes(current ?? -1) ? current : null} />
              <Box borderLeftWidth="1px">
                <Cell row={item.row} side="revised" current={item.row.changes.includes(current ?? -1) ? current : null} />
              </Box>
            </Grid>
          ),
        )}
      </Box>
    </Stack>
  );
}

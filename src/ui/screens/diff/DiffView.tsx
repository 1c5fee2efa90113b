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

const ROWS_PER_PAGE = 200;

// Thousands of rows: plain elements styled once by the table (below), not a styled component per cell.
const TABLE_CSS = {
  '& .dv-row': { display: 'grid', gridTemplateColumns: '1fr 1fr', borderTopWidth: '1px', borderColor: 'border' },
  '& .dv-cell': { display: 'flex', gap: '2', px: '3', py: '1.5', minH: '8', minW: '0' },
  '& .dv-cell + .dv-cell': { borderLeftWidth: '1px', borderColor: 'border' },
  '& .dv-no': { fontSize: 'xs', color: 'fg.subtle', minW: '7', textAlign: 'right', pt: '0.5', userSelect: 'none' },
  '& .dv-text': { flex: '1', minW: '0', whiteSpace: 'pre-wrap', wordBreak: 'break-word', lineHeight: 'tall' },
  '& .dv-row[data-status="changed"] > .dv-original': { bg: 'red.subtle/40' },
  '& .dv-row[data-status="changed"] > .dv-revised': { bg: 'green.subtle/40' },
  '& .dv-row[data-status="deleted"] > .dv-original': { bg: 'red.subtle' },
  '& .dv-row[data-status="inserted"] > .dv-revised': { bg: 'green.subtle' },
  '& del': { bg: 'red.muted', color: 'red.fg', textDecorationThickness: '1px', borderRadius: '2px' },
  '& ins': { bg: 'green.muted', color: 'green.fg', textDecoration: 'none', borderRadius: '2px' },
  '& .dv-marker': { display: 'inline-block', w: '2px', h: '1em', verticalAlign: 'text-bottom' },
  '& .dv-original .dv-marker': { bg: 'green.solid' },
  '& .dv-revised .dv-marker': { bg: 'red.solid' },
  '& [data-current]': { outline: '2px solid', outlineColor: 'blue.solid', outlineOffset: '1px', borderRadius: '2px' },
} as const;

function Pieces({ pieces, side, current }: { pieces: Piece[]; side: 'original' | 'revised'; current: number | null }) {
  return (
    <>
      {pieces.map((p, i) => {
        if (p.change === null) return <span key={i}>{p.text}</span>;
        const attrs = { 'data-change': p.change, 'data-current': p.change === current || undefined };
        if (p.marker) return <span key={i} className="dv-marker" data-testid="diff-marker" {...attrs} />;
        return side === 'original' ? (
          <del key={i} data-testid="diff-del" {...attrs}>
            {p.text}
          </del>
        ) : (
          <ins key={i} data-testid="diff-ins" {...attrs}>
            {p.text}
          </ins>
        );
      })}
    </>
  );
}

function Cell({ row, side, current }: { row: SideBySideRow; side: 'original' | 'revised'; current: number | null }) {
  const pieces = row[side];
  const paragraph = side === 'original' ? row.originalParagraph : row.revisedParagraph;
  return (
    <div className={`dv-cell dv-${side}`} data-testid={`diff-${side}`} data-status={row.status}>
      <span className="dv-no" aria-hidden>
        {paragraph === null ? '' : paragraph + 1}
      </span>
      <div className="dv-text">{pieces ? <Pieces pieces={pieces} side={side} current={current} /> : null}</div>
    </div>
  );
}

/** One aligned row; re-renders only when the current difference enters or leaves it. */
const Row = memo(function Row({ row, current }: { row: SideBySideRow; current: number | null }) {
  return (
    <div className="dv-row" data-testid="diff-row" data-status={row.status}>
      <Cell row={row} side="original" current={current} />
      <Cell row={row} side="revised" current={current} />
    </div>
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

  // Long documents render ROWS_PER_PAGE rows at a time: more as the end comes into view, or as far as
  // the current difference when navigating.
  const [limit, setLimit] = useState(ROWS_PER_PAGE);
  const itemOfChange = useMemo(() => {
    const at = new Map<number, number>();
    items.forEach((item, k) => {
      if (item.kind === 'row') for (const c of item.row.changes) at.set(c, k);
    });
    return at;
  }, [items]);
  const more = items.length - limit;
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (more <= 0 || !sentinel.current || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setLimit((l) => l + ROWS_PER_PAGE);
      },
      { rootMargin: '600px' },
    );
    observer.observe(sentinel.current);
    return () => observer.disconnect();
  }, [more]);

  // scroll to a newly chosen difference once its row is rendered
  // (only a new choice scrolls: expanding a fold changes the rows, not the choice)
  const scrollPending = useRef(false);
  const itemOfChangeNow = useRef(itemOfChange);
  useEffect(() => {
    itemOfChangeNow.current = itemOfChange;
  }, [itemOfChange]);
  useEffect(() => {
    if (current === null) return;
    scrollPending.current = true;
    const at = itemOfChangeNow.current.get(current);
    if (at !== undefined) setLimit((l) => (at >= l ? at + ROWS_PER_PAGE : l));
  }, [current]);
  useEffect(() => {
    if (current === null || !scrollPending.current) return;
    const el = root.current?.querySelector(`[data-change="${current}"]`);
    if (!el) return;
    scrollPending.current = false;
    el.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
  }, [current, limit]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!root.current || root.current.closest('[hidden]')) return;
      const target = e.target as HTMLElement | null;
      const typing =
        !!target &&
        (target.tagName === 'TEXTAREA' ||
          target.tagName === 'INPUT' ||
          target.tagName === 'SELECT' ||
          target.isContentEditable);
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
      <Flex
        gap="3"
        align="center"
        wrap="wrap"
        bg="panel"
        borderWidth="1px"
        borderRadius="xl"
        p="3"
        position="sticky"
        top="0"
        zIndex="1"
      >
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
          {current === null ? (
            <Trans>未选择</Trans>
          ) : (
            <Trans>
              第 {current + 1} / {total} 处
            </Trans>
          )}
        </Text>
        <IconButton
          size="sm"
          variant="outline"
          aria-label={t`上一处差异`}
          onClick={() => step(-1)}
          disabled={!total}
          data-testid="diff-prev"
        >
          <ChevronUp />
        </IconButton>
        <IconButton
          size="sm"
          variant="outline"
          aria-label={t`下一处差异`}
          onClick={() => step(1)}
          disabled={!total}
          data-testid="diff-next"
        >
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

      <Box bg="panel" borderWidth="1px" borderRadius="xl" overflow="hidden" css={TABLE_CSS}>
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
        {items.slice(0, limit).map((item) =>
          item.kind === 'fold' ? (
            <Flex key={`fold-${item.from}`} justify="center" py="1" bg="bg.subtle" borderTopWidth="1px">
              <Button
                size="xs"
                variant="ghost"
                onClick={() => setExpanded(new Set(expanded).add(item.from))}
                data-testid="diff-fold"
              >
                <Trans>展开 {item.count} 段相同内容</Trans>
              </Button>
            </Flex>
          ) : (
            <Row
              key={item.row.index}
              row={item.row}
              current={current !== null && item.row.changes.includes(current) ? current : null}
            />
          ),
        )}
        {more > 0 ? (
          <Flex ref={sentinel} justify="center" py="2" borderTopWidth="1px">
            <Button
              size="xs"
              variant="ghost"
              onClick={() => setLimit((l) => l + ROWS_PER_PAGE)}
              data-testid="diff-more"
            >
              <Trans>显示后面 {more} 行</Trans>
            </Button>
          </Flex>
        ) : null}
      </Box>
    </Stack>
  );
}

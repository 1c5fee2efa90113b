// One finding in the side list: original, suggestions, reason, and the actions on it.
import { memo } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Button, Flex, HStack, Menu, Portal, Stack, Text, IconButton } from '@chakra-ui/react';
import { Check, ExternalLink, EyeOff, MoreHorizontal } from 'lucide-react';
import type { Finding } from '../../machines/proofreadJob';
import { paletteOf } from './categories';
import { Verbatim } from '../layout/Verbatim';
import { FindingMessage, levelLabel, localeOf } from './FindingMessage';

interface Props {
  finding: Finding;
  label: string;
  selected: boolean;
  context: string;
  /** one stable handler for every card, so unchanged cards are not rendered again while typing */
  onAction(action: FindingAction, finding: Finding, suggestion?: string): void;
  /**
   * A text that cannot be changed here (a web page): suggestions are shown, not applied, and no accept or ignore is
   * offered; `source` opens the place in the original (the page scrolled to the text).
   */
  report?: { source?: string; sourceLabel: string };
}

export type FindingAction = 'select' | 'accept' | 'accept all' | 'ignore' | 'ignore all' | 'add word' | 'false alarm';

export const FindingCard = memo(function FindingCard(props: Props) {
  const { t, i18n } = useLingui();
  const { finding: f, selected } = props;
  const level = levelLabel(f.level, localeOf(i18n.locale));
  const act = (action: FindingAction, suggestion?: string) => props.onAction(action, f, suggestion);
  const palette = paletteOf(f.category);
  return (
    <Box
      data-testid="finding-item"
      data-original={f.original}
      data-selected={selected || undefined}
      borderWidth="1px"
      borderColor={selected ? `${palette}.solid` : 'border'}
      borderLeftWidth="3px"
      borderLeftColor={`${palette}.solid`}
      borderRadius="md"
      p="3"
      bg={selected ? `${palette}.subtle/40` : undefined}
      cursor="pointer"
      onClick={() => act('select')}
    >
      <Flex gap="2" align="center" wrap="wrap">
        <Text
          as="span"
          textDecoration="line-through"
          color={`${palette}.fg`}
          fontWeight="medium"
          data-testid="finding-original"
        >
          <Verbatim>{f.original}</Verbatim>
        </Text>
        {f.suggestions.length ? (
          <Text as="span" color="fg.muted">
            →
          </Text>
        ) : null}
        {props.report
          ? f.suggestions.slice(0, 4).map((s) => (
              <Text key={s} as="span" color="green.fg" fontWeight="medium" data-testid="finding-suggestion">
                {s ? <Verbatim>{s}</Verbatim> : t`（删除）`}
              </Text>
            ))
          : null}
        {(props.report ? [] : f.suggestions.slice(0, 4)).map((s) => (
          <Button
            key={s}
            size="xs"
            variant="subtle"
            colorPalette="green"
            data-testid="finding-suggestion"
            onClick={(e) => {
              e.stopPropagation();
              act('accept', s);
            }}
          >
            {s ? <Verbatim>{s}</Verbatim> : t`（删除）`}
          </Button>
        ))}
      </Flex>
      {selected ? (
        <Stack gap="2" mt="2">
          <Text fontSize="sm" data-testid="finding-message">
            <FindingMessage finding={f} />
          </Text>
          <Text fontSize="xs" color="fg.muted">
            <Trans>类别：{props.label}</Trans>
            {level ? <span data-testid="finding-level"> · {level}</span> : null} · <Trans>原文：</Trans>
            <Verbatim>…{props.context}…</Verbatim>
          </Text>
          <HStack gap="1" wrap="wrap" onClick={(e) => e.stopPropagation()}>
            {props.report?.source ? (
              <Button asChild size="xs" variant="outline" data-testid="finding-source">
                <a href={props.report.source} target="_blank" rel="noopener noreferrer">
                  <ExternalLink size={14} />
                  {props.report.sourceLabel}
                </a>
              </Button>
            ) : null}
            {f.suggestions.length && !props.report ? (
              <Button size="xs" colorPalette="blue" onClick={() => act('accept')} data-testid="finding-accept">
                <Check size={14} />
                <Trans>采纳</Trans>
              </Button>
            ) : null}
            {props.report ? null : (
              <Button size="xs" variant="outline" onClick={() => act('ignore')} data-testid="finding-ignore">
                <EyeOff size={14} />
                <Trans>忽略</Trans>
              </Button>
            )}
            <Menu.Root>
              <Menu.Trigger asChild>
                <IconButton size="xs" variant="ghost" aria-label={t`更多操作`} data-testid="finding-more">
                  <MoreHorizontal />
                </IconButton>
              </Menu.Trigger>
              <Portal>
                <Menu.Positioner>
                  <Menu.Content>
                    {f.suggestions.length && !props.report ? (
                      <Menu.Item value="accept-all" onSelect={() => act('accept all')} data-testid="finding-accept-all">
                        <Trans>全部采纳此类</Trans>
                      </Menu.Item>
                    ) : null}
                    {props.report ? null : (
                      <Menu.Item value="ignore-all" onSelect={() => act('ignore all')} data-testid="finding-ignore-all">
                        <Trans>全部忽略</Trans>
                      </Menu.Item>
                    )}
                    <Menu.Item value="add-word" onSelect={() => act('add word')} data-testid="finding-add-word">
                      <Trans>加入我的词库</Trans>
                    </Menu.Item>
                    <Menu.Item
                      value="false-alarm"
                      onSelect={() => act('false alarm')}
                      data-testid="finding-false-alarm"
                    >
                      <Trans>报告误报</Trans>
                    </Menu.Item>
                  </Menu.Content>
                </Menu.Positioner>
              </Portal>
            </Menu.Root>
          </HStack>
        </Stack>
      ) : null}
    </Box>
  );
});

// A format report: counts, a filter by severity, the violations grouped by where they are (page
// settings first, then paragraph by paragraph with the paragraph's element and a snippet), each with
// what the template expects and what the document has; beside it the elements that were recognised.
import { useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Box, Button, EmptyState, Flex, Grid, Group, HStack, Stack, Text, VStack } from '@chakra-ui/react';
import { CircleCheck } from 'lucide-react';
import type { FormatReport, FormatViolation } from '../../../machines/formatCalls';

type Filter = 'all' | 'error' | 'warning';

export interface ViolationGroup {
  /** null: page-level rules (paper, margins, page numbers) */
  paragraph: number | null;
  /** the element recognised at that paragraph (label), if any */
  element: string | null;
  excerpt: string;
  violations: FormatViolation[];
}

/** Violations grouped by location, in document order (page-level first). */
export function groupViolations(report: FormatReport, filter: Filter = 'all'): ViolationGroup[] {
  const elementAt = new Map(report.elements.map((e) => [e.paragraph, e]));
  const groups = new Map<number | null, ViolationGroup>();
  for (const v of report.violations) {
    if (filter !== 'all' && v.severity !== filter) continue;
    let g = groups.get(v.paragraph);
    if (!g) {
      const e = v.paragraph === null ? undefined : elementAt.get(v.paragraph);
      g = { paragraph: v.paragraph, element: e?.label ?? null, excerpt: e?.excerpt ?? v.excerpt, violations: [] };
      groups.set(v.paragraph, g);
    }
    g.violations.push(v);
  }
  return [...groups.values()].sort((a, b) => (a.paragraph ?? -1) - (b.paragraph ?? -1));
}

function ViolationItem({ v }: { v: FormatViolation }) {
  return (
    <Box
      borderLeftWidth="3px"
      borderColor={v.severity === 'error' ? 'red.solid' : 'orange.solid'}
      pl="3"
      py="1"
      data-testid="format-violation"
      data-rule={v.rule}
      data-element={v.element}
      data-severity={v.severity}
    >
      <HStack gap="2" mb="1" wrap="wrap">
        <Badge size="sm" colorPalette={v.severity === 'error' ? 'red' : 'orange'}>
          {v.severity === 'error' ? <Trans>错误</Trans> : <Trans>建议</Trans>}
        </Badge>
        <Text fontSize="sm" fontWeight="medium">
          {v.label}
        </Text>
        <Text fontSize="sm" color="fg.muted" data-testid="violation-message">
          {v.message}
        </Text>
      </HStack>
      <Grid templateColumns="auto 1fr" columnGap="3" rowGap="0.5" fontSize="sm">
        <Text color="fg.muted">
          <Trans>应为</Trans>
        </Text>
        <Text color="green.fg" data-testid="violation-expected">
          {v.expected}
        </Text>
        <Text color="fg.muted">
          <Trans>实际</Trans>
        </Text>
        <Text color="red.fg" data-testid="violation-found">
          {v.found}
        </Text>
      </Grid>
    </Box>
  );
}

export function FormatReportView({ report, fileName }: { report: FormatReport; fileName: string }) {
  const { t } = useLingui();
  const [filter, setFilter] = useState<Filter>('all');
  const errors = report.violations.filter((v) => v.severity === 'error').length;
  const warnings = report.violations.length - errors;
  const groups = useMemo(() => groupViolations(report, filter), [report, filter]);
  const countAt = useMemo(() => {
    const m = new Map<number, number>();
    for (const v of report.violations) if (v.paragraph !== null) m.set(v.paragraph, (m.get(v.paragraph) ?? 0) + 1);
    return m;
  }, [report]);
  const jump = (paragraph: number) => {
    setFilter('all');
    requestAnimationFrame(() =>
      document.getElementById(`format-p-${paragraph}`)?.scrollIntoView({ block: 'start', behavior: 'smooth' }),
    );
  };

  return (
    <Flex gap="5" direction={{ base: 'column', lg: 'row' }} align="flex-start" data-testid="format-report">
      <Stack flex="1" minW="0" gap="4" w="full">
        <Flex gap="3" align="center" wrap="wrap" bg="panel" borderWidth="1px" borderRadius="xl" p="4">
          <Stack gap="0.5" flex="1" minW="0">
            <Text fontWeight="semibold" truncate>
              {fileName}
            </Text>
            <Text fontSize="sm" color="fg.muted">
              <Trans>
                {report.template_name} · 共 {report.paragraph_count} 段，识别到 {report.elements.length} 个要素
              </Trans>
            </Text>
          </Stack>
          <HStack gap="2">
            <Badge colorPalette={errors ? 'red' : 'green'} size="lg" data-testid="format-error-count">
              <Trans>错误 {errors}</Trans>
            </Badge>
            <Badge colorPalette={warnings ? 'orange' : 'green'} size="lg" data-testid="format-warning-count">
              <Trans>建议 {warnings}</Trans>
            </Badge>
          </HStack>
        </Flex>

        {report.violations.length === 0 ? (
          <EmptyState.Root bg="panel" borderWidth="1px" borderRadius="xl" data-testid="format-clean">
            <EmptyState.Content>
              <EmptyState.Indicator color="green.fg">
                <CircleCheck />
              </EmptyState.Indicator>
              <VStack textAlign="center">
                <EmptyState.Title as="h2">
                  <Trans>未发现格式问题</Trans>
                </EmptyState.Title>
                <EmptyState.Description>
                  <Trans>文档符合「{report.template_name}」的各项检查。</Trans>
                </EmptyState.Description>
              </VStack>
            </EmptyState.Content>
          </EmptyState.Root>
        ) : (
          <>
            <Group attached role="radiogroup" aria-label={t`按级别筛选`}>
              {(
                [
                  ['all', t`全部 ${report.violations.length}`],
                  ['error', t`错误 ${errors}`],
                  ['warning', t`建议 ${warnings}`],
                ] as const
              ).map(([key, label]) => (
                <Button
                  key={key}
                  size="sm"
                  variant={filter === key ? 'solid' : 'outline'}
                  colorPalette={filter === key ? 'blue' : undefined}
                  role="radio"
                  aria-checked={filter === key}
                  onClick={() => setFilter(key)}
                  data-testid={`format-filter-${key}`}
                >
                  {label}
                </Button>
              ))}
            </Group>
            <Stack gap="3" data-testid="format-violations">
              {groups.map((g) => (
                <Box
                  key={g.paragraph ?? 'page'}
                  id={g.paragraph === null ? 'format-page' : `format-p-${g.paragraph}`}
                  bg="panel"
                  borderWidth="1px"
                  borderRadius="xl"
                  p="4"
                  data-testid="format-group"
                  data-paragraph={g.paragraph ?? 'page'}
                >
                  <Stack gap="1" mb="3">
                    <HStack gap="2" wrap="wrap">
                      <Text fontWeight="semibold" data-testid="format-group-location">
                        {g.paragraph === null ? <Trans>页面设置</Trans> : <Trans>第 {g.paragraph + 1} 段</Trans>}
                      </Text>
                      {g.element ? (
                        <Badge variant="outline" size="sm">
                          {g.element}
                        </Badge>
                      ) : null}
                    </HStack>
                    {g.paragraph !== null && g.excerpt ? (
                      <Text
                        fontSize="sm"
                        color="fg.muted"
                        bg="bg.muted"
                        borderRadius="md"
                        px="2"
                        py="1"
                        data-testid="format-group-excerpt"
                      >
                        “{g.excerpt}”
                      </Text>
                    ) : null}
                  </Stack>
                  <Stack gap="3">
                    {g.violations.map((v, i) => (
                      <ViolationItem key={`${v.rule}-${i}`} v={v} />
                    ))}
                  </Stack>
                </Box>
              ))}
            </Stack>
          </>
        )}
      </Stack>

      <Stack
        w={{ base: 'full', lg: '300px' }}
        flexShrink={0}
        gap="2"
        bg="panel"
        borderWidth="1px"
        borderRadius="xl"
        p="4"
        data-testid="format-elements"
      >
        <Text fontWeight="semibold">
          <Trans>识别到的要素</Trans>
        </Text>
        {report.elements.length === 0 ? (
          <Text fontSize="sm" color="fg.muted">
            <Trans>未识别到公文要素</Trans>
          </Text>
        ) : (
          <Stack gap="1" as="ol" maxH={{ lg: 'calc(100vh - 260px)' }} overflowY="auto">
            {report.elements.map((e) => {
              const n = countAt.get(e.paragraph) ?? 0;
              const line = (
                <>
                  <Text as="span" color="fg.muted" minW="8" textAlign="right">
                    {e.paragraph + 1}
                  </Text>
                  <Text as="span" fontWeight="medium">
                    {e.label}
                  </Text>
                  <Text as="span" color="fg.muted" truncate flex="1" textAlign="left">
                    {e.excerpt}
                  </Text>
                </>
              );
              return (
                <Box
                  as="li"
                  key={e.paragraph}
                  listStyleType="none"
                  data-testid="format-element"
                  data-element={e.element}
                >
                  {n ? (
                    <Button
                      variant="ghost"
                      size="xs"
                      w="full"
                      justifyContent="flex-start"
                      h="auto"
                      py="1"
                      onClick={() => jump(e.paragraph)}
                      title={e.excerpt}
                    >
                      {line}
                      <Badge size="xs" colorPalette="red">
                        {n}
                      </Badge>
                    </Button>
                  ) : (
                    <Flex gap="2" px="2.5" py="1" fontSize="xs" title={e.excerpt}>
                      {line}
                    </Flex>
                  )}
                </Box>
              );
            })}
          </Stack>
        )}
      </Stack>
    </Flex>
  );
}

// The metrics tab of /team (root and admins): the team's checks, characters and findings over a range of days, as
// a chart (uPlot, loaded with this tab only) and a table per member (findings by category, accepted and ignored),
// with a CSV export.
import { useEffect, useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Box, Button, Field, Flex, Input, SimpleGrid, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { BarChart3, Download } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { metrics, type Metrics } from '../../../machines/teamCalls';
import { EmptyPanel } from '../../layout/EmptyPanel';
import { saveFile } from '../../save-file';
import { Verbatim } from '../../layout/Verbatim';
import { STACK_ON_PHONE } from '../../layout/stacked-table';

const DAY_MS = 86_400_000;
const day = (d: Date) => d.toISOString().slice(0, 10);

/** The metrics as CSV (one row per member, then one per day), with a BOM so spreadsheet programs read UTF-8. */
export function metricsCsv(m: Metrics, labels: { member: string; day: string }): string {
  const cell = (v: string | number) => (/[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
  const categories = [...new Set((m.members ?? []).flatMap((x) => Object.keys(x.categories)))].sort();
  const lines = [
    [labels.member, 'uid', 'checks', 'characters', 'findings', 'documents', 'accepted', 'ignored', ...categories],
    ...(m.members ?? []).map((x) => [
      x.name,
      x.uid,
      x.check_count,
      x.word_count,
      x.issue_count,
      x.document_count,
      x.accepted,
      x.ignored,
      ...categories.map((c) => x.categories[c] ?? 0),
    ]),
    [],
    [labels.day, 'checks', 'characters', 'findings'],
    ...m.daily.map((d) => [d.date, d.check_count, d.word_count, d.issue_count]),
  ];
  return '\ufeff' + lines.map((l) => l.map(cell).join(',')).join('\n') + '\n';
}

export default function MetricsTab() {
  const { t, i18n } = useLingui();
  const [end, setEnd] = useState(() => day(new Date()));
  const [start, setStart] = useState(() => day(new Date(Date.now() - 29 * DAY_MS)));
  const data = useQuery({ queryKey: ['enterprise', 'metrics', start, end], queryFn: () => metrics(start, end) });
  const n = (v: number) => i18n.number(v);

  return (
    <Stack gap="4" data-testid="team-metrics">
      <Flex gap="3" align="flex-end" wrap="wrap">
        <Field.Root w="auto">
          <Field.Label>
            <Trans>开始日期</Trans>
          </Field.Label>
          <Input
            size="sm"
            type="date"
            value={start}
            max={end}
            onChange={(e) => e.target.value && setStart(e.target.value)}
          />
        </Field.Root>
        <Field.Root w="auto">
          <Field.Label>
            <Trans>结束日期</Trans>
          </Field.Label>
          <Input
            size="sm"
            type="date"
            value={end}
            min={start}
            onChange={(e) => e.target.value && setEnd(e.target.value)}
          />
        </Field.Root>
        <Button
          size="sm"
          variant="outline"
          disabled={!data.data}
          onClick={() =>
            data.data &&
            saveFile({
              blob: new Blob([metricsCsv(data.data, { member: t`成员`, day: t`日期` })], { type: 'text/csv' }),
              name: t`团队使用数据_${start}_${end}.csv`,
            })
          }
        >
          <Download size={14} aria-hidden />
          <Trans>导出 CSV</Trans>
        </Button>
      </Flex>
      {data.isError ? (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>
            <Trans>无法加载使用数据（日期范围最长 366 天）</Trans>
          </Alert.Title>
        </Alert.Root>
      ) : data.isPending ? (
        <Skeleton h="48" />
      ) : (
        <>
          <SimpleGrid columns={{ base: 2, md: 4 }} gap="3">
            <Figure label={t`校对次数`} value={n(data.data.check_count)} testId="metric-checks" />
            <Figure label={t`校对字数`} value={n(data.data.word_count)} testId="metric-words" />
            <Figure label={t`发现问题`} value={n(data.data.issue_count)} testId="metric-issues" />
            <Figure label={t`活跃成员`} value={n(data.data.active_members)} testId="metric-members" />
          </SimpleGrid>
          {data.data.check_count === 0 ? (
            <EmptyPanel
              testId="team-metrics-empty"
              icon={<BarChart3 />}
              title={<Trans>这段时间团队还没有校对记录</Trans>}
            />
          ) : (
            <>
              <DailyChart daily={data.data.daily} labels={{ day: t`日期`, words: t`校对字数`, issues: t`发现问题` }} />
              <Box bg="panel" borderWidth="1px" borderRadius="xl" overflowX="auto">
                <Table.Root
                  css={STACK_ON_PHONE}
                  size="sm"
                  aria-label={t`成员使用数据`}
                  data-testid="metric-members-table"
                >
                  <Table.Header>
                    <Table.Row>
                      <Table.ColumnHeader>
                        <Trans>成员</Trans>
                      </Table.ColumnHeader>
                      <Table.ColumnHeader textAlign="end">
                        <Trans>校对次数</Trans>
                      </Table.ColumnHeader>
                      <Table.ColumnHeader textAlign="end">
                        <Trans>校对字数</Trans>
                      </Table.ColumnHeader>
                      <Table.ColumnHeader textAlign="end">
                        <Trans>文件</Trans>
                      </Table.ColumnHeader>
                      <Table.ColumnHeader textAlign="end">
                        <Trans>发现问题</Trans>
                      </Table.ColumnHeader>
                      <Table.ColumnHeader textAlign="end">
                        <Trans>采纳 / 忽略</Trans>
                      </Table.ColumnHeader>
                    </Table.Row>
                  </Table.Header>
                  <Table.Body>
                    {(data.data.members ?? []).map((m) => (
                      <Table.Row key={m.uid} data-testid="metric-member-row">
                        <Table.Cell data-label={t`成员`}>
                          <Verbatim>{m.name}</Verbatim>
                        </Table.Cell>
                        <Table.Cell data-label={t`校对次数`} textAlign="end">
                          {n(m.check_count)}
                        </Table.Cell>
                        <Table.Cell data-label={t`校对字数`} textAlign="end">
                          {n(m.word_count)}
                        </Table.Cell>
                        <Table.Cell data-label={t`文件`} textAlign="end">
                          {n(m.document_count)}
                        </Table.Cell>
                        <Table.Cell data-label={t`发现问题`} textAlign="end">
                          {n(m.issue_count)}
                        </Table.Cell>
                        <Table.Cell data-label={t`采纳 / 忽略`} textAlign="end">
                          {n(m.accepted)} / {n(m.ignored)}
                        </Table.Cell>
                      </Table.Row>
                    ))}
                  </Table.Body>
                </Table.Root>
              </Box>
            </>
          )}
        </>
      )}
    </Stack>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Box bg="panel" borderWidth="1px" borderRadius="xl" p="4">
      <Text fontSize="sm" color="fg.muted">
        {label}
      </Text>
      <Text fontSize="2xl" fontWeight="semibold" data-testid={testId}>
        {value}
      </Text>
    </Box>
  );
}

/** Characters and findings per day as bars (uPlot); the numbers are also in the CSV export. */
function DailyChart({
  daily,
  labels,
}: {
  daily: Metrics['daily'];
  labels: { day: string; words: string; issues: string };
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const x = daily.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000);
    const bars = uPlot.paths.bars ? uPlot.paths.bars({ size: [0.6, 40] }) : undefined;
    const css = getComputedStyle(el);
    const words = css.getPropertyValue('--chakra-colors-blue-solid').trim() || '#3182ce';
    const issues = css.getPropertyValue('--chakra-colors-orange-solid').trim() || '#dd6b20';
    const ink = css.getPropertyValue('--chakra-colors-fg-muted').trim() || '#71717a';
    const counts = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 100_000, 1_000_000];
    const plot = new uPlot(
      {
        width: Math.max(320, el.clientWidth),
        height: 220,
        scales: { x: { time: true }, issues: { auto: true } },
        series: [
          { label: labels.day },
          { label: labels.words, stroke: words, fill: words, paths: bars },
          { label: labels.issues, stroke: issues, width: 2, scale: 'issues' },
        ],
        axes: [
          { stroke: ink },
          { stroke: ink, incrs: counts },
          { scale: 'issues', side: 1, grid: { show: false }, stroke: ink, incrs: counts },
        ],
      },
      [x, daily.map((d) => d.word_count), daily.map((d) => d.issue_count)],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(320, el.clientWidth), height: 220 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [daily, labels.day, labels.words, labels.issues]);
  return <Box ref={box} bg="panel" borderWidth="1px" borderRadius="xl" p="3" data-testid="metric-chart" />;
}

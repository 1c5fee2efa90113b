import { useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Badge,
  Box,
  Button,
  EmptyState,
  Flex,
  Heading,
  HStack,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import { Crown, History, Receipt } from 'lucide-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { commerceKeys, orders, rightDetail, rightRecords, type Right } from '../../../api/commerce';
import { formatDate, LIMIT_TYPES, ORDER_STATUS, productName, rightTitle, yuan } from './labels';
import { formatRight } from '../../format/balance';
import { STACK_ON_PHONE } from '../../layout/stacked-table';

const PAGE_SIZE = 10;

/** /right — My rights: balances with expiry, the history of grants and consumption, and the orders. */
export default function RightScreen() {
  const { t } = useLingui();
  const detail = useQuery({ queryKey: commerceKeys.rightDetail, queryFn: () => rightDetail() });
  const role = detail.data?.role;
  const plan = role === 'free' ? t`免费版` : role === 'root' || role === 'admin' ? t`管理员版` : t`团队版`;

  return (
    <Stack gap="6" maxW="6xl" data-testid="right-screen">
      <Flex
        bg="panel"
        borderWidth="1px"
        borderRadius="xl"
        p={{ base: '5', md: '6' }}
        gap="4"
        align="center"
        wrap="wrap"
      >
        <Stack gap="1" flex="1" minW="0">
          <Text color="fg.muted" fontSize="sm">
            <Trans>当前版本</Trans>
          </Text>
          <Heading as="h2" size="lg" data-testid="right-plan">
            {detail.isPending ? <Skeleton h="6" w="32" /> : plan}
          </Heading>
        </Stack>
        <Button asChild colorPalette="blue">
          <Link href="/upgrade" data-testid="right-upgrade">
            <Crown size={16} aria-hidden />
            <Trans>升级会员</Trans>
          </Link>
        </Button>
      </Flex>

      <Section title={<Trans>权益余额</Trans>}>
        {detail.isError ? (
          <LoadError />
        ) : detail.isPending ? (
          <SimpleGrid columns={{ base: 1, sm: 2, lg: 3 }} gap="3">
            {Array.from({ length: 6 }, (_, i) => (
              <Skeleton key={i} h="20" borderRadius="lg" />
            ))}
          </SimpleGrid>
        ) : (
          <Balances rights={detail.data.rights} />
        )}
      </Section>

      <Section title={<Trans>权益记录</Trans>}>
        <Records />
      </Section>

      <Section title={<Trans>我的订单</Trans>}>
        <Orders />
      </Section>
    </Stack>
  );
}

function Section({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <Box as="section" bg="panel" borderWidth="1px" borderRadius="xl" p={{ base: '4', md: '6' }}>
      <Heading as="h3" size="md" mb="4">
        {title}
      </Heading>
      {children}
    </Box>
  );
}

function LoadError() {
  return (
    <Alert.Root status="error">
      <Alert.Indicator />
      <Alert.Title>
        <Trans>加载失败，请稍后重试</Trans>
      </Alert.Title>
    </Alert.Root>
  );
}

function Balances({ rights }: { rights: Right[] }) {
  const { i18n } = useLingui();
  // rights the user has first; those at 0 stay listed (muted) so the user sees what an upgrade adds
  const sorted = [...rights].sort((a, b) => Number(b.disposable_num > 0) - Number(a.disposable_num > 0));
  return (
    <SimpleGrid columns={{ base: 1, sm: 2, lg: 3 }} gap="3" data-testid="right-balances">
      {sorted.map((r) => {
        const empty = r.disposable_num <= 0;
        return (
          <Box
            key={r.user_right_type}
            borderWidth="1px"
            borderRadius="lg"
            p="4"
            bg={empty ? 'transparent' : 'bg.subtle'}
            data-testid="right-balance"
            data-type={r.user_right_type}
          >
            <HStack justify="space-between" align="start" gap="2">
              <Text fontSize="sm" color="fg.muted" data-testid="right-title">
                {rightTitle(i18n, r.user_right_type, r.title)}
              </Text>
              {LIMIT_TYPES.has(r.user_right_type) ? (
                <Badge variant="outline" size="sm">
                  <Trans>上限</Trans>
                </Badge>
              ) : null}
            </HStack>
            <Text fontSize="xl" fontWeight="semibold" color={empty ? 'fg.subtle' : 'fg'} data-testid="right-amount">
              {formatRight(i18n, r.user_right_type, r.disposable_num)}
            </Text>
            {r.expire_time ? (
              <Text fontSize="xs" color="orange.fg" data-testid="right-expiry">
                <Trans>有效期至 {formatDate(i18n, r.expire_time)}</Trans>
              </Text>
            ) : !empty ? (
              <Text fontSize="xs" color="fg.muted">
                <Trans>长期有效</Trans>
              </Text>
            ) : null}
          </Box>
        );
      })}
    </SimpleGrid>
  );
}

function Pager({
  num,
  total,
  onChange,
  testId,
}: {
  num: number;
  total: number;
  onChange: (n: number) => void;
  testId: string;
}) {
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  if (pages <= 1) return null;
  return (
    <HStack justify="flex-end" mt="3" gap="3" data-testid={testId}>
      <Button size="sm" variant="outline" disabled={num <= 1} onClick={() => onChange(num - 1)}>
        <Trans>上一页</Trans>
      </Button>
      <Text fontSize="sm" data-testid={`${testId}-label`}>
        <Trans>
          第 {num} / {pages} 页
        </Trans>
      </Text>
      <Button size="sm" variant="outline" disabled={num >= pages} onClick={() => onChange(num + 1)}>
        <Trans>下一页</Trans>
      </Button>
    </HStack>
  );
}

function Empty({ icon, title, children }: { icon: ReactNode; title: ReactNode; children?: ReactNode }) {
  return (
    <EmptyState.Root size="sm">
      <EmptyState.Content>
        <EmptyState.Indicator>{icon}</EmptyState.Indicator>
        <EmptyState.Title as="h2">{title}</EmptyState.Title>
        {children}
      </EmptyState.Content>
    </EmptyState.Root>
  );
}

function Records() {
  const { i18n, t } = useLingui();
  const [num, setNum] = useState(1);
  const page = useQuery({
    queryKey: commerceKeys.records(num, PAGE_SIZE),
    queryFn: () => rightRecords(num, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
  if (page.isError) return <LoadError />;
  if (page.isPending) return <Skeleton h="32" />;
  if (page.data.total === 0)
    return (
      <Box data-testid="right-records-empty">
        <Empty icon={<History />} title={<Trans>暂无权益记录</Trans>} />
      </Box>
    );
  return (
    <>
      <Table.ScrollArea>
        <Table.Root css={STACK_ON_PHONE} size="sm" data-testid="right-records">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>
                <Trans>时间</Trans>
              </Table.ColumnHeader>
              <Table.ColumnHeader>
                <Trans>权益</Trans>
              </Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">
                <Trans>变动</Trans>
              </Table.ColumnHeader>
              <Table.ColumnHeader>
                <Trans>说明</Trans>
              </Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {page.data.list.map((r) => (
              <Table.Row key={r.id} data-testid="right-record">
                <Table.Cell data-label={t`时间`} whiteSpace="nowrap">
                  {formatDate(i18n, r.created_at, true)}
                </Table.Cell>
                <Table.Cell data-label={t`权益`}>{rightTitle(i18n, r.user_right_type, r.title)}</Table.Cell>
                <Table.Cell
                  data-label={t`变动`}
                  textAlign="end"
                  color={r.num < 0 ? 'red.fg' : 'green.fg'}
                  fontVariantNumeric="tabular-nums"
                  data-testid="right-record-num"
                >
                  {r.num > 0 ? '+' : '−'}
                  {formatRight(i18n, r.user_right_type, Math.abs(r.num))}
                </Table.Cell>
                <Table.Cell data-label={t`说明`}>{r.reason}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
      <Pager num={num} total={page.data.total} onChange={setNum} testId="right-records-pager" />
    </>
  );
}

function Orders() {
  const { i18n, t } = useLingui();
  const [num, setNum] = useState(1);
  const page = useQuery({
    queryKey: commerceKeys.orders(num, PAGE_SIZE),
    queryFn: () => orders(num, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
  if (page.isError) return <LoadError />;
  if (page.isPending) return <Skeleton h="24" />;
  if (page.data.total === 0)
    return (
      <Box data-testid="right-orders-empty">
        <Empty icon={<Receipt />} title={<Trans>暂无订单</Trans>}>
          <Button asChild size="sm" variant="outline">
            <Link href="/upgrade">
              <Trans>查看套餐</Trans>
            </Link>
          </Button>
        </Empty>
      </Box>
    );
  return (
    <>
      <Table.ScrollArea>
        <Table.Root css={STACK_ON_PHONE} size="sm" data-testid="right-orders">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>
                <Trans>订单号</Trans>
              </Table.ColumnHeader>
              <Table.ColumnHeader>
                <Trans>商品</Trans>
              </Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">
                <Trans>金额</Trans>
              </Table.ColumnHeader>
              <Table.ColumnHeader>
                <Trans>状态</Trans>
              </Table.ColumnHeader>
              <Table.ColumnHeader>
                <Trans>下单时间</Trans>
              </Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {page.data.list.map((o) => (
              <Table.Row key={o.order_no} data-testid="right-order" data-status={o.status}>
                <Table.Cell data-label={t`订单号`} fontFamily="mono" fontSize="xs">
                  {o.order_no}
                </Table.Cell>
                <Table.Cell data-label={t`商品`}>
                  {productName(i18n, undefined, o.product_name)}
                  {o.quantity && o.quantity > 1 ? ` × ${o.quantity}` : ''}
                </Table.Cell>
                <Table.Cell data-label={t`金额`} textAlign="end">
                  {yuan(i18n, o.amount)}
                </Table.Cell>
                <Table.Cell data-label={t`状态`}>
                  <Badge colorPalette={o.status === 'paid' ? 'green' : o.status === 'pending' ? 'orange' : 'gray'}>
                    {ORDER_STATUS[o.status] ? i18n._(ORDER_STATUS[o.status]) : o.status}
                  </Badge>
                </Table.Cell>
                <Table.Cell data-label={t`下单时间`} whiteSpace="nowrap">
                  {formatDate(i18n, o.created_at, true)}
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
      <Pager num={num} total={page.data.total} onChange={setNum} testId="right-orders-pager" />
    </>
  );
}

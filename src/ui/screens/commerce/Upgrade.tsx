import { useMemo, type ReactNode } from 'react';
import { inspectOptions } from '../../../machines/inspect';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Badge,
  Box,
  Button,
  Center,
  CloseButton,
  Dialog,
  EmptyState,
  Heading,
  HStack,
  List,
  Portal,
  QrCode,
  SimpleGrid,
  Skeleton,
  Spinner,
  Stack,
  Text,
} from '@chakra-ui/react';
import { CircleCheck, PackageOpen } from 'lucide-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { Link } from 'wouter';
import { commerceKeys, payConfig, products, type Product } from '../../../api/commerce';
import { livePayment } from '../../../machines/live-payment';
import { formatDate, productName, rightTitle, yuan } from './labels';
import { formatRight } from '../../format/balance';

/** /upgrade (and /pricing): the products from the server, bought with WeChat Pay Native. */
export default function UpgradeScreen() {
  const queryClient = useQueryClient();
  const catalogue = useQuery({ queryKey: commerceKeys.products, queryFn: products });
  const config = useQuery({ queryKey: commerceKeys.payConfig, queryFn: payConfig });
  const machine = useMemo(
    () => livePayment({ onPaid: () => void queryClient.invalidateQueries({ queryKey: ['user'] }) }),
    [queryClient],
  );
  const [state, send] = useMachine(machine, inspectOptions());

  const list = catalogue.data ?? [];
  const groups: Array<{ key: string; title: ReactNode; items: Product[] }> = [
    { key: 'personal', title: <Trans>个人版</Trans>, items: list.filter((p) => p.type === 1 && p.belong_to === 1) },
    { key: 'packages', title: <Trans>加油包</Trans>, items: list.filter((p) => p.type === 2) },
    { key: 'team', title: <Trans>团队版</Trans>, items: list.filter((p) => p.type === 1 && p.belong_to === 2) },
  ];

  return (
    <Stack gap="6" maxW="6xl" data-testid="upgrade-screen">
      <Stack gap="1">
        <Heading as="h2" size="xl">
          <Trans>选择适合你的套餐</Trans>
        </Heading>
        <Text color="fg.muted">
          <Trans>套餐权益在有效期内可用；加油包永久有效，与套餐叠加使用。</Trans>
        </Text>
      </Stack>

      {config.data && !config.data.configured ? (
        <Alert.Root status="warning" data-testid="pay-not-configured">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>
              <Trans>在线支付尚未配置</Trans>
            </Alert.Title>
            <Alert.Description>
              <Trans>仍可下单：请把订单号发给管理员，管理员确认收款后权益自动到账。</Trans>
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      ) : null}

      {catalogue.isError ? (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>
            <Trans>加载失败，请稍后重试</Trans>
          </Alert.Title>
        </Alert.Root>
      ) : catalogue.isPending ? (
        <SimpleGrid columns={{ base: 1, md: 2, lg: 3 }} gap="4">
          {Array.from({ length: 3 }, (_, i) => (
            <Skeleton key={i} h="64" borderRadius="xl" />
          ))}
        </SimpleGrid>
      ) : list.length === 0 ? (
        <Box bg="panel" borderWidth="1px" borderRadius="xl" py="12" data-testid="upgrade-empty">
          <EmptyState.Root>
            <EmptyState.Content>
              <EmptyState.Indicator>
                <PackageOpen />
              </EmptyState.Indicator>
              <EmptyState.Title as="h2">
                <Trans>暂无可购买的套餐</Trans>
              </EmptyState.Title>
            </EmptyState.Content>
          </EmptyState.Root>
        </Box>
      ) : (
        groups
          .filter((g) => g.items.length > 0)
          .map((g) => (
            <Stack as="section" key={g.key} gap="3" data-testid={`products-${g.key}`}>
              <Heading as="h3" size="md">
                {g.title}
              </Heading>
              <SimpleGrid columns={{ base: 1, md: 2, lg: 3 }} gap="4">
                {g.items.map((p) => (
                  <ProductCard
                    key={p.id}
                    product={p}
                    busy={!state.matches('idle')}
                    onBuy={() => send({ type: 'buy', productId: p.id })}
                  />
                ))}
              </SimpleGrid>
            </Stack>
          ))
      )}

      <PaymentDialog state={state} send={send} />
    </Stack>
  );
}

function ProductCard({ product: p, busy, onBuy }: { product: Product; busy: boolean; onBuy: () => void }) {
  const { i18n, t } = useLingui();
  const name = productName(i18n, p.code, p.name);
  return (
    <Stack
      bg="panel"
      borderWidth={p.recommended ? '2px' : '1px'}
      borderColor={p.recommended ? 'blue.solid' : undefined}
      borderRadius="xl"
      p="5"
      gap="3"
      data-testid="product-card"
      data-code={p.code}
    >
      <HStack justify="space-between" align="start">
        <Heading as="h4" size="sm" data-testid="product-name">
          {name}
        </Heading>
        {p.recommended ? (
          <Badge colorPalette="blue">
            <Trans>推荐</Trans>
          </Badge>
        ) : null}
      </HStack>
      <HStack align="baseline" gap="2">
        <Text fontSize="3xl" fontWeight="bold" data-testid="product-price">
          {yuan(i18n, p.price)}
        </Text>
        {p.original_price && p.original_price > p.price ? (
          <Text as="s" color="fg.muted">
            {yuan(i18n, p.original_price)}
          </Text>
        ) : null}
      </HStack>
      <Text fontSize="sm" color="fg.muted">
        {p.duration_days ? <Trans>有效期 {p.duration_days} 天</Trans> : <Trans>永久有效</Trans>}
      </Text>
      <List.Root gap="1" fontSize="sm" ps="4" flex="1">
        {p.rights.map((r) => (
          <List.Item key={r.user_right_type}>
            {rightTitle(i18n, r.user_right_type, r.title)}: {formatRight(i18n, r.user_right_type, r.num)}
          </List.Item>
        ))}
      </List.Root>
      <Button
        colorPalette="blue"
        variant={p.recommended ? 'solid' : 'outline'}
        onClick={onBuy}
        disabled={busy}
        aria-label={t`立即购买 ${name}`}
        data-testid="product-buy"
      >
        <Trans>立即购买</Trans>
      </Button>
    </Stack>
  );
}

type PaymentState = ReturnType<typeof useMachine<ReturnType<typeof livePayment>>>[0];
type PaymentSend = ReturnType<typeof useMachine<ReturnType<typeof livePayment>>>[1];

function PaymentDialog({ state, send }: { state: PaymentState; send: PaymentSend }) {
  const { i18n, t } = useLingui();
  const prepay = state.context.prepay;
  const open = !state.matches('idle');
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(d) => (d.open ? undefined : send({ type: 'close' }))}
      placement="center"
      size="sm"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="payment-dialog">
            <Dialog.Header>
              <Dialog.Title>{state.matches('paid') ? t`支付成功` : t`微信扫码支付`}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {state.matches('creating') || state.matches('refreshing') ? (
                <Center py="10">
                  <Spinner size="lg" color="blue.solid" />
                </Center>
              ) : state.matches('failed') ? (
                <Alert.Root status="error" data-testid="payment-failed">
                  <Alert.Indicator />
                  <Alert.Title>{state.context.error}</Alert.Title>
                </Alert.Root>
              ) : state.matches('paid') ? (
                <Stack align="center" gap="3" py="4" data-testid="payment-paid">
                  <Box color="green.fg">
                    <CircleCheck size={48} aria-hidden />
                  </Box>
                  <Text>
                    <Trans>支付成功，权益已到账。</Trans>
                  </Text>
                </Stack>
              ) : prepay && !prepay.configured ? (
                <Stack gap="3" data-testid="payment-unconfigured">
                  <Alert.Root status="warning">
                    <Alert.Indicator />
                    <Alert.Title>
                      <Trans>在线支付尚未配置</Trans>
                    </Alert.Title>
                  </Alert.Root>
                  <Text>
                    <Trans>订单已创建。请把订单号发给管理员，确认收款后权益自动到账。</Trans>
                  </Text>
                  <Text fontFamily="mono" fontSize="sm" data-testid="payment-order-no">
                    {prepay.order_no}
                  </Text>
                  <HStack color="fg.muted" fontSize="sm">
                    <Spinner size="xs" />
                    <Text>
                      <Trans>等待确认…</Trans>
                    </Text>
                  </HStack>
                </Stack>
              ) : prepay ? (
                <Stack align="center" gap="3" data-testid="payment-qr">
                  {state.matches('expired') ? (
                    <Center h="200px" w="200px" borderWidth="1px" borderRadius="md" data-testid="payment-expired">
                      <Text color="fg.muted">
                        <Trans>二维码已过期</Trans>
                      </Text>
                    </Center>
                  ) : (
                    <Box bg="white" p="2" borderRadius="md">
                      <QrCode.Root value={prepay.code_url} size="xl" encoding={{ ecc: 'M' }}>
                        <QrCode.Frame aria-label={t`微信支付二维码`} role="img" color="black">
                          <QrCode.Pattern />
                        </QrCode.Frame>
                      </QrCode.Root>
                    </Box>
                  )}
                  <Text fontSize="2xl" fontWeight="bold">
                    {yuan(i18n, prepay.amount)}
                  </Text>
                  <Text fontSize="sm" color="fg.muted">
                    <Trans>请使用微信扫一扫完成支付，二维码 {formatDate(i18n, prepay.expire_at, true)} 前有效。</Trans>
                  </Text>
                </Stack>
              ) : null}
            </Dialog.Body>
            <Dialog.Footer>
              {state.matches('paid') ? (
                <Button asChild colorPalette="blue" onClick={() => send({ type: 'close' })}>
                  <Link href="/right">
                    <Trans>查看我的权益</Trans>
                  </Link>
                </Button>
              ) : state.matches('failed') ? (
                <Button colorPalette="blue" onClick={() => send({ type: 'retry' })}>
                  <Trans>重试</Trans>
                </Button>
              ) : prepay?.configured && (state.matches('awaiting') || state.matches('expired')) ? (
                <Button variant="outline" onClick={() => send({ type: 'refresh' })} data-testid="payment-refresh">
                  <Trans>刷新二维码</Trans>
                </Button>
              ) : null}
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t`关闭`} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

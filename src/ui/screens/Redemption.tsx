import { useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Box, Button, Field, Flex, Heading, Input, List, Skeleton, Stack, Text } from '@chakra-ui/react';
import { Ticket } from 'lucide-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { isApiError } from '../../api/client';
import { queryKeys, userRightQuery, userRightTypes } from '../../api/queries';
import { redeemCode, type GrantedRight } from '../../api/rewards';
import { useSession } from '../app-actor';
import { StandaloneShell } from '../layout/StandaloneShell';
import { rightTitle } from './commerce/labels';
import { formatRight } from '../format/balance';

const CODE_PATTERN = /^[A-Za-z0-9-]{4,64}$/;

/** /redemption (outside the main layout, spec §2): redeem a code for rights. */
export default function Redemption() {
  const { status } = useSession();
  return (
    <StandaloneShell maxW="lg">
      <Box as="main" bg="panel" borderWidth="1px" borderRadius="xl" p={{ base: '6', md: '8' }}>
        <Flex align="center" gap="3" mb="6">
          <Ticket aria-hidden />
          <Heading as="h1" size="lg">
            <Trans>兑换码</Trans>
          </Heading>
        </Flex>
        {status === 'loggedIn' ? (
          <RedeemForm />
        ) : status === 'loggedOut' ? (
          <Stack gap="4" data-testid="redemption-login">
            <Text>
              <Trans>兑换前请先登录，兑换所得权益将发放到当前登录的账号。</Trans>
            </Text>
            <Button asChild colorPalette="blue" alignSelf="flex-start">
              <Link href="/login">
                <Trans>去登录</Trans>
              </Link>
            </Button>
          </Stack>
        ) : (
          <Skeleton h="24" />
        )}
      </Box>
    </StandaloneShell>
  );
}

function RedeemForm() {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [touched, setTouched] = useState(false);
  const balance = useQuery(userRightQuery(userRightTypes.highSpeedText));
  const redeem = useMutation({
    mutationFn: (value: string) => redeemCode(value),
    onSuccess: () => {
      setCode('');
      setTouched(false);
      return queryClient.invalidateQueries({ queryKey: queryKeys.rights });
    },
  });
  const cleaned = code.replace(/\s+/g, '');
  const malformed = touched && !CODE_PATTERN.test(cleaned);

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (CODE_PATTERN.test(cleaned)) redeem.mutate(cleaned);
  }

  function failure(error: unknown): string {
    if (!isApiError(error)) return t`兑换失败，请稍后再试`;
    if (error.status === 404) return t`兑换码不存在，请检查后重新输入`;
    if (error.status === 409) {
      if (error.message.includes('过期')) return t`该兑换码已过期`;
      if (error.message.includes('您已兑换')) return t`您已兑换过该兑换码`;
      return t`该兑换码已被使用`;
    }
    if (error.status === 429) return t`尝试次数过多，请 10 分钟后再试`;
    if (error.status === 400) return t`兑换码格式不正确`;
    return error.message || t`兑换失败，请稍后再试`;
  }

  const right = balance.data as { disposable_num: number; num_desc: string } | undefined;
  return (
    <Stack gap="6">
      <Text color="fg.muted" data-testid="redemption-balance">
        <Trans>当前剩余高速校对字数：</Trans>
        {right ? <strong>{formatRight(i18n, 1, right.disposable_num)}</strong> : balance.isError ? '—' : '…'}
      </Text>
      <form onSubmit={submit} noValidate aria-label={t`兑换码`}>
        <Stack gap="4">
          <Field.Root invalid={malformed} required>
            <Field.Label>
              <Trans>请输入兑换码</Trans>
            </Field.Label>
            <Input
              name="code"
              autoComplete="off"
              autoFocus
              spellCheck={false}
              placeholder="XXXX-XXXX-XXXX-XXXX"
              fontFamily="mono"
              value={code}
              onChange={(e) => {
                redeem.reset();
                setCode(e.target.value.toUpperCase());
              }}
            />
            <Field.HelperText>
              <Trans>不区分大小写，短横线可省略。每个兑换码只能使用一次。</Trans>
            </Field.HelperText>
            <Field.ErrorText>
              <Trans>兑换码格式不正确</Trans>
            </Field.ErrorText>
          </Field.Root>
          <Button
            type="submit"
            colorPalette="blue"
            loading={redeem.isPending}
            alignSelf="flex-start"
            data-testid="redeem-submit"
          >
            <Trans>立即兑换</Trans>
          </Button>
        </Stack>
      </form>
      {redeem.isError ? (
        <Alert.Root status="error" data-testid="redemption-error">
          <Alert.Indicator />
          <Alert.Title>{failure(redeem.error)}</Alert.Title>
        </Alert.Root>
      ) : null}
      {redeem.isSuccess ? <Granted rights={redeem.data} /> : null}
    </Stack>
  );
}

function Granted({ rights }: { rights: GrantedRight[] }) {
  const { i18n } = useLingui();
  return (
    <Alert.Root status="success" data-testid="redemption-success">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>
          <Trans>兑换成功，已发放：</Trans>
        </Alert.Title>
        <Alert.Description>
          <List.Root ps="4">
            {rights.map((r) => {
              const title = rightTitle(i18n, r.user_right_type, r.title);
              const amount = formatRight(i18n, r.user_right_type, r.num);
              return (
                <List.Item key={r.user_right_type}>
                  <Trans>
                    {title}：{amount}
                  </Trans>
                </List.Item>
              );
            })}
          </List.Root>
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

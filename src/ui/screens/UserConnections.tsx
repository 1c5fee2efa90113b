import { useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Box, Button, Code, Flex, Heading, Link as ChakraLink, Skeleton, Stack, Text } from '@chakra-ui/react';
import { Copy, KeyRound, MessageCircle } from 'lucide-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRuntimeConfig } from '../../api/config';
import { notify } from '../../api/notify';
import { queryKeys } from '../../api/queries';
import { Link } from 'wouter';
import { apiKeyState, createApiKey, wechatTicket } from '../../api/user';
import { ConfirmDialog } from '../layout/ConfirmDialog';

function Card({
  title,
  icon,
  children,
  testId,
}: {
  title: ReactNode;
  icon: ReactNode;
  children: ReactNode;
  testId: string;
}) {
  return (
    <Box bg="panel" borderWidth="1px" borderRadius="xl" p={{ base: '5', md: '6' }} data-testid={testId}>
      <Flex as="h3" align="center" gap="2" mb="4">
        {icon}
        <Heading as="span" size="md">
          {title}
        </Heading>
      </Flex>
      {children}
    </Box>
  );
}

/**
 * WeChat binding (spec §1 bindWechat / resetWechat, §2 status query). Binding happens on the WeChat
 * provider's pages, which come back to /user?status=0..6 with the spec's message; without those
 * addresses in the runtime configuration this server has no WeChat login and the card says so.
 */
export function WechatCard() {
  const { bindWechat, resetWechat } = getRuntimeConfig();
  const [going, setGoing] = useState<'bind' | 'unbind' | null>(null);
  const back = `${window.location.origin}/workbench/user`;
  // a navigation carries no token: this server's own WeChat pages take a single-use ticket (a server without WeChat
  // of its own, whose addresses lead elsewhere, answers 503 and the page goes without one)
  const go = async (purpose: 'bind' | 'unbind', url: string) => {
    setGoing(purpose);
    const ticket = await wechatTicket(purpose).catch(() => null);
    const query = new URLSearchParams({ redirect: back, ...(ticket ? { ticket } : {}) });
    window.location.assign(`${url}${url.includes('?') ? '&' : '?'}${query}`);
  };
  return (
    <Card title={<Trans>微信绑定</Trans>} icon={<MessageCircle size={18} aria-hidden />} testId="wechat-card">
      {bindWechat || resetWechat ? (
        <Stack gap="4">
          <Text color="fg.muted">
            <Trans>绑定后可以用微信扫码登录。绑定或解绑在微信页面完成，完成后会回到本页并显示结果。</Trans>
          </Text>
          <Flex gap="3" wrap="wrap">
            {bindWechat ? (
              <Button
                colorPalette="green"
                loading={going === 'bind'}
                onClick={() => void go('bind', bindWechat)}
                data-testid="wechat-bind"
              >
                <Trans>绑定微信</Trans>
              </Button>
            ) : null}
            {resetWechat ? (
              <Button
                variant="outline"
                loading={going === 'unbind'}
                onClick={() => void go('unbind', resetWechat)}
                data-testid="wechat-unbind"
              >
                <Trans>解绑微信</Trans>
              </Button>
            ) : null}
          </Flex>
        </Stack>
      ) : (
        <Alert.Root status="info" data-testid="wechat-unconfigured">
          <Alert.Indicator />
          <Alert.Title>
            <Trans>本服务器未配置微信登录，暂不能绑定微信。请使用手机号和密码登录。</Trans>
          </Alert.Title>
        </Alert.Root>
      )}
    </Card>
  );
}

/**
 * The key for the LanguageTool-compatible API (/v2/check): shown once when created, then only its last four characters.
 */
export function ApiKeyCard() {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const state = useQuery({ queryKey: queryKeys.apiKey, queryFn: () => apiKeyState() });
  const [confirming, setConfirming] = useState(false);
  const create = useMutation({
    mutationFn: createApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.apiKey }),
  });
  const fresh = create.data;

  async function copy(text: string) {
    try {
      await navigator.clipboard.writeText(text);
      notify({ status: 'success', title: t`已复制` });
    } catch {
      notify({ status: 'warning', title: t`无法访问剪贴板，请手动复制` });
    }
  }

  const data = state.data;
  return (
    <Card title={<Trans>API 密钥</Trans>} icon={<KeyRound size={18} aria-hidden />} testId="api-key-card">
      <Stack gap="4">
        <Text color="fg.muted" fontSize="sm">
          <Trans>
            LanguageTool 兼容客户端（如浏览器插件、办公软件插件）可以用用户名和 API 密钥调用本站的 /v2/check 校对接口。
          </Trans>
        </Text>
        {state.isPending ? (
          <Skeleton h="10" />
        ) : state.isError || !data ? (
          <Alert.Root status="error">
            <Alert.Indicator />
            <Alert.Title>
              <Trans>无法加载 API 密钥状态</Trans>
            </Alert.Title>
          </Alert.Root>
        ) : (
          <Stack gap="2" fontSize="sm" data-testid="api-key-state">
            <Text>
              <Trans>用户名：</Trans> <Code>{data.username}</Code>
            </Text>
            <Text>
              {data.exists ? (
                <Trans>
                  当前密钥：<Code>…{data.hint}</Code>（创建于{' '}
                  {data.created_at ? i18n.date(new Date(data.created_at), { dateStyle: 'medium' }) : '—'}）
                </Trans>
              ) : (
                <Trans>还没有 API 密钥。</Trans>
              )}
            </Text>
          </Stack>
        )}
        {data && !data.allowed ? (
          <Alert.Root status={data.application === 'refused' ? 'warning' : 'info'} data-testid="api-key-apply">
            <Alert.Indicator />
            <Alert.Content gap="2">
              <Alert.Title>
                {data.application === 'pending' ? (
                  <Trans>您的 API 接入申请正在审核，通过后即可生成密钥。</Trans>
                ) : data.application === 'refused' ? (
                  <Trans>您的 API 接入申请没有通过，可以补充说明后重新申请。</Trans>
                ) : (
                  <Trans>API 接入需要先提交申请，审核通过后即可生成密钥。</Trans>
                )}
              </Alert.Title>
              {data.application !== 'pending' ? (
                <Link href="/apiApply" asChild>
                  <Button as="a" size="xs" variant="outline" alignSelf="flex-start">
                    <Trans>申请 API 接入</Trans>
                  </Button>
                </Link>
              ) : null}
            </Alert.Content>
          </Alert.Root>
        ) : null}
        {fresh ? (
          <Alert.Root status="success" data-testid="api-key-new">
            <Alert.Indicator />
            <Alert.Content gap="2">
              <Alert.Title>
                <Trans>新的 API 密钥（只显示这一次，请妥善保存）：</Trans>
              </Alert.Title>
              <Flex gap="2" align="center" wrap="wrap">
                <Code wordBreak="break-all" data-testid="api-key-value">
                  {fresh.api_key}
                </Code>
                <Button size="xs" variant="outline" onClick={() => copy(fresh.api_key)}>
                  <Copy size={14} aria-hidden />
                  <Trans>复制</Trans>
                </Button>
              </Flex>
            </Alert.Content>
          </Alert.Root>
        ) : null}
        <Button
          alignSelf="flex-start"
          variant="outline"
          loading={create.isPending}
          disabled={!data?.allowed}
          onClick={() => (data?.exists ? setConfirming(true) : create.mutate())}
          data-testid="api-key-create"
        >
          {data?.exists ? <Trans>重新生成密钥</Trans> : <Trans>生成密钥</Trans>}
        </Button>
        <Text fontSize="xs" color="fg.muted">
          <Trans>
            接口地址：
            <ChakraLink href={`${window.location.origin}/v2/check`}>{`${window.location.origin}/v2/check`}</ChakraLink>
          </Trans>
        </Text>
      </Stack>
      <ConfirmDialog
        open={confirming}
        title={t`重新生成 API 密钥？`}
        description={t`旧密钥会立即失效，使用它的客户端需要换成新密钥。`}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          create.mutate();
        }}
      />
    </Card>
  );
}

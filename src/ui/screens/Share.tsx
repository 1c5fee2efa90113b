import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Badge, Box, Button, Code, Flex, Heading, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { Copy, Gift, MessageCircle, Share2 } from 'lucide-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { notify } from '../../api/notify';
import { queryKeys } from '../../api/queries';
import { recordShare, sharingInfo, type ShareChannel } from '../../api/rewards';

/** The address being shared: the workbench's own home page. */
const shareUrl = () => `${window.location.origin}/workbench/`;

/** Share windows of the services that have one; WeChat shares a copied link. */
const SHARE_WINDOWS: Partial<Record<ShareChannel, (url: string, title: string) => string>> = {
  weibo: (url, title) =>
    `https://service.weibo.com/share/share.php?url=${encodeURIComponent(url)}&title=${encodeURIComponent(title)}`,
  qq: (url, title) =>
    'https://connect.qq.com/widget/shareqq/index.html' +
    `?url=${encodeURIComponent(url)}&title=${encodeURIComponent(title)}`,
};

/** /share ('free speed-up', spec §2): share the workbench, the first share of a day grants high-speed characters. */
export default function Share() {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const info = useQuery({ queryKey: queryKeys.sharing, queryFn: () => sharingInfo() });
  const share = useMutation({
    mutationFn: (channel: ShareChannel) => recordShare(channel, shareUrl()),
    onSuccess: (result) => {
      if (result.reward_num > 0)
        notify({ status: 'success', title: t`分享成功，已获得 ${i18n.number(result.reward_num)} 高速校对字数` });
      else notify({ status: 'success', title: t`分享成功，今天的加速奖励已领取过` });
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.sharing }),
        queryClient.invalidateQueries({ queryKey: queryKeys.rights }),
      ]);
    },
  });
  const title = t`校对工作台：中文错别字、敏感词、标点一键校对`;

  async function shareBy(channel: ShareChannel) {
    const url = shareUrl();
    const windowUrl = SHARE_WINDOWS[channel];
    if (windowUrl) window.open(windowUrl(url, title), '_blank', 'noopener,noreferrer');
    else {
      try {
        await navigator.clipboard.writeText(`${title} ${url}`);
      } catch {
        // Clipboard refused (insecure origin or permission): the link stays visible to copy by hand.
      }
    }
    share.mutate(channel);
  }

  const data = info.data;
  return (
    <Stack gap="6" maxW="3xl" mx="auto" data-testid="share">
      <Box bg="panel" borderWidth="1px" borderRadius="xl" p={{ base: '6', md: '8' }}>
        <Flex align="center" gap="3" mb="4">
          <Gift aria-hidden />
          <Heading as="h2" size="lg">
            <Trans>分享得免费加速</Trans>
          </Heading>
          {data ? (
            <Badge colorPalette={data.rewarded_today ? 'gray' : 'green'} data-testid="share-today">
              {data.rewarded_today ? <Trans>今日奖励已领取</Trans> : <Trans>今日奖励可领取</Trans>}
            </Badge>
          ) : null}
        </Flex>
        {info.isError ? (
          <Alert.Root status="error">
            <Alert.Indicator />
            <Alert.Title>
              <Trans>无法加载分享信息</Trans>
            </Alert.Title>
          </Alert.Root>
        ) : !data ? (
          <Skeleton h="16" />
        ) : (
          <Stack gap="2" data-testid="share-rule">
            <Text>
              <Trans>
                把校对工作台分享给朋友：每天首次分享可获得 {i18n.number(data.bonus)} 高速校对字数，{data.bonus_days}{' '}
                天内有效。
              </Trans>
            </Text>
            <Text color="fg.muted" fontSize="sm">
              <Trans>已分享 {data.shared_count} 次。每天（北京时间）只奖励一次，之后的分享不再奖励。</Trans>
            </Text>
          </Stack>
        )}
      </Box>
      <Box bg="panel" borderWidth="1px" borderRadius="xl" p={{ base: '6', md: '8' }}>
        <Heading as="h3" size="md" mb="4">
          <Trans>选择分享方式</Trans>
        </Heading>
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="3">
          <Button
            variant="outline"
            onClick={() => shareBy('wechat')}
            loading={share.isPending && share.variables === 'wechat'}
            data-testid="share-wechat"
          >
            <MessageCircle size={16} aria-hidden />
            <Trans>复制链接发给微信好友</Trans>
          </Button>
          <Button
            variant="outline"
            onClick={() => shareBy('link')}
            loading={share.isPending && share.variables === 'link'}
            data-testid="share-link"
          >
            <Copy size={16} aria-hidden />
            <Trans>复制链接</Trans>
          </Button>
          <Button
            variant="outline"
            onClick={() => shareBy('weibo')}
            loading={share.isPending && share.variables === 'weibo'}
          >
            <Share2 size={16} aria-hidden />
            <Trans>分享到微博</Trans>
          </Button>
          <Button variant="outline" onClick={() => shareBy('qq')} loading={share.isPending && share.variables === 'qq'}>
            <Share2 size={16} aria-hidden />
            <Trans>分享到 QQ</Trans>
          </Button>
        </SimpleGrid>
        <Text mt="4" fontSize="sm" color="fg.muted">
          <Trans>分享链接：</Trans> <Code>{shareUrl()}</Code>
        </Text>
      </Box>
      <Flex gap="3" justify="center">
        <Button asChild variant="ghost">
          <Link href="/">
            <Trans>返回工作台</Trans>
          </Link>
        </Button>
        <Button asChild colorPalette="blue">
          <Link href="/upgrade">
            <Trans>立即升级</Trans>
          </Link>
        </Button>
      </Flex>
    </Stack>
  );
}

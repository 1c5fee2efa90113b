import { useState, type ReactNode } from 'react';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Avatar,
  Badge,
  Box,
  Button,
  DataList,
  Flex,
  Heading,
  HStack,
  SimpleGrid,
  Skeleton,
  Stack,
} from '@chakra-ui/react';
import { LogOut } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { userInfoQuery } from '../../api/queries';
import { LogoutConfirmDialog, usePortraitUrl } from '../layout/UserMenu';
import { CloseAccountForm, FeedbackForm, LoginIdForm, PasswordForm, PhoneForm } from './UserForms';
import { ApiKeyCard, WechatCard } from './UserConnections';
import { ApplicationsReview } from './Applications';
import { AnnouncementsAdmin } from './admin/AnnouncementsAdmin';
import { GuideAdmin } from './admin/GuideAdmin';
import { JobsAdmin } from './admin/JobsAdmin';

/** Role names (spec §3 team roles; `free` is the default role of an individual account). */
const ROLE_LABELS: Record<string, MessageDescriptor> = {
  free: msg`免费用户`,
  user: msg({ id: '普通成员', message: '普通成员' }),
  user_admin: msg({ id: '成员管理员', message: '成员管理员' }),
  dic_admin: msg({ id: '词库管理员', message: '词库管理员' }),
  admin: msg({ id: '管理员', message: '管理员' }),
  root: msg({ id: '超级管理员', message: '超级管理员' }),
};

const IDENTITY_LABELS: Record<number, MessageDescriptor> = {
  0: msg`个人用户`,
  1: msg`团队成员`,
  2: msg`团队管理员`,
};

/**
 * /user: the real account from GET /user/user_info, login id, password and phone forms, WeChat, API key, feedback,
 * closing, logout.
 */
export default function User() {
  const { t, i18n } = useLingui();
  const [confirming, setConfirming] = useState(false);
  const info = useQuery(userInfoQuery());
  const user = info.data;
  const portrait = usePortraitUrl(user?.uid);
  const none = t`未设置`;

  return (
    <Stack gap="6" maxW="4xl">
      <Box bg="panel" borderWidth="1px" borderRadius="xl" p={{ base: '5', md: '8' }}>
        <Flex gap="5" align="center" mb="6" wrap="wrap">
          <Avatar.Root size="2xl">
            <Avatar.Fallback name={user?.name || user?.phone || ''} />
            {portrait ? <Avatar.Image src={portrait} alt={t`头像`} /> : null}
          </Avatar.Root>
          <Stack gap="1" flex="1" minW="10rem">
            <Heading as="h2" size="lg" data-testid="user-name">
              {info.isPending ? <Skeleton h="6" w="40" /> : user?.name || user?.phone}
            </Heading>
            {user ? (
              <HStack gap="2">
                <Badge colorPalette={user.role === 'free' ? 'gray' : 'blue'} data-testid="user-role">
                  {ROLE_LABELS[user.role] ? i18n._(ROLE_LABELS[user.role]) : user.role}
                </Badge>
                {IDENTITY_LABELS[user.user_identity] ? (
                  <Badge variant="outline">{i18n._(IDENTITY_LABELS[user.user_identity])}</Badge>
                ) : null}
              </HStack>
            ) : null}
          </Stack>
          <Button variant="outline" colorPalette="red" onClick={() => setConfirming(true)} data-testid="user-logout">
            <LogOut size={16} aria-hidden />
            <Trans>退出登录</Trans>
          </Button>
        </Flex>
        {info.isError ? (
          <Alert.Root status="error">
            <Alert.Indicator />
            <Alert.Title>
              <Trans>无法加载用户信息</Trans>
            </Alert.Title>
          </Alert.Root>
        ) : (
          <DataList.Root orientation="horizontal" divideY="1px" data-testid="user-info">
            <InfoItem label={<Trans>用户 ID</Trans>} value={user ? String(user.uid) : undefined} />
            <InfoItem label={<Trans>手机号</Trans>} value={user?.phone} />
            <InfoItem label={<Trans>昵称</Trans>} value={user ? user.name || none : undefined} />
            <InfoItem
              label={<Trans>角色</Trans>}
              value={user ? (ROLE_LABELS[user.role] ? i18n._(ROLE_LABELS[user.role]) : user.role) : undefined}
            />
            <InfoItem label={<Trans>登录账号</Trans>} value={user ? user.login_id || none : undefined} />
          </DataList.Root>
        )}
      </Box>
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="6">
        <LoginIdForm current={user?.login_id ?? null} />
        <PasswordForm />
        <PhoneForm current={user?.phone ?? null} />
        <FeedbackForm />
        <WechatCard />
        <ApiKeyCard />
      </SimpleGrid>
      {user?.role === 'root' ? (
        <>
          <ApplicationsReview />
          <AnnouncementsAdmin />
          <GuideAdmin />
          <JobsAdmin />
        </>
      ) : null}
      <CloseAccountForm />
      <LogoutConfirmDialog open={confirming} onClose={() => setConfirming(false)} />
    </Stack>
  );
}

function InfoItem({ label, value }: { label: ReactNode; value: string | null | undefined }) {
  return (
    <DataList.Item pt="3">
      <DataList.ItemLabel minW="8rem">{label}</DataList.ItemLabel>
      <DataList.ItemValue>{value === undefined ? <Skeleton h="4" w="32" /> : value}</DataList.ItemValue>
    </DataList.Item>
  );
}

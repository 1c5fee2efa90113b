import { useState, type FormEvent } from 'react';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Avatar, Badge, Box, Button, DataList, Field, Flex, Heading, HStack, Input, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { LogOut } from 'lucide-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isApiError } from '../../api/client';
import { queryKeys, userInfoQuery } from '../../api/queries';
import { updateLoginId, updatePassword } from '../../api/user';
import { notify } from '../../api/notify';
import { useSession } from '../app-actor';
import { ConfirmDialog } from '../layout/ConfirmDialog';
import { usePortraitUrl } from '../layout/UserMenu';

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

/** /user: the real account from GET /user/user_info, login id and password forms, and logout. */
export default function User() {
  const { t, i18n } = useLingui();
  const { send, status } = useSession();
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
          <Stack gap="1" flex="1" minW="0">
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
      </SimpleGrid>
      <ConfirmDialog
        open={confirming}
        title={<Trans>退出登录</Trans>}
        description={<Trans>确定要退出当前账号吗？</Trans>}
        destructive
        loading={status === 'loggingOut'}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          send({ type: 'logout requested' });
        }}
      />
    </Stack>
  );
}

function InfoItem({ label, value }: { label: React.ReactNode; value: string | null | undefined }) {
  return (
    <DataList.Item pt="3">
      <DataList.ItemLabel minW="8rem">{label}</DataList.ItemLabel>
      <DataList.ItemValue>{value === undefined ? <Skeleton h="4" w="32" /> : value}</DataList.ItemValue>
    </DataList.Item>
  );
}

function Card({ title, children }: { title: React.ReactNode; children: React.ReactNode }) {
  return (
    <Box bg="panel" borderWidth="1px" borderRadius="xl" p={{ base: '5', md: '6' }}>
      <Heading as="h3" size="md" mb="4">
        {title}
      </Heading>
      {children}
    </Box>
  );
}

const LOGIN_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_]{3,31}$/;

function LoginIdForm({ current }: { current: string | null }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const [value, setValue] = useState('');
  const [touched, setTouched] = useState(false);
  const invalid = touched && !LOGIN_ID_PATTERN.test(value);
  const save = useMutation({
    mutationFn: (loginId: string) => updateLoginId(loginId),
    onSuccess: () => {
      notify({ status: 'success', title: '操作成功' });
      setValue('');
      setTouched(false);
      return queryClient.invalidateQueries({ queryKey: queryKeys.userInfo });
    },
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (LOGIN_ID_PATTERN.test(value)) save.mutate(value);
  }
  return (
    <Card title={<Trans>设置登录账号</Trans>}>
      <form onSubmit={submit} noValidate aria-label={t`设置登录账号`}>
        <Stack gap="4">
          <Field.Root invalid={invalid}>
            <Field.Label>
              <Trans>新的登录账号</Trans>
            </Field.Label>
            <Input
              name="login_id"
              autoComplete="username"
              placeholder={current ?? t`字母开头，4–32 位字母、数字或下划线`}
              value={value}
              onChange={(e) => setValue(e.target.value.trim())}
            />
            <Field.ErrorText>
              <Trans>字母开头，4–32 位字母、数字或下划线</Trans>
            </Field.ErrorText>
          </Field.Root>
          <Button type="submit" alignSelf="flex-start" colorPalette="blue" loading={save.isPending}>
            <Trans>保存</Trans>
          </Button>
        </Stack>
      </form>
    </Card>
  );
}

function PasswordForm() {
  const { t } = useLingui();
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [touched, setTouched] = useState(false);
  const newInvalid = touched && (newPassword.length < 6 || newPassword.length > 32);
  const confirmInvalid = touched && confirm !== newPassword;
  const save = useMutation({
    mutationFn: () => updatePassword(oldPassword, newPassword),
    onSuccess: () => {
      notify({ status: 'success', title: '操作成功' });
      setOldPassword('');
      setNewPassword('');
      setConfirm('');
      setTouched(false);
    },
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (!oldPassword || newPassword.length < 6 || newPassword.length > 32 || confirm !== newPassword) return;
    save.mutate();
  }
  const wrongOld = save.error && isApiError(save.error) && save.error.status === 400;
  return (
    <Card title={<Trans>修改密码</Trans>}>
      <form onSubmit={submit} noValidate aria-label={t`修改密码`}>
        <Stack gap="4">
          <Field.Root invalid={(touched && !oldPassword) || Boolean(wrongOld)}>
            <Field.Label>
              <Trans>当前密码</Trans>
            </Field.Label>
            <Input type="password" name="old_password" autoComplete="current-password" value={oldPassword} onChange={(e) => setOldPassword(e.target.value)} />
            <Field.ErrorText>{wrongOld ? save.error.message : <Trans>请输入当前密码</Trans>}</Field.ErrorText>
          </Field.Root>
          <Field.Root invalid={newInvalid}>
            <Field.Label>
              <Trans>新密码</Trans>
            </Field.Label>
            <Input type="password" name="new_password" autoComplete="new-password" value={newPassword} onChange={(e) => setNewPassword(e.target.value)} />
            <Field.ErrorText>
              <Trans>密码为 6–32 位</Trans>
            </Field.ErrorText>
          </Field.Root>
          <Field.Root invalid={confirmInvalid}>
            <Field.Label>
              <Trans>确认新密码</Trans>
            </Field.Label>
            <Input type="password" name="confirm" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
            <Field.ErrorText>
              <Trans>两次输入的密码不一致</Trans>
            </Field.ErrorText>
          </Field.Root>
          <Text fontSize="sm" color="fg.muted">
            <Trans>修改密码后，其他设备上的登录会失效。</Trans>
          </Text>
          <Button type="submit" alignSelf="flex-start" colorPalette="blue" loading={save.isPending}>
            <Trans>修改密码</Trans>
          </Button>
        </Stack>
      </form>
    </Card>
  );
}

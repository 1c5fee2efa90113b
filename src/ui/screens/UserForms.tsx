import { useState, type FormEvent, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Button, Field, Heading, HStack, Input, Stack, Text, Textarea } from '@chakra-ui/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { isApiError } from '../../api/client';
import { notify } from '../../api/notify';
import { queryKeys } from '../../api/queries';
import { cancelAccount, leaveMessage, updateLoginId, updatePassword, updatePhone } from '../../api/user';
import { useSession } from '../app-actor';
import { PHONE_PATTERN, SMS_CODE_PATTERN, SmsCodeButton } from '../forms/SmsCodeButton';
import { ConfirmDialog } from '../layout/ConfirmDialog';

function Card({ title, children, danger }: { title: ReactNode; children: ReactNode; danger?: boolean }) {
  return (
    <Box
      bg="panel"
      borderWidth="1px"
      borderColor={danger ? 'border.error' : undefined}
      borderRadius="xl"
      p={{ base: '5', md: '6' }}
    >
      <Heading as="h3" size="md" mb="4" color={danger ? 'fg.error' : undefined}>
        {title}
      </Heading>
      {children}
    </Box>
  );
}

/** The failure message of a call for the field it concerns (the toast shows it too). */
function fieldError(error: unknown, status: number): string | null {
  return isApiError(error) && error.status === status ? error.message : null;
}

const LOGIN_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_]{3,31}$/;

export function LoginIdForm({ current }: { current: string | null }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const [value, setValue] = useState('');
  const [touched, setTouched] = useState(false);
  const save = useMutation({
    mutationFn: (loginId: string) => updateLoginId(loginId),
    onSuccess: () => {
      notify({ status: 'success', title: '操作成功' });
      setValue('');
      setTouched(false);
      return queryClient.invalidateQueries({ queryKey: queryKeys.userInfo });
    },
  });
  const taken = fieldError(save.error, 409);
  const invalid = (touched && !LOGIN_ID_PATTERN.test(value)) || Boolean(taken);
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
              onChange={(e) => {
                save.reset();
                setValue(e.target.value.trim());
              }}
            />
            <Field.ErrorText>{taken ?? <Trans>字母开头，4–32 位字母、数字或下划线</Trans>}</Field.ErrorText>
          </Field.Root>
          <Button type="submit" alignSelf="flex-start" colorPalette="blue" loading={save.isPending}>
            <Trans>保存</Trans>
          </Button>
        </Stack>
      </form>
    </Card>
  );
}

export function PasswordForm() {
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
  const wrongOld = fieldError(save.error, 400);
  return (
    <Card title={<Trans>修改密码</Trans>}>
      <form onSubmit={submit} noValidate aria-label={t`修改密码`}>
        <Stack gap="4">
          <Field.Root invalid={(touched && !oldPassword) || Boolean(wrongOld)}>
            <Field.Label>
              <Trans>当前密码</Trans>
            </Field.Label>
            <Input
              type="password"
              name="old_password"
              autoComplete="current-password"
              value={oldPassword}
              onChange={(e) => setOldPassword(e.target.value)}
            />
            <Field.ErrorText>{wrongOld ?? <Trans>请输入当前密码</Trans>}</Field.ErrorText>
          </Field.Root>
          <Field.Root invalid={newInvalid}>
            <Field.Label>
              <Trans>新密码</Trans>
            </Field.Label>
            <Input
              type="password"
              name="new_password"
              autoComplete="new-password"
              value={newPassword}
              onChange={(e) => setNewPassword(e.target.value)}
            />
            <Field.ErrorText>
              <Trans>密码为 6–32 位</Trans>
            </Field.ErrorText>
          </Field.Root>
          <Field.Root invalid={confirmInvalid}>
            <Field.Label>
              <Trans>确认新密码</Trans>
            </Field.Label>
            <Input
              type="password"
              name="confirm"
              autoComplete="new-password"
              value={confirm}
              onChange={(e) => setConfirm(e.target.value)}
            />
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

export function PhoneForm({ current }: { current: string | null }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState('');
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [touched, setTouched] = useState(false);
  const [phoneTouched, setPhoneTouched] = useState(false);
  const save = useMutation({
    mutationFn: () => updatePhone(phone, code, password),
    onSuccess: () => {
      notify({ status: 'success', title: '操作成功' });
      setPassword('');
      setPhone('');
      setCode('');
      setTouched(false);
      setPhoneTouched(false);
      return queryClient.invalidateQueries({ queryKey: queryKeys.userInfo });
    },
  });
  const phoneInvalid = (touched || phoneTouched) && (!PHONE_PATTERN.test(phone) || phone === current);
  const codeInvalid = touched && !SMS_CODE_PATTERN.test(code);
  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (password && PHONE_PATTERN.test(phone) && phone !== current && SMS_CODE_PATTERN.test(code)) save.mutate();
  }
  return (
    <Card title={<Trans>更换手机号</Trans>}>
      <form onSubmit={submit} noValidate aria-label={t`更换手机号`}>
        <Stack gap="4">
          <Text fontSize="sm" color="fg.muted">
            <Trans>为保护账号安全，更换手机号需要输入当前密码。</Trans>
          </Text>
          <Field.Root invalid={touched && !password}>
            <Field.Label>
              <Trans>当前密码</Trans>
            </Field.Label>
            <Input
              type="password"
              name="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <Field.ErrorText>
              <Trans>请输入当前密码</Trans>
            </Field.ErrorText>
          </Field.Root>
          <Field.Root invalid={phoneInvalid}>
            <Field.Label>
              <Trans>新手机号</Trans>
            </Field.Label>
            <Input
              name="phone"
              type="tel"
              inputMode="numeric"
              autoComplete="tel"
              value={phone}
              onChange={(e) => setPhone(e.target.value.trim())}
            />
            <Field.ErrorText>
              <Trans>请输入与当前不同的 11 位手机号</Trans>
            </Field.ErrorText>
          </Field.Root>
          <Field.Root invalid={codeInvalid}>
            <Field.Label>
              <Trans>短信验证码</Trans>
            </Field.Label>
            <HStack w="full">
              <Input
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                value={code}
                onChange={(e) => setCode(e.target.value.trim())}
              />
              <SmsCodeButton phone={phone} purpose="phone" onInvalidPhone={() => setPhoneTouched(true)} />
            </HStack>
            <Field.ErrorText>
              <Trans>请输入 6 位短信验证码</Trans>
            </Field.ErrorText>
          </Field.Root>
          <Button type="submit" alignSelf="flex-start" colorPalette="blue" loading={save.isPending}>
            <Trans>更换手机号</Trans>
          </Button>
        </Stack>
      </form>
    </Card>
  );
}

export function FeedbackForm() {
  const { t } = useLingui();
  const [content, setContent] = useState('');
  const [contact, setContact] = useState('');
  const [touched, setTouched] = useState(false);
  const send = useMutation({
    mutationFn: () => leaveMessage(content.trim(), contact.trim() || undefined),
    onSuccess: () => {
      notify({ status: 'success', title: '操作成功' });
      setContent('');
      setContact('');
      setTouched(false);
    },
  });
  const invalid = touched && content.trim().length === 0;
  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (content.trim()) send.mutate();
  }
  return (
    <Card title={<Trans>意见反馈</Trans>}>
      <form onSubmit={submit} noValidate aria-label={t`意见反馈`}>
        <Stack gap="4">
          <Field.Root invalid={invalid}>
            <Field.Label>
              <Trans>留言内容</Trans>
            </Field.Label>
            <Textarea
              name="content"
              rows={3}
              maxLength={2000}
              value={content}
              onChange={(e) => setContent(e.target.value)}
            />
            <Field.ErrorText>
              <Trans>请输入留言内容</Trans>
            </Field.ErrorText>
          </Field.Root>
          <Field.Root>
            <Field.Label>
              <Trans>联系方式（选填）</Trans>
            </Field.Label>
            <Input name="contact" value={contact} onChange={(e) => setContact(e.target.value)} />
          </Field.Root>
          <Button type="submit" alignSelf="flex-start" colorPalette="blue" loading={send.isPending}>
            <Trans>提交</Trans>
          </Button>
        </Stack>
      </form>
    </Card>
  );
}

/** Closing the account is real and final (POST /user/cancellation); it asks twice. */
export function CloseAccountForm() {
  const { t } = useLingui();
  const { send: sendToSession } = useSession();
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const close = useMutation({
    mutationFn: () => cancelAccount(password),
    onSuccess: () => sendToSession({ type: 'logout requested' }),
  });
  const wrong = fieldError(close.error, 400);
  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (password) setConfirming(true);
  }
  return (
    <Card danger title={<Trans>注销账号</Trans>}>
      <form onSubmit={submit} noValidate aria-label={t`注销账号`}>
        <Stack gap="4" maxW="md">
          <Text fontSize="sm" color="fg.muted">
            <Trans>注销后账号将被关闭，所有登录立即失效，手机号可重新注册。此操作无法撤销。</Trans>
          </Text>
          <Field.Root invalid={(touched && !password) || Boolean(wrong)}>
            <Field.Label>
              <Trans>当前密码</Trans>
            </Field.Label>
            <Input
              type="password"
              name="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <Field.ErrorText>{wrong ?? <Trans>请输入当前密码</Trans>}</Field.ErrorText>
          </Field.Root>
          <Button type="submit" alignSelf="flex-start" variant="outline" colorPalette="red" loading={close.isPending}>
            <Trans>注销账号</Trans>
          </Button>
        </Stack>
      </form>
      <ConfirmDialog
        open={confirming}
        destructive
        title={<Trans>确定注销账号？</Trans>}
        description={<Trans>账号关闭后无法恢复。</Trans>}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          close.mutate();
        }}
      />
    </Card>
  );
}

import { useCallback, useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Box, Button, Field, Flex, Heading, HStack, Input, Stack, Tabs, Text } from '@chakra-ui/react';
import { MessageCircle, SpellCheck } from 'lucide-react';
import { getRuntimeConfig } from '../../api/config';
import { Link } from 'wouter';
import { useSession } from '../app-actor';
import { translateNotice } from '../notices';
import { ShellControls } from '../layout/ShellControls';
import { PHONE_PATTERN, SMS_CODE_PATTERN, SmsCodeButton } from '../forms/SmsCodeButton';
import { PasswordReset } from './PasswordReset';

const MIN_PASSWORD = 6;

/** The login page (outside the main layout): phone + password, registration with an SMS code, a forgotten password. */
export default function Login() {
  const { t } = useLingui();
  const [tab, setTab] = useState<'login' | 'register'>('login');
  const [resetting, setResetting] = useState(false);
  /** the phone whose password was just reset: the login form starts with it and says so */
  const [resetPhone, setResetPhone] = useState<string | null>(null);
  const resetDone = useCallback((phone: string) => {
    setResetPhone(phone);
    setResetting(false);
    setTab('login');
  }, []);
  return (
    <Flex as="main" minH="100vh" align="center" justify="center" bg="canvas" px="4" py="10" position="relative">
      <Box position="absolute" top="4" right="4">
        <ShellControls />
      </Box>
      <Box w="full" maxW="420px">
        <HStack gap="3" mb="6" justify="center">
          <Flex boxSize="10" borderRadius="lg" bg="blue.solid" color="white" align="center" justify="center">
            <SpellCheck size={22} aria-hidden />
          </Flex>
          <Heading size="xl" as="h1">
            <Trans>智能校对工作台</Trans>
          </Heading>
        </HStack>
        <Box bg="panel" borderWidth="1px" borderRadius="2xl" boxShadow="sm" p={{ base: '6', md: '8' }}>
          {resetting ? (
            <PasswordReset onBack={() => setResetting(false)} onDone={resetDone} />
          ) : (
            <Tabs.Root
              value={tab}
              onValueChange={(d) => setTab(d.value as 'login' | 'register')}
              variant="enclosed"
              fitted
              lazyMount
            >
              <Tabs.List mb="6" aria-label={t`登录或注册`}>
                <Tabs.Trigger value="login">
                  <Trans>登录</Trans>
                </Tabs.Trigger>
                <Tabs.Trigger value="register">
                  <Trans>注册</Trans>
                </Tabs.Trigger>
              </Tabs.List>
              <Tabs.Content value="login">
                <LoginForm
                  initialPhone={resetPhone ?? ''}
                  passwordReset={resetPhone !== null}
                  onForgot={() => {
                    setResetPhone(null);
                    setResetting(true);
                  }}
                />
              </Tabs.Content>
              <Tabs.Content value="register">
                <RegisterForm />
              </Tabs.Content>
            </Tabs.Root>
          )}
        </Box>
        <Text mt="6" textAlign="center" fontSize="sm" color="fg.muted">
          <Trans>
            登录即表示您同意{' '}
            <Link href="/rules" style={{ textDecoration: 'underline' }}>
              用户规则
            </Link>
          </Trans>
        </Text>
      </Box>
    </Flex>
  );
}

function SessionError() {
  const { i18n } = useLingui();
  const { error } = useSession();
  if (!error) return null;
  return (
    <Alert.Root status="error" borderRadius="md" role="alert">
      <Alert.Indicator />
      <Alert.Title>{translateNotice(i18n, error)}</Alert.Title>
    </Alert.Root>
  );
}

/** The phone number field shared by the login and registration forms. */
function PhoneField(props: {
  invalid: boolean;
  value: string;
  onChange: (phone: string) => void;
  autoComplete: 'username' | 'tel';
}) {
  const { t } = useLingui();
  return (
    <Field.Root invalid={props.invalid} required>
      <Field.Label>
        <Trans>手机号</Trans>
      </Field.Label>
      <Input
        name="phone"
        type="tel"
        inputMode="numeric"
        autoComplete={props.autoComplete}
        placeholder={t`请输入手机号`}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value.trim())}
      />
      <Field.ErrorText>
        <Trans>请输入 11 位手机号</Trans>
      </Field.ErrorText>
    </Field.Root>
  );
}

function LoginForm(props: { initialPhone: string; passwordReset: boolean; onForgot(): void }) {
  const { t } = useLingui();
  const { status, send } = useSession();
  const { wxURL } = getRuntimeConfig();
  const [phone, setPhone] = useState(props.initialPhone);
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const phoneInvalid = touched && !PHONE_PATTERN.test(phone);
  const passwordInvalid = touched && password.length === 0;
  const busy = status === 'loggingIn';

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (!PHONE_PATTERN.test(phone) || password.length === 0) return;
    send({ type: 'login submitted', phone, password });
  }

  return (
    <form onSubmit={submit} noValidate aria-label={t`登录`}>
      <Stack gap="4">
        <PhoneField invalid={phoneInvalid} value={phone} onChange={setPhone} autoComplete="username" />
        <Field.Root invalid={passwordInvalid} required>
          <Field.Label>
            <Trans>密码</Trans>
          </Field.Label>
          <Input
            name="password"
            type="password"
            autoComplete="current-password"
            placeholder={t`请输入密码`}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <Field.ErrorText>
            <Trans>请输入密码</Trans>
          </Field.ErrorText>
        </Field.Root>
        <Button
          type="button"
          variant="plain"
          size="sm"
          alignSelf="flex-end"
          mt="-2"
          color="fg.muted"
          onClick={props.onForgot}
          data-testid="forgot-password"
        >
          <Trans>忘记密码？</Trans>
        </Button>
        {props.passwordReset ? (
          <Alert.Root status="success" borderRadius="md" role="status" data-testid="password-reset-done">
            <Alert.Indicator />
            <Alert.Title>
              <Trans>密码已重置，请用新密码登录</Trans>
            </Alert.Title>
          </Alert.Root>
        ) : null}
        <SessionError />
        <Button type="submit" colorPalette="blue" size="lg" loading={busy} loadingText={t`登录中…`}>
          <Trans>登录</Trans>
        </Button>
        {/* only when this server has WeChat login (spec §1 wxURL): a navigation to WeChat's QR-code page */}
        {wxURL ? (
          <Button asChild variant="outline" colorPalette="green" size="lg">
            <a href={wxURL} data-testid="wechat-login">
              <MessageCircle aria-hidden />
              <Trans>微信扫码登录</Trans>
            </a>
          </Button>
        ) : null}
      </Stack>
    </form>
  );
}

function RegisterForm() {
  const { t } = useLingui();
  const { status, send } = useSession();
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [touched, setTouched] = useState(false);
  const [phoneTouched, setPhoneTouched] = useState(false);
  const [sent, setSent] = useState(false);

  const phoneInvalid = (touched || phoneTouched) && !PHONE_PATTERN.test(phone);
  const codeInvalid = touched && !SMS_CODE_PATTERN.test(code);
  const passwordInvalid = touched && password.length < MIN_PASSWORD;
  const confirmInvalid = touched && confirm !== password;
  const busy = status === 'registering';

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (
      !PHONE_PATTERN.test(phone) ||
      !SMS_CODE_PATTERN.test(code) ||
      password.length < MIN_PASSWORD ||
      confirm !== password
    ) {
      return;
    }
    const trimmedName = name.trim();
    send({ type: 'register submitted', phone, code, password, ...(trimmedName ? { name: trimmedName } : {}) });
  }

  return (
    <form onSubmit={submit} noValidate aria-label={t`注册`}>
      <Stack gap="4">
        <PhoneField invalid={phoneInvalid} value={phone} onChange={setPhone} autoComplete="tel" />
        <Field.Root invalid={codeInvalid} required>
          <Field.Label>
            <Trans>短信验证码</Trans>
          </Field.Label>
          <HStack w="full">
            <Input
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              placeholder={t`请输入验证码`}
              value={code}
              onChange={(e) => setCode(e.target.value.trim())}
            />
            <SmsCodeButton
              phone={phone}
              purpose="register"
              onInvalidPhone={() => setPhoneTouched(true)}
              onSent={() => setSent(true)}
            />
          </HStack>
          {sent ? (
            <Field.HelperText>
              <Trans>验证码已发送，请查收短信</Trans>
            </Field.HelperText>
          ) : null}
          <Field.ErrorText>
            <Trans>请输入 6 位短信验证码</Trans>
          </Field.ErrorText>
        </Field.Root>
        <Field.Root>
          <Field.Label>
            <Trans>昵称（选填）</Trans>
          </Field.Label>
          <Input name="name" autoComplete="nickname" value={name} onChange={(e) => setName(e.target.value)} />
        </Field.Root>
        <Field.Root invalid={passwordInvalid} required>
          <Field.Label>
            <Trans>密码</Trans>
          </Field.Label>
          <Input
            name="password"
            type="password"
            autoComplete="new-password"
            placeholder={t`至少 6 位`}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <Field.ErrorText>
            <Trans>密码至少 6 位</Trans>
          </Field.ErrorText>
        </Field.Root>
        <Field.Root invalid={confirmInvalid} required>
          <Field.Label>
            <Trans>确认密码</Trans>
          </Field.Label>
          <Input
            name="confirm"
            type="password"
            autoComplete="new-password"
            placeholder={t`再次输入密码`}
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
          />
          <Field.ErrorText>
            <Trans>两次输入的密码不一致</Trans>
          </Field.ErrorText>
        </Field.Root>
        <SessionError />
        <Button type="submit" colorPalette="blue" size="lg" loading={busy} loadingText={t`注册中…`}>
          <Trans>注册并登录</Trans>
        </Button>
      </Stack>
    </form>
  );
}

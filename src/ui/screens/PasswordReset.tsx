// The login page's 忘记密码: phone, SMS code, new password and its confirmation (src/machines/passwordReset.ts), each
// field with its own error; done, the login form comes back with the phone filled in and a message saying so.
import { useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Field, Heading, HStack, Input, Stack } from '@chakra-ui/react';
import { useActorRef, useSelector } from '@xstate/react';
import { livePasswordReset } from '../../machines/live-password';
import { inspectOptions } from '../../machines/inspect';
import type { FieldErrors, ResetField } from '../../machines/passwordReset';
import { translateNotice } from '../notices';

export function PasswordReset(props: { onBack(): void; onDone(phone: string): void }) {
  const { t, i18n } = useLingui();
  const logic = useMemo(() => livePasswordReset(), []);
  const actor = useActorRef(logic, inspectOptions());
  const errors = useSelector(actor, (s) => s.context.errors);
  const cooldown = useSelector(actor, (s) => s.context.cooldown);
  const codeSent = useSelector(actor, (s) => s.context.codeSent);
  const sending = useSelector(actor, (s) => s.matches({ code: 'sending' }));
  const resetting = useSelector(actor, (s) => s.matches({ form: 'resetting' }));
  const done = useSelector(actor, (s) => s.matches({ form: 'done' }));
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const resetPhone = useSelector(actor, (s) => s.context.phone);
  const { onDone } = props;
  useEffect(() => {
    if (done) onDone(resetPhone);
  }, [done, resetPhone, onDone]);

  const edited = (field: ResetField, set: (value: string) => void) => (value: string) => {
    set(value);
    if (errors[field] || errors.form) actor.send({ type: 'field edited', field });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'reset submitted', phone, code, password, confirm });
  };
  const serverError = (field: ResetField): string | null => {
    const error = errors[field];
    return error && error !== 'invalid' ? translateNotice(i18n, error.message) : null;
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t`重置密码`} data-testid="password-reset">
      <Stack gap="4">
        <Heading size="md" as="h2">
          <Trans>重置密码</Trans>
        </Heading>
        <ResetInput
          field="phone"
          errors={errors}
          label={<Trans>手机号</Trans>}
          invalidText={<Trans>请输入 11 位手机号</Trans>}
          serverText={serverError('phone')}
        >
          <Input
            name="phone"
            type="tel"
            inputMode="numeric"
            autoComplete="username"
            autoFocus
            placeholder={t`请输入手机号`}
            value={phone}
            onChange={(e) => edited('phone', setPhone)(e.target.value.trim())}
          />
        </ResetInput>
        <ResetInput
          field="code"
          errors={errors}
          label={<Trans>短信验证码</Trans>}
          invalidText={<Trans>请输入 6 位短信验证码</Trans>}
          serverText={serverError('code')}
          helper={codeSent ? <Trans>验证码已发送，请查收短信</Trans> : null}
        >
          <HStack w="full">
            <Input
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              placeholder={t`请输入验证码`}
              value={code}
              onChange={(e) => edited('code', setCode)(e.target.value.trim())}
            />
            <Button
              variant="outline"
              flexShrink={0}
              minW="8.5rem"
              loading={sending}
              disabled={cooldown > 0}
              onClick={() => actor.send({ type: 'code requested', phone })}
              data-testid="reset-send-code"
            >
              {cooldown > 0 ? (
                <Trans>{cooldown} 秒后重发</Trans>
              ) : codeSent ? (
                <Trans>重新发送</Trans>
              ) : (
                <Trans>发送验证码</Trans>
              )}
            </Button>
          </HStack>
        </ResetInput>
        <ResetInput
          field="password"
          errors={errors}
          label={<Trans>新密码</Trans>}
          invalidText={<Trans>密码长度应为 6-32 位，且不能全是空格</Trans>}
          serverText={serverError('password')}
        >
          <Input
            name="new-password"
            type="password"
            autoComplete="new-password"
            placeholder={t`至少 6 位`}
            value={password}
            onChange={(e) => edited('password', setPassword)(e.target.value)}
          />
        </ResetInput>
        <ResetInput
          field="confirm"
          errors={errors}
          label={<Trans>确认新密码</Trans>}
          invalidText={<Trans>两次输入的密码不一致</Trans>}
          serverText={null}
        >
          <Input
            name="confirm"
            type="password"
            autoComplete="new-password"
            placeholder={t`再次输入密码`}
            value={confirm}
            onChange={(e) => edited('confirm', setConfirm)(e.target.value)}
          />
        </ResetInput>
        {serverError('form') ? (
          <Alert.Root status="error" borderRadius="md" role="alert" data-testid="reset-error">
            <Alert.Indicator />
            <Alert.Title>{serverError('form')}</Alert.Title>
          </Alert.Root>
        ) : null}
        <Button type="submit" colorPalette="blue" size="lg" loading={resetting} loadingText={t`正在重置…`}>
          <Trans>重置密码</Trans>
        </Button>
        <Button type="button" variant="ghost" onClick={props.onBack} data-testid="reset-back">
          <Trans>返回登录</Trans>
        </Button>
      </Stack>
    </form>
  );
}

/** One field of the form: its label, the control, and its error (the form's check or the server's answer). */
function ResetInput(props: {
  field: ResetField;
  errors: FieldErrors;
  label: ReactNode;
  invalidText: ReactNode;
  serverText: string | null;
  helper?: ReactNode;
  children: ReactNode;
}) {
  const error = props.errors[props.field];
  return (
    <Field.Root invalid={Boolean(error)} required data-testid={`reset-field-${props.field}`}>
      <Field.Label>{props.label}</Field.Label>
      {props.children}
      {props.helper && !error ? <Field.HelperText>{props.helper}</Field.HelperText> : null}
      <Field.ErrorText>{error === 'invalid' ? props.invalidText : props.serverText}</Field.ErrorText>
    </Field.Root>
  );
}

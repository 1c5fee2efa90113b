import { useEffect, useState } from 'react';
import { Trans } from '@lingui/react/macro';
import { Button } from '@chakra-ui/react';
import { sendSmsCode, type SmsPurpose } from '../../api/user';

export const PHONE_PATTERN = /^1\d{10}$/;
export const SMS_CODE_PATTERN = /^\d{6}$/;
const SMS_COOLDOWN_S = 60;

/** Counts down the SMS resend cooldown once a code was sent. */
function useCooldown(): [number, () => void] {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  return [left, () => setLeft(SMS_COOLDOWN_S)];
}

export interface SmsCodeButtonProps {
  phone: string;
  purpose: SmsPurpose;
  /** Called when the phone is not valid, so the form can show why nothing was sent. */
  onInvalidPhone: () => void;
  onSent?: () => void;
}

/**
 * "Send code" with a 60 s countdown. Failures (rate limit, phone already registered) show through
 * the error catalogue's notice, so the button only has to re-enable itself.
 */
export function SmsCodeButton({ phone, purpose, onInvalidPhone, onSent }: SmsCodeButtonProps) {
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const [cooldown, startCooldown] = useCooldown();

  async function send() {
    if (!PHONE_PATTERN.test(phone)) {
      onInvalidPhone();
      return;
    }
    setSending(true);
    try {
      await sendSmsCode(phone, purpose);
      setSent(true);
      startCooldown();
      onSent?.();
    } catch {
      // The notice already says what went wrong.
    } finally {
      setSending(false);
    }
  }

  return (
    <Button variant="outline" flexShrink={0} minW="8.5rem" onClick={send} loading={sending} disabled={cooldown > 0}>
      {cooldown > 0 ? <Trans>{cooldown} 秒后重发</Trans> : sent ? <Trans>重新发送</Trans> : <Trans>发送验证码</Trans>}
    </Button>
  );
}

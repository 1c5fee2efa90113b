// A text longer than one check of the plan allows (the server's 413 check.too_long): the limit is said as it is, with
// the two ways on (check the first part now and the rest with one more click, or upgrade); never the quota dialog.
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, CloseButton, HStack } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { Link } from 'wouter';
import { uncheckedChars, type ProofreadJobRef } from '../../machines/proofreadJob';
import { formatBalance } from '../format/balance';

/** On every screen whose text is checked by a proofreading job: the choice while it is asked, then the rest. */
export function TooLongChoice({ job }: { job: ProofreadJobRef }) {
  const { t, i18n } = useLingui();
  const tooLong = useSelector(job, (s) => (s.matches({ job: 'tooLong' }) ? s.context.tooLong : null));
  // after a part, what is left to check (0 when the text was not checked in parts or nothing is left)
  const rest = useSelector(job, (s) =>
    s.matches({ job: 'done' }) && s.context.partLimit !== null ? uncheckedChars(s.context) : 0,
  );
  if (tooLong) {
    const limit = formatBalance(i18n, tooLong.max, 'chars');
    const total = formatBalance(i18n, tooLong.total, 'chars');
    return (
      <Alert.Root status="warning" data-testid="too-long">
        <Alert.Indicator />
        <Alert.Content gap="2">
          <Alert.Title>
            <Trans>单次最多校对 {limit}</Trans>
          </Alert.Title>
          <Alert.Description>
            <Trans>
              这段文字有 {total}。可以先校对前 {limit}
              ，余下的再点一次接着校对（每部分校对时计字数）；或升级会员，提高单次上限。
            </Trans>
          </Alert.Description>
          <HStack gap="2" wrap="wrap">
            {tooLong.max > 0 ? (
              <Button
                size="sm"
                colorPalette="blue"
                onClick={() => job.send({ type: 'first part chosen' })}
                data-testid="check-first-part"
              >
                <Trans>先校对前 {limit}</Trans>
              </Button>
            ) : null}
            <Button asChild size="sm" variant="outline">
              <Link href="/upgrade" data-testid="too-long-upgrade">
                <Trans>升级会员</Trans>
              </Link>
            </Button>
          </HStack>
        </Alert.Content>
        <CloseButton
          size="sm"
          aria-label={t`关闭`}
          onClick={() => job.send({ type: 'too long dismissed' })}
          data-testid="too-long-dismiss"
        />
      </Alert.Root>
    );
  }
  if (rest <= 0) return null;
  const left = formatBalance(i18n, rest, 'chars');
  return (
    <Alert.Root status="info" data-testid="check-rest">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>
          <Trans>还有 {left} 未校对</Trans>
        </Alert.Title>
      </Alert.Content>
      <Button
        size="sm"
        colorPalette="blue"
        onClick={() => job.send({ type: 'check requested' })}
        data-testid="check-rest-button"
      >
        <Trans>接着校对余下部分</Trans>
      </Button>
    </Alert.Root>
  );
}

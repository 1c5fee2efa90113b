// The cancel control of a running check (POST /misscut/v1/cancel): on every screen whose check streams.
import { Trans } from '@lingui/react/macro';
import { Button } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import type { ProofreadJobRef } from '../../machines/proofreadJob';

/** Shown while the check is sent or streams; a cancel before its id is known takes effect as soon as it is. */
export function CancelCheckButton({ job }: { job: ProofreadJobRef }) {
  const running = useSelector(job, (s) => s.matches({ job: 'submitting' }) || s.matches({ job: 'streaming' }));
  const asked = useSelector(job, (s) => s.context.cancelWanted);
  if (!running) return null;
  return (
    <Button
      size="sm"
      variant="outline"
      colorPalette="red"
      loading={asked}
      onClick={() => job.send({ type: 'cancel requested' })}
      data-testid="cancel-check"
    >
      <Trans>取消校对</Trans>
    </Button>
  );
}

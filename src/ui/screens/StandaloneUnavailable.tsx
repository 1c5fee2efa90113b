import type { MessageDescriptor } from '@lingui/core';
import { StandaloneShell } from '../layout/StandaloneShell';
import FeatureUnavailable from './FeatureUnavailable';

/** /rules lives outside the main layout (spec §2) and belongs to a later issue. */
export default function StandaloneUnavailable({ feature }: { feature: MessageDescriptor }) {
  return (
    <StandaloneShell maxW="3xl">
      <FeatureUnavailable feature={feature} />
    </StandaloneShell>
  );
}

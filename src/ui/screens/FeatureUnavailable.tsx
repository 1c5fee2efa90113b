import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { Box, EmptyState, VStack } from '@chakra-ui/react';
import { Construction } from 'lucide-react';

/**
 * The honest screen for a feature that a later issue builds: it names the feature and says it is
 * not available yet, and shows no sample data.
 */
export default function FeatureUnavailable({ feature }: { feature: MessageDescriptor }) {
  const { i18n } = useLingui();
  const name = i18n._(feature);
  return (
    <Box bg="panel" borderWidth="1px" borderRadius="xl" py="16" px="6" data-testid="feature-unavailable">
      <EmptyState.Root size="lg">
        <EmptyState.Content>
          <EmptyState.Indicator>
            <Construction />
          </EmptyState.Indicator>
          <VStack textAlign="center" gap="2">
            <EmptyState.Title>
              <Trans>「{name}」尚未开放</Trans>
            </EmptyState.Title>
            <EmptyState.Description maxW="md">
              <Trans>该功能正在建设中，将在后续版本中提供。此处不会显示任何示例数据。</Trans>
            </EmptyState.Description>
          </VStack>
        </EmptyState.Content>
      </EmptyState.Root>
    </Box>
  );
}

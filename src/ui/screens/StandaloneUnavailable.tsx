import type { MessageDescriptor } from '@lingui/core';
import { Trans } from '@lingui/react/macro';
import { Box, Button, Container, Flex } from '@chakra-ui/react';
import { Link } from 'wouter';
import { ShellControls } from '../layout/ShellControls';
import FeatureUnavailable from './FeatureUnavailable';

/** /rules and /redemption live outside the main layout (spec §2); both belong to later issues. */
export default function StandaloneUnavailable({ feature }: { feature: MessageDescriptor }) {
  return (
    <Box minH="100vh" bg="canvas">
      <Flex justify="space-between" align="center" px="6" h="16">
        <Button asChild variant="ghost" size="sm">
          <Link href="/">
            <Trans>返回工作台</Trans>
          </Link>
        </Button>
        <ShellControls />
      </Flex>
      <Container maxW="3xl" py="10">
        <FeatureUnavailable feature={feature} />
      </Container>
    </Box>
  );
}

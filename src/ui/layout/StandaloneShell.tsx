import type { ReactNode } from 'react';
import { Trans } from '@lingui/react/macro';
import { Box, Button, Container, Flex } from '@chakra-ui/react';
import { Link } from 'wouter';
import { ShellControls } from './ShellControls';

/** The frame of the pages outside the main layout (spec §2: /rules, /redemption): back to the workbench,
 *  language and theme controls, and the page centred below. */
export function StandaloneShell({ maxW, children }: { maxW: string; children: ReactNode }) {
  return (
    <Box minH="100vh" bg="canvas">
      <Flex as="header" justify="space-between" align="center" px="6" h="16">
        <Button asChild variant="ghost" size="sm">
          <Link href="/">
            <Trans>返回工作台</Trans>
          </Link>
        </Button>
        <ShellControls />
      </Flex>
      <Container maxW={maxW} py="10">
        {children}
      </Container>
    </Box>
  );
}

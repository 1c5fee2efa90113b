import type { ReactNode } from 'react';
import { Box, EmptyState, VStack } from '@chakra-ui/react';

/** An empty list's panel: an icon, what is empty and (optionally) what to do about it. */
export function EmptyPanel(props: { icon: ReactNode; title: ReactNode; description?: ReactNode; testId: string }) {
  return (
    <Box bg="panel" borderWidth="1px" borderRadius="xl" py="12" data-testid={props.testId}>
      <EmptyState.Root size="sm">
        <EmptyState.Content>
          <EmptyState.Indicator>{props.icon}</EmptyState.Indicator>
          <VStack textAlign="center">
            <EmptyState.Title as="h2">{props.title}</EmptyState.Title>
            {props.description ? <EmptyState.Description>{props.description}</EmptyState.Description> : null}
          </VStack>
        </EmptyState.Content>
      </EmptyState.Root>
    </Box>
  );
}

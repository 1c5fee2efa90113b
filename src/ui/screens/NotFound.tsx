import { Trans } from '@lingui/react/macro';
import { Box, Button, EmptyState, VStack } from '@chakra-ui/react';
import { SearchX } from 'lucide-react';
import { Link } from 'wouter';

export default function NotFound() {
  return (
    <Box bg="panel" borderWidth="1px" borderRadius="xl" py="16" px="6">
      <EmptyState.Root size="lg">
        <EmptyState.Content>
          <EmptyState.Indicator>
            <SearchX />
          </EmptyState.Indicator>
          <VStack textAlign="center" gap="2">
            <EmptyState.Title as="h2">
              <Trans>页面不存在</Trans>
            </EmptyState.Title>
            <EmptyState.Description>
              <Trans>您访问的地址没有对应的页面。</Trans>
            </EmptyState.Description>
          </VStack>
          <Button asChild variant="outline">
            <Link href="/">
              <Trans>返回首页</Trans>
            </Link>
          </Button>
        </EmptyState.Content>
      </EmptyState.Root>
    </Box>
  );
}

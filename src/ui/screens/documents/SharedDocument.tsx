// /share-doc?id=<share id> (outside the main layout): the read-only view of a shared document
// for whoever holds the link (get_share_doc needs no login); a logged-in user may save a copy.
import { Trans } from '@lingui/react/macro';
import { Box, Text, VStack } from '@chakra-ui/react';
import { useSearch } from 'wouter';
import { DocumentView } from './DocumentEditor';

export default function SharedDocument() {
  const shareId = new URLSearchParams(useSearch()).get('id') ?? '';
  return (
    <Box minH="100vh" bg="canvas" px={{ base: '4', md: '8' }} py="6" data-testid="shared-document">
      {/^[A-Za-z0-9_-]{8,64}$/.test(shareId) ? (
        <DocumentView id={null} shareId={shareId} />
      ) : (
        <VStack py="20">
          <Text>
            <Trans>分享链接无效</Trans>
          </Text>
        </VStack>
      )}
    </Box>
  );
}

import { useEffect } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { useSystemActor } from '../app-actor';
import { Box, Flex, Stack, Text } from '@chakra-ui/react';
import { SpellCheck } from 'lucide-react';
import { Link } from 'wouter';
import { useQuery } from '@tanstack/react-query';
import { invitationsQuery, userInfoQuery } from '../../api/queries';
import { NAV_ROUTES, type WorkbenchRoute } from '../routes';

/** The side bar: every screen of the main layout, the current one marked. */
export function SideBar({ current }: { current: WorkbenchRoute | undefined }) {
  const { t, i18n } = useLingui();
  const me = useQuery(userInfoQuery({ silent: true }));
  const invitations = useQuery(invitationsQuery({ silent: true }));
  const inTeam = me.data?.enterprise_id != null || (invitations.data?.length ?? 0) > 0;
  // a document's background job ended (socket type 2 cmd 1): the document list lights up until it is seen
  const notices = useSystemActor('notices');
  const documentsChanged = useSelector(notices, (s) => s.context.documentsChanged);
  const onDocuments = current?.path === '/document';
  useEffect(() => {
    if (onDocuments && documentsChanged) notices.send({ type: 'documents seen' });
  }, [onDocuments, documentsChanged, notices]);
  return (
    <Box
      as="nav"
      aria-label={t`主导航`}
      data-testid="side-bar"
      w={{ base: '16', lg: '60' }}
      flexShrink={0}
      bg="panel"
      borderRightWidth="1px"
      h="100vh"
      position="sticky"
      top="0"
      overflowY="auto"
    >
      <Flex align="center" gap="2.5" px={{ base: '3', lg: '5' }} h="16" borderBottomWidth="1px">
        <Flex
          boxSize="9"
          flexShrink={0}
          borderRadius="lg"
          bg="blue.solid"
          color="white"
          align="center"
          justify="center"
        >
          <SpellCheck size={20} aria-hidden />
        </Flex>
        <Text fontWeight="semibold" fontSize="md" display={{ base: 'none', lg: 'block' }} lineClamp={1}>
          <Trans>智能校对工作台</Trans>
        </Text>
      </Flex>
      <Stack as="ul" gap="0.5" p="2" listStyleType="none">
        {NAV_ROUTES.filter((route) => !route.teamOnly || inTeam || route.path === current?.path).map((route) => {
          const active = route.path === current?.path;
          const label = i18n._(route.label);
          const Icon = route.icon;
          return (
            <li key={route.path}>
              <Link href={route.path} asChild>
                <Flex
                  as="a"
                  aria-current={active ? 'page' : undefined}
                  title={label}
                  align="center"
                  gap="3"
                  px="3"
                  py="2.5"
                  borderRadius="md"
                  fontSize="sm"
                  fontWeight={active ? 'semibold' : 'normal'}
                  color={active ? 'blue.fg' : 'fg'}
                  bg={active ? 'blue.subtle' : 'transparent'}
                  justifyContent={{ base: 'center', lg: 'flex-start' }}
                  _hover={{ bg: active ? 'blue.subtle' : 'bg.muted' }}
                  focusRing="outside"
                >
                  <Icon size={18} aria-hidden style={{ flexShrink: 0 }} />
                  <Text as="span" flex="1" display={{ base: 'none', lg: 'inline' }} lineClamp={1}>
                    {label}
                  </Text>
                  {route.path === '/document' && documentsChanged && !onDocuments ? (
                    <Box
                      boxSize="2"
                      borderRadius="full"
                      bg="red.solid"
                      flexShrink={0}
                      role="img"
                      aria-label={t`有文档处理完成`}
                      data-testid="documents-flag"
                    />
                  ) : null}
                </Flex>
              </Link>
            </li>
          );
        })}
      </Stack>
    </Box>
  );
}

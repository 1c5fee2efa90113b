// The bell in the header: the user's notices (spec §3 noticeList) with a badge of the unread ones; opening the list
// reads them. The notices machine (systemId 'notices') holds them.
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Box, Button, EmptyState, Flex, IconButton, Popover, Portal, Stack, Text } from '@chakra-ui/react';
import { Bell } from 'lucide-react';
import { useSelector } from '@xstate/react';
import { unreadOf } from '../../machines/notices';
import { useSystemActor } from '../app-actor';
import { ANNOUNCEMENT_TITLES, announcementText } from './announcements';

export function NoticeBell() {
  const { t, i18n } = useLingui();
  const notices = useSystemActor('notices');
  const list = useSelector(notices, (s) => s.context.list);
  const unread = unreadOf(list);
  const shown = [...list].sort((a, b) => b.id - a.id);
  return (
    <Popover.Root positioning={{ placement: 'bottom-end' }}>
      {/* the trigger is the button itself: aria-haspopup and aria-expanded are not allowed on a plain div */}
      <Box position="relative">
        <Popover.Trigger asChild>
          <IconButton
            variant="ghost"
            size="sm"
            aria-label={unread ? t`消息通知，${unread} 条未读` : t`消息通知`}
            data-testid="notice-bell"
            data-unread={unread}
          >
            <Bell />
          </IconButton>
        </Popover.Trigger>
        {unread ? (
          <Badge
            position="absolute"
            top="-1"
            insetEnd="-1"
            size="xs"
            colorPalette="red"
            variant="solid"
            borderRadius="full"
            pointerEvents="none"
            data-testid="notice-badge"
          >
            {unread > 99 ? '99+' : unread}
          </Badge>
        ) : null}
      </Box>
      <Portal>
        <Popover.Positioner>
          <Popover.Content w="sm" data-testid="notice-list">
            <Popover.Header>
              <Flex align="center">
                <Text fontWeight="semibold">
                  <Trans>消息通知</Trans>
                </Text>
                <Box flex="1" />
                <Button
                  size="xs"
                  variant="ghost"
                  disabled={!list.some((n) => !n.read)}
                  onClick={() => notices.send({ type: 'read all' })}
                  data-testid="notice-read-all"
                >
                  <Trans>全部已读</Trans>
                </Button>
              </Flex>
            </Popover.Header>
            <Popover.Body maxH="md" overflowY="auto" pt="0">
              {shown.length === 0 ? (
                <EmptyState.Root size="sm">
                  <EmptyState.Content>
                    <EmptyState.Indicator>
                      <Bell />
                    </EmptyState.Indicator>
                    <EmptyState.Description>
                      <Trans>暂无通知</Trans>
                    </EmptyState.Description>
                  </EmptyState.Content>
                </EmptyState.Root>
              ) : (
                <Stack gap="2">
                  {shown.map((n) => (
                    <Box
                      key={n.id}
                      as="button"
                      textAlign="start"
                      borderWidth="1px"
                      borderRadius="md"
                      p="2.5"
                      bg={n.read ? undefined : 'blue.subtle/40'}
                      onClick={() => notices.send({ type: 'read', ids: [n.id] })}
                      data-testid="notice-item"
                      data-read={n.read}
                    >
                      <Flex align="center" gap="2">
                        <Text fontSize="sm" fontWeight={n.read ? 'normal' : 'semibold'}>
                          {i18n._(ANNOUNCEMENT_TITLES[n.announcement_type] ?? ANNOUNCEMENT_TITLES[0])}
                        </Text>
                        <Box flex="1" />
                        <Text fontSize="xs" color="fg.muted">
                          {new Date(n.created_at).toLocaleDateString()}
                        </Text>
                      </Flex>
                      <Text fontSize="sm" color="fg.muted" whiteSpace="pre-wrap" lineClamp={4}>
                        {announcementText(n)}
                      </Text>
                    </Box>
                  ))}
                </Stack>
              )}
            </Popover.Body>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  );
}

// The side bar's links in a drawer for phones. Its code (a dialog with a focus trap) loads after the first paint,
// with the layout's other dialogs (lazy-parts.ts); the links come from the layout, so this chunk imports no more of
// the app than the dialogs do.
import type { ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Box, CloseButton, Drawer, Portal } from '@chakra-ui/react';

/** A drawer from the start edge with `title` (the product mark) above `children` (the side bar's links). */
export function NavDrawer({
  open,
  onOpenChange,
  title,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  children: ReactNode;
}) {
  const { t } = useLingui();
  return (
    <Drawer.Root open={open} onOpenChange={(d) => onOpenChange(d.open)} placement="start" size="xs">
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content data-testid="nav-drawer" bg="panel">
            {/* the title's recipe grows it (flex 1): here it is only the product mark above the links */}
            <Drawer.Title asChild flex="none">
              <Box>{title}</Box>
            </Drawer.Title>
            <Box as="nav" aria-label={t`主导航`} overflowY="auto" flex="1" minH="0">
              {children}
            </Box>
            <Drawer.CloseTrigger asChild position="absolute" top="3.5" insetEnd="3">
              <CloseButton size="sm" aria-label={t`关闭菜单`} />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}

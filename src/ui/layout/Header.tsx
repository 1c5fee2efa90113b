import { Suspense, useEffect } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Box, Flex, Heading, HStack, IconButton } from '@chakra-ui/react';
import { ArrowLeft, Menu } from 'lucide-react';
import { Link } from 'wouter';
import type { WorkbenchRoute } from '../routes';
import { LanguageSwitch } from './LanguageSwitch';
import { NoticeBell, UserMenu } from './lazy-parts';

/** `onOpenNav` opens the side bar's drawer: the menu button shows below the md breakpoint, where the side bar hides. */
export function Header({ route, onOpenNav }: { route: WorkbenchRoute | undefined; onOpenNav?: () => void }) {
  const { t, i18n } = useLingui();
  const title = route ? i18n._(route.label) : null;
  const product = t`智能校对工作台`;
  // The tab and the browser history name the screen too.
  useEffect(() => {
    document.title = title ? `${title} · ${product}` : product;
  }, [title, product]);
  return (
    <Flex
      as="header"
      align="center"
      justify="space-between"
      gap={{ base: '2', md: '4' }}
      minH="16"
      py="2"
      px={{ base: '3', md: '8' }}
      bg="panel"
      borderBottomWidth="1px"
      position="sticky"
      top="0"
      zIndex="docked"
    >
      <HStack gap="2" minW="0">
        {route?.hideSlide ? null : (
          <IconButton
            variant="ghost"
            size="sm"
            display={{ base: 'inline-flex', md: 'none' }}
            aria-label={t`打开导航菜单`}
            onClick={onOpenNav}
            data-testid="nav-menu-button"
          >
            <Menu />
          </IconButton>
        )}
        {route?.hideSlide ? (
          // No side bar here: give a way back to the workbench.
          <IconButton asChild variant="ghost" size="sm" aria-label={t`返回工作台`}>
            <Link href="/">
              <ArrowLeft />
            </Link>
          </IconButton>
        ) : null}
        {/* on a phone a long title takes a second line rather than being cut */}
        <Heading as="h1" size={{ base: 'sm', md: 'md' }} lineClamp={{ base: 2, md: 1 }} data-testid="page-title">
          {title}
        </Heading>
      </HStack>
      <HStack gap={{ base: '1', md: '3' }} flexShrink={0}>
        <LanguageSwitch />
        <Suspense fallback={<Box w="8" h="8" aria-hidden />}>
          <NoticeBell />
        </Suspense>
        {/* the menu's code (menus, popovers) follows the first paint; the space it takes is held meanwhile */}
        <Suspense fallback={<Box w="24" h="8" aria-hidden />}>
          <UserMenu />
        </Suspense>
      </HStack>
    </Flex>
  );
}

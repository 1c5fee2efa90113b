import { Suspense, useEffect } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Box, Flex, Heading, HStack, IconButton } from '@chakra-ui/react';
import { ArrowLeft } from 'lucide-react';
import { Link } from 'wouter';
import type { WorkbenchRoute } from '../routes';
import { LanguageSwitch } from './LanguageSwitch';
import { NoticeBell, UserMenu } from './lazy-parts';

export function Header({ route }: { route: WorkbenchRoute | undefined }) {
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
      gap="4"
      h="16"
      px={{ base: '4', md: '8' }}
      bg="panel"
      borderBottomWidth="1px"
      position="sticky"
      top="0"
      zIndex="docked"
    >
      <HStack gap="2" minW="0">
        {route?.hideSlide ? (
          // No side bar here: give a way back to the workbench.
          <IconButton asChild variant="ghost" size="sm" aria-label={t`返回工作台`}>
            <Link href="/">
              <ArrowLeft />
            </Link>
          </IconButton>
        ) : null}
        <Heading as="h1" size="md" lineClamp={1} data-testid="page-title">
          {title}
        </Heading>
      </HStack>
      <HStack gap="3">
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

import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { Trans } from '@lingui/react/macro';
import { Box, Center, Flex, Spinner } from '@chakra-ui/react';
import { Redirect, useLocation } from 'wouter';
import { useSession } from '../app-actor';
import { findRoute, KEEP_ALIVE_ROUTES, type WorkbenchRoute } from '../routes';
import {
  DictionaryScreen,
  DiffScreen,
  DocumentEditorScreen,
  DocumentsScreen,
  DownloadsScreen,
  LinkScreen,
  PdfListScreen,
  ImageCheckScreen,
  VideoScreen,
  PdfDetailScreen,
  AiWritingScreen,
  FormatScreen,
  HomeScreen,
  NotFoundScreen,
  RightScreen,
  ShareScreen,
  SmsInviteScreen,
  TeamScreen,
  TeamApplyScreen,
  ApiApplyScreen,
  UpgradeScreen,
  UserScreen,
} from '../screens';
import { BrowserBanner } from './BrowserBanner';
import { ElsewhereBanner } from './ElsewhereBanner';
import { Header } from './Header';
import { AccountSwitchDialog, GuideModal, NavDrawer, NoticePopup, QuotaDialog, ShortcutHelp } from './lazy-parts';
import { RealtimeNotices } from './RealtimeNotices';
import { SessionQueries } from './SessionQueries';
import { PendingInvitations } from './PendingInvitations';
import { NavLinks, ProductMark, SideBar } from './SideBar';

const MAIN_ID = 'main-content';

/** Keyboard users skip the side bar: the first Tab stop, visible only when focused. */
function SkipToContent() {
  return (
    <Box
      asChild
      position="absolute"
      left="2"
      top="2"
      zIndex="skipNav"
      px="4"
      py="2"
      bg="panel"
      borderRadius="md"
      boxShadow="md"
      transform="translateY(-200%)"
      _focusVisible={{ transform: 'none' }}
    >
      <a href={`#${MAIN_ID}`}>
        <Trans>跳到主要内容</Trans>
      </a>
    </Box>
  );
}

export function PageSpinner() {
  return (
    <Center minH="50vh" w="full">
      <Spinner size="lg" color="blue.solid" />
    </Center>
  );
}

function Screen({ route }: { route: WorkbenchRoute }) {
  if (route.path === '/user') return <UserScreen />;
  if (route.path === '/') return <HomeScreen />;
  if (route.path === '/format') return <FormatScreen />;
  if (route.path === '/diff') return <DiffScreen />;
  if (route.path === '/right') return <RightScreen />;
  if (route.path === '/upgrade') return <UpgradeScreen />;
  if (route.path === '/document') return <DocumentsScreen />;
  if (route.path === '/editor') return <DocumentEditorScreen />;
  if (route.path === '/download') return <DownloadsScreen />;
  if (route.path === '/link') return <LinkScreen />;
  if (route.path === '/pdf') return <PdfListScreen />;
  if (route.path === '/image') return <ImageCheckScreen />;
  if (route.path === '/video') return <VideoScreen />;
  if (route.path === '/ai') return <AiWritingScreen />;
  if (route.path === '/pdfdetail') return <PdfDetailScreen />;
  if (route.path === '/share') return <ShareScreen />;
  if (route.path === '/sms_invite') return <SmsInviteScreen />;
  if (route.path === '/dictionary') return <DictionaryScreen />;
  if (route.path === '/team') return <TeamScreen />;
  if (route.path === '/teamApply') return <TeamApplyScreen />;
  if (route.path === '/apiApply') return <ApiApplyScreen />;
  // every route of routes.ts has its screen above
  return <NotFoundScreen />;
}

/** Keep-alive screens stay mounted once visited and are only hidden (spec §2: kept alive). */
function useVisitedKeepAlive(current: WorkbenchRoute | undefined): Set<string> {
  const [visited, setVisited] = useState<Set<string>>(() => new Set(current?.keepAlive ? [current.path] : []));
  useEffect(() => {
    if (current?.keepAlive && !visited.has(current.path)) setVisited(new Set(visited).add(current.path));
  }, [current, visited]);
  return current?.keepAlive && !visited.has(current.path) ? new Set(visited).add(current.path) : visited;
}

function Pane({ active, path, children }: { active: boolean; path: string; children: ReactNode }) {
  return (
    <Box hidden={!active} data-screen={path}>
      <Suspense fallback={<PageSpinner />}>{children}</Suspense>
    </Box>
  );
}

/** The main layout (spec §2): side bar (not on hideSlide routes), header, screen, layout extras. */
export function MainLayout() {
  const [location] = useLocation();
  const { status } = useSession();
  const route = findRoute(location);
  const visited = useVisitedKeepAlive(route);
  // the drawer is open for the location it was opened on: following one of its links closes it
  const [navOpenOn, setNavOpenOn] = useState<string | null>(null);

  if (status === 'loggedOut') return <Redirect to="/login" replace />;
  if (status !== 'loggedIn') {
    // Restoring a stored session, a token from the route query being checked, or logging out.
    return (
      <Center minH="100vh">
        <Spinner size="xl" color="blue.solid" />
      </Center>
    );
  }

  return (
    <Flex minH="100vh" bg="canvas" data-testid="main-layout">
      <SkipToContent />
      {route?.hideSlide ? null : <SideBar current={route} />}
      <Flex direction="column" flex="1" minW="0">
        <BrowserBanner />
        <ElsewhereBanner />
        <Header route={route} onOpenNav={() => setNavOpenOn(location)} />
        <Box as="main" id={MAIN_ID} tabIndex={-1} outline="none" flex="1" px={{ base: '4', md: '8' }} py="6" pb="20">
          {KEEP_ALIVE_ROUTES.filter((r) => visited.has(r.path)).map((r) => (
            <Pane key={r.path} path={r.path} active={r.path === route?.path}>
              <Screen route={r} />
            </Pane>
          ))}
          {route && !route.keepAlive ? (
            <Pane key={route.path} path={route.path} active>
              <Screen route={route} />
            </Pane>
          ) : null}
          {route ? null : (
            <Pane key="not-found" path="not-found" active>
              <NotFoundScreen />
            </Pane>
          )}
        </Box>
      </Flex>
      <Suspense fallback={null}>
        <QuotaDialog />
        <AccountSwitchDialog />
        <GuideModal />
        <NoticePopup />
      </Suspense>
      {/* boundaries of their own: the quota and guide dialogs above do not wait for these chunks */}
      <Suspense fallback={null}>
        <ShortcutHelp />
      </Suspense>
      <Suspense fallback={null}>
        {route?.hideSlide ? null : (
          <NavDrawer
            open={navOpenOn === location}
            onOpenChange={(open) => setNavOpenOn(open ? location : null)}
            title={<ProductMark full />}
          >
            <NavLinks current={route} full />
          </NavDrawer>
        )}
      </Suspense>
      <RealtimeNotices />
      <SessionQueries />
      <PendingInvitations />
    </Flex>
  );
}

import { Suspense } from 'react';
import { Redirect, Route, Router, Switch, type RouterProps } from 'wouter';
import { useSession } from './app-actor';
import { MainLayout, PageSpinner } from './layout/MainLayout';
import { ThemeButtons } from './layout/ThemeButtons';
import { LastRouteRecorder, PageViewReporter, RouteQueryGate } from './route-effects';
import { REDIRECTS, SHARED_DOCUMENT_PATH, STANDALONE } from './routes';
import { LoginScreen, RedemptionScreen, RulesScreen, SharedDocumentScreen } from './screens';

/** The SPA is served under /workbench/ (STACK.md: base without the trailing slash). */
export const ROUTER_BASE = '/workbench';

function LoginRoute() {
  const { status } = useSession();
  // A logged-in user who opens /login goes to the workbench.
  if (status === 'loggedIn') return <Redirect to="/" replace />;
  return <LoginScreen />;
}

/** Every route of spec §2: /login, /rules, /redemption outside the layout; the rest inside it. */
export function App({ router }: { router?: Partial<RouterProps> }) {
  return (
    <Router base={ROUTER_BASE} {...router}>
      <RouteQueryGate>
        <LastRouteRecorder />
        <PageViewReporter />
        <Suspense fallback={<PageSpinner />}>
          <Switch>
            <Route path="/login">
              <LoginRoute />
            </Route>
            <Route path={SHARED_DOCUMENT_PATH}>
              <SharedDocumentScreen />
            </Route>
            <Route path={STANDALONE.rules.path}>
              <RulesScreen />
            </Route>
            <Route path={STANDALONE.redemption.path}>
              <RedemptionScreen />
            </Route>
            {Object.entries(REDIRECTS).map(([from, to]) => (
              <Route key={from} path={from}>
                <Redirect to={to} replace />
              </Route>
            ))}
            <Route>
              <MainLayout />
            </Route>
          </Switch>
        </Suspense>
        <ThemeButtons />
      </RouteQueryGate>
    </Router>
  );
}

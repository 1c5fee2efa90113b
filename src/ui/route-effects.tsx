import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation, useSearch } from 'wouter';
import { api, unwrap } from '../api/client';
import { isLoginFlagSet } from '../api/storage';
import { applyRouteEffects, rememberPreviousRoute } from '../machines/routeEffects';
import { planRouteQuery } from '../machines/routeQuery';
import { useSession, useSystemActor } from './app-actor';
import { findRoute } from './routes';

/**
 * Runs the route-query effects of the page being opened (spec §2) before the routes render, so a
 * `?token=` reaches the session before the login guard looks at it.
 */
export function RouteQueryGate({ children }: { children: ReactNode }) {
  const session = useSystemActor('session');
  const [location, navigate] = useLocation();
  const search = useSearch();
  const [done, setDone] = useState(false);
  const applied = useRef(false);
  useLayoutEffect(() => {
    // Once per page load, also under StrictMode's double effects.
    if (applied.current) return;
    applied.current = true;
    const effects = planRouteQuery({ path: location, search, loggedIn: isLoginFlagSet() });
    applyRouteEffects(effects, {
      navigate: (to, { replace }) => navigate(to, { replace }),
      sendToSession: (event) => session.send(event),
    });
    setDone(true);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return done ? <>{children}</> : null;
}

/** Saves the page being left as the last route (spec §2; the rule lives in routeQuery.ts). */
export function LastRouteRecorder() {
  const [location] = useLocation();
  const search = useSearch();
  const previous = useRef<string | null>(null);
  useEffect(() => {
    if (previous.current !== null) rememberPreviousRoute(previous.current);
    previous.current = search ? `${location}?${search}` : location;
  }, [location, search]);
  return null;
}

/** Page-view reporting with the route's click type (spec §2); silent, and only when logged in. */
export function PageViewReporter() {
  const [location] = useLocation();
  const { status } = useSession();
  const clickType = findRoute(location)?.clickType;
  useEffect(() => {
    if (status !== 'loggedIn' || clickType === undefined) return;
    unwrap(api.GET('/misscut/v1/click', { params: { query: { click_type: clickType } } }), { silent: true }).catch(
      () => undefined,
    );
  }, [location, status, clickType]);
  return null;
}

// Executes the effects planned by routeQuery.ts: storage writes, notices, navigation, and the
// session's 'token received' event. The UI calls this once per page load with its router bindings.
import { notify as defaultNotify, type Notice } from '../api/notify';
import { getTrackingParams, setAppUuid, setLastRoute, setTrackingParam } from '../api/storage';
import { exchangeWechatCode } from '../api/user';
import { routeToRemember, withTracking, type RouteEffect } from './routeQuery';

export interface RouteEffectBindings {
  navigate: (to: string, options: { replace: boolean }) => void;
  /** Usually `appActor.system.get('session').send` */
  sendToSession: (event: { type: 'token received'; token: string }) => void;
  notify?: (notice: Notice) => void;
  /** POST /user/wechat/exchange (src/api/user.ts); a refused code shows the server's message there. */
  exchangeWechatCode?: (code: string) => Promise<string>;
}

export function applyRouteEffects(effects: readonly RouteEffect[], bindings: RouteEffectBindings): void {
  const show = bindings.notify ?? defaultNotify;
  for (const effect of effects) {
    switch (effect.type) {
      case 'remember tracking':
        setTrackingParam(effect.key, effect.value);
        break;
      case 'store app uuid':
        setAppUuid(effect.uuid);
        break;
      case 'log in with token':
        bindings.sendToSession({ type: 'token received', token: effect.token });
        break;
      case 'exchange wechat code':
        // the token then takes the token link's way (a signed-in account is asked before switching)
        (bindings.exchangeWechatCode ?? exchangeWechatCode)(effect.code).then(
          (token) => bindings.sendToSession({ type: 'token received', token }),
          () => undefined,
        );
        break;
      case 'notify':
        show(effect.notice);
        break;
      case 'navigate':
        bindings.navigate(effect.to, { replace: effect.replace });
        break;
    }
  }
}

/** Call on every navigation: remembers the page being left (spec §2 last-route rule). */
export function rememberPreviousRoute(previousPath: string | null | undefined): void {
  const path = routeToRemember(previousPath);
  if (path) setLastRoute(path);
}

/** A navigation target with the remembered tracking parameters appended (spec §2). */
export function trackedPath(to: string): string {
  return withTracking(to, getTrackingParams());
}

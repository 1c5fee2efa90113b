import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { isPageReloaded, setPageReloaded } from '../api/storage';

export interface ReloadFlag {
  get(): boolean;
  set(value: boolean): void;
}

/** The page's own flag, kept for the session (every lazy part of the SPA shares it: one reload at most). */
export const pageReloadFlag: ReloadFlag = { get: isPageReloaded, set: setPageReloaded };

/**
 * `React.lazy` that reloads the page once per session when a chunk fails to load (spec §2, §9: a new
 * deployment removed the old chunk). The session flag is never cleared on success, so a chunk that
 * keeps failing reaches the error boundary instead of reloading in a loop.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own bound: any props
export function lazyWithReload<T extends ComponentType<any>>(
  load: () => Promise<{ default: T }>,
  flag: ReloadFlag,
  reload: () => void = () => window.location.reload(),
): LazyExoticComponent<T> {
  return lazy(async () => {
    try {
      return await load();
    } catch (error) {
      if (!flag.get()) {
        flag.set(true);
        reload();
        // Keep Suspense showing its fallback while the page reloads.
        return new Promise<never>(() => {});
      }
      throw error;
    }
  });
}

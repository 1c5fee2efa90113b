import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { navigate as navigateBrowser } from 'wouter/use-browser-location';
import { loadRuntimeConfig } from './api/config';
import { getLanguage } from './api/storage';
import { notify } from './api/notify';
import { createInspectOption, setInspector } from './machines/inspect';
import { createLiveApp } from './machines/live';
import { App, ROUTER_BASE } from './ui/App';
import { loadLocale } from './ui/i18n';
import { pageReloadFlag } from './ui/lazy';
import { AppProviders, createQueryClient } from './ui/providers';

/**
 * The chosen catalogue could not be fetched (a new deployment removed the old chunk): reload once per session, like
 * a screen's chunk; after that the page starts without it (the source language from whatever catalogue is here).
 */
function reloadOnceForCatalogue(): Promise<void> {
  if (pageReloadFlag.get()) return loadLocale('cn').catch(() => undefined);
  pageReloadFlag.set(true);
  window.location.reload();
  return new Promise<void>(() => {});
}

async function start() {
  // Runtime configuration first: it points the API client and the socket at the right server (spec §1).
  // The chosen language's catalogue too: the first screen is drawn in it.
  // (a catalogue that cannot be fetched leaves the page in the source language: see activateLocale)
  await Promise.all([loadRuntimeConfig(), loadLocale(getLanguage()).catch(() => reloadOnceForCatalogue())]);

  const queryClient = createQueryClient();
  const logic = createLiveApp({
    // Machines speak app paths ('/login', '/share'); the address bar carries the /workbench base.
    navigate: (path: string) => navigateBrowser(ROUTER_BASE + path),
    notify,
    queryClient,
  });

  // ARCHITECTURE.md: the Stately inspector behind `?inspect`, in development only.
  const inspect = await createInspectOption(window.location.search, import.meta.env.DEV);
  setInspector(inspect);

  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProviders logic={logic} queryClient={queryClient} options={inspect ? { inspect } : undefined}>
        <App />
      </AppProviders>
    </StrictMode>,
  );
}

void start();

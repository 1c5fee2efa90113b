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
import { AppProviders, createQueryClient } from './ui/providers';

async function start() {
  // Runtime configuration first: it points the API client and the socket at the right server (spec §1).
  // The chosen language's catalogue too: the first screen is drawn in it.
  // (a catalogue that cannot be fetched leaves the page in the source language: see activateLocale)
  await Promise.all([loadRuntimeConfig(), loadLocale(getLanguage()).catch(() => undefined)]);

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

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { navigate as navigateBrowser } from 'wouter/use-browser-location';
import { loadRuntimeConfig } from './api/config';
import { notify } from './api/notify';
import { createLiveApp } from './machines/live';
import { App, ROUTER_BASE } from './ui/App';
import { AppProviders } from './ui/providers';

async function start() {
  // Runtime configuration first: it points the API client and the socket at the right server (spec §1).
  await loadRuntimeConfig();

  const logic = createLiveApp({
    // Machines speak app paths ('/login', '/share'); the browser address carries the /workbench base.
    navigate: (path: string) => navigateBrowser(ROUTER_BASE + (path === '/' ? '/' : path)),
    notify,
  });

  // ARCHITECTURE.md: the Stately inspector behind `?inspect`, in development only.
  let inspect: ((event: unknown) => void) | undefined;
  if (import.meta.env.DEV && new URLSearchParams(window.location.search).has('inspect')) {
    const { createBrowserInspector } = await import('@statelyai/inspect');
    inspect = createBrowserInspector().inspect as (event: unknown) => void;
  }

  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProviders logic={logic} options={inspect ? { inspect } : undefined}>
        <App />
      </AppProviders>
    </StrictMode>,
  );
}

void start();

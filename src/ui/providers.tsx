import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { ChakraProvider } from '@chakra-ui/react';
import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { setApiLanguage } from '../api/client';
import { ThemeProvider } from 'next-themes';
import type { appMachine } from '../machines/app';
import { AppActorContext, useLanguage, useThemeMode } from './app-actor';
import { activateLocale, i18n } from './i18n';
import { system } from './system';
import { NoticeToaster } from './toaster';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // unwrap() already reports failures; retrying a 4xx only repeats the message.
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

/** The language machine drives Lingui (and `<html lang>`). */
function LocaleBridge({ children }: { children: ReactNode }) {
  const { locale } = useLanguage();
  // The first locale is active before anything renders; later switches go through the provider's event.
  const show = () => {
    setApiLanguage(locale);
    activateLocale(locale);
  };
  useState(show);
  useLayoutEffect(show, [locale]);
  return <I18nProvider i18n={i18n}>{children}</I18nProvider>;
}

/** The server writes names and texts in the calls' language: a new language fetches what is shown again. */
function LocaleQueries() {
  const { locale } = useLanguage();
  const client = useQueryClient();
  const fetchedIn = useRef(locale);
  useEffect(() => {
    if (fetchedIn.current === locale) return;
    fetchedIn.current = locale;
    void client.invalidateQueries();
  }, [locale, client]);
  return null;
}

/** The theme machine is the one source of the colour mode; next-themes only applies it to `<html>`. */
function ColorModeBridge({ children }: { children: ReactNode }) {
  const { mode } = useThemeMode();
  return (
    <ThemeProvider
      attribute="class"
      forcedTheme={mode}
      enableSystem={false}
      disableTransitionOnChange
      storageKey="workbench-color-mode"
      // Its pre-paint script never runs in a client-rendered app (index.html has our own); marking it
      // a data block keeps React from warning about it.
      scriptProps={{ type: 'application/json' }}
    >
      {children}
    </ThemeProvider>
  );
}

export interface AppProvidersProps {
  /** The app machine with its implementations bound (createLiveApp in the browser, fakes in tests).
   *  The live session clears `queryClient` on logout, so pass the same client to both. */
  logic: typeof appMachine;
  /** Actor options, e.g. `{inspect}` for the Stately inspector. */
  options?: Parameters<typeof AppActorContext.Provider>[0]['options'];
  queryClient?: QueryClient;
  children: ReactNode;
}

export function AppProviders({ logic, options, queryClient, children }: AppProvidersProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <ChakraProvider value={system}>
      <AppActorContext.Provider logic={logic} options={options}>
        <LocaleBridge>
          <ColorModeBridge>
            <QueryClientProvider client={client}>
              <LocaleQueries />
              {children}
              <NoticeToaster />
            </QueryClientProvider>
          </ColorModeBridge>
        </LocaleBridge>
      </AppActorContext.Provider>
    </ChakraProvider>
  );
}

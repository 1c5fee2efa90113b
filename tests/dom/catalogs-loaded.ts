// The DOM tests switch languages synchronously: every catalogue is loaded before they run, as the SPA has the chosen
// one before its first render (main.tsx) and fetches another when it is chosen (src/ui/i18n.ts, checked in Chromium).
import { LOCALES, loadLocale } from '../../src/ui/i18n';

await Promise.all(LOCALES.map(loadLocale));

import { LanguageSwitch } from './LanguageSwitch';

/** Controls shown on screens outside the main layout (login, rules, redemption). */
export function ShellControls() {
  return <LanguageSwitch />;
}

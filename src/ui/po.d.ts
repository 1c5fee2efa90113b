// Lingui's Vite plugin compiles `locales/*/messages.po` on import (STACK.md: Lingui notes).
declare module '*.po' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}

// The DOM files share their modules within a worker (isolate: false in vite.config.ts), so each file starts from
// what the one before left in the page and in the app's singletons: clear them, as a fresh page load would.
import { cleanup } from '@testing-library/react';
import { beforeAll } from 'vitest';
import { toaster } from '../../src/ui/toaster';

beforeAll(() => {
  cleanup();
  toaster.remove();
  localStorage.clear();
  sessionStorage.clear();
  document.body.innerHTML = '';
  document.documentElement.removeAttribute('class');
  document.documentElement.removeAttribute('style');
  document.documentElement.removeAttribute('lang');
  window.history.replaceState(null, '', '/');
});

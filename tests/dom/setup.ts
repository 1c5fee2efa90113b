// The simulated DOM (happy-dom) may lack a few browser APIs that Chakra (Ark/Zag) and next-themes call: stand-ins.
if (typeof window !== 'undefined') {
  if (!window.matchMedia) {
    window.matchMedia = (query: string) =>
      ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }) as unknown as MediaQueryList;
  }
  class NoopObserver {
    observe() {}
    unobserve() {}
    disconnect() {}
    takeRecords() {
      return [];
    }
  }
  const w = window as unknown as Record<string, unknown>;
  if (!w.ResizeObserver) w.ResizeObserver = NoopObserver;
  if (!w.IntersectionObserver) w.IntersectionObserver = NoopObserver;
  if (!window.scrollTo) window.scrollTo = () => {};
  if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => {};
  if (typeof URL.createObjectURL !== 'function') {
    URL.createObjectURL = () => 'blob:portrait';
    URL.revokeObjectURL = () => {};
  }
}

// Screens are lazy chunks that vitest transforms on first use; on a busy 2-core machine that can take longer than
// testing-library's 1 s default: the first screen of a worker, shown while the static checks run beside it, took 7 s.
import { configure } from '@testing-library/react';
configure({ asyncUtilTimeout: 10_000 });

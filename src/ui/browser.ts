/** Minimum browser versions (spec §2 "Main layout extras", §9). */
export const MINIMUM_VERSIONS = { chrome: 90, firefox: 80, edge: 90, safari: 13, opera: 75 } as const;

export type BrowserName = keyof typeof MINIMUM_VERSIONS;

export interface BrowserCheck {
  outdated: boolean;
  browser: BrowserName | 'other';
  version: number | null;
  /** Why the warning shows: too old, or no `color-mix()` support. */
  reason: 'version' | 'color-mix' | null;
}

function major(userAgent: string, pattern: RegExp): number | null {
  const m = userAgent.match(pattern);
  return m ? Number.parseInt(m[1], 10) : null;
}

/** Which browser the user agent names (order matters: Edge and Opera also say Chrome and Safari). */
export function detectBrowser(userAgent: string): { browser: BrowserName | 'other'; version: number | null } {
  const edge = major(userAgent, /Edg(?:e|A|iOS)?\/(\d+)/);
  if (edge !== null) return { browser: 'edge', version: edge };
  const opera = major(userAgent, /(?:OPR|Opera)\/(\d+)/);
  if (opera !== null) return { browser: 'opera', version: opera };
  const firefox = major(userAgent, /(?:Firefox|FxiOS)\/(\d+)/);
  if (firefox !== null) return { browser: 'firefox', version: firefox };
  const chrome = major(userAgent, /(?:Chrome|Chromium|CriOS)\/(\d+)/);
  if (chrome !== null) return { browser: 'chrome', version: chrome };
  if (/Safari\//.test(userAgent)) {
    const safari = major(userAgent, /Version\/(\d+)/);
    if (safari !== null) return { browser: 'safari', version: safari };
  }
  return { browser: 'other', version: null };
}

/**
 * Whether to show the browser upgrade warning: a known browser below its minimum version, or any
 * browser without `color-mix()` support (the check the spec adds to the version list).
 */
export function checkBrowser(userAgent: string, supportsColorMix: boolean): BrowserCheck {
  const { browser, version } = detectBrowser(userAgent);
  if (browser !== 'other' && version !== null && version < MINIMUM_VERSIONS[browser]) {
    return { outdated: true, browser, version, reason: 'version' };
  }
  if (!supportsColorMix) return { outdated: true, browser, version, reason: 'color-mix' };
  return { outdated: false, browser, version, reason: null };
}

/** The same check against the running browser. */
export function checkCurrentBrowser(): BrowserCheck {
  const colorMix =
    typeof CSS !== 'undefined' && typeof CSS.supports === 'function'
      ? CSS.supports('color', 'color-mix(in srgb, red, blue)')
      : false;
  return checkBrowser(typeof navigator === 'undefined' ? '' : navigator.userAgent, colorMix);
}

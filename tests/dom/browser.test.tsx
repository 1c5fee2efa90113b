import './setup';
import { describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ChakraProvider } from '@chakra-ui/react';
import { I18nProvider } from '@lingui/react';
import { checkBrowser, detectBrowser } from '../../src/ui/browser';
import { activateLocale, i18n } from '../../src/ui/i18n';
import { BrowserBanner } from '../../src/ui/layout/BrowserBanner';
import { system } from '../../src/ui/system';

const UA = {
  chrome89:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like ' +
    'Gecko) Chrome/89.0.4389.128 Safari/537.36',
  chrome90:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like ' +
    'Gecko) Chrome/90.0.4430.85 Safari/537.36',
  firefox79: 'Mozilla/5.0 (X11; Linux x86_64; rv:79.0) Gecko/20100101 Firefox/79.0',
  firefox80: 'Mozilla/5.0 (X11; Linux x86_64; rv:80.0) Gecko/20100101 Firefox/80.0',
  edge89:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like ' +
    'Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/89.0.774.57',
  edge90:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like ' +
    'Gecko) Chrome/90.0.4430.85 Safari/537.36 Edg/90.0.818.46',
  safari12:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_14_6) AppleWebKit/605.1.15 (KHTML, ' +
    'like Gecko) Version/12.1.2 Safari/605.1.15',
  safari13:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, ' +
    'like Gecko) Version/13.1 Safari/605.1.15',
  opera74:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like ' +
    'Gecko) Chrome/120.0.0.0 Safari/537.36 OPR/74.0.3911.107',
  opera75:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like ' +
    'Gecko) Chrome/89.0.4389.90 Safari/537.36 OPR/75.0.3969.93',
  headlessChrome:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
};

describe('browser upgrade warning (spec §2, §9)', () => {
  it('tells Edge and Opera apart from the Chrome they mention', () => {
    expect(detectBrowser(UA.edge89)).toEqual({ browser: 'edge', version: 89 });
    expect(detectBrowser(UA.opera74)).toEqual({ browser: 'opera', version: 74 });
    expect(detectBrowser(UA.safari13)).toEqual({ browser: 'safari', version: 13 });
    expect(detectBrowser(UA.firefox80)).toEqual({ browser: 'firefox', version: 80 });
    expect(detectBrowser(UA.headlessChrome)).toEqual({ browser: 'chrome', version: 131 });
  });

  it.each([
    ['chrome89', true],
    ['chrome90', false],
    ['firefox79', true],
    ['firefox80', false],
    ['edge89', true],
    ['edge90', false],
    ['safari12', true],
    ['safari13', false],
    ['opera74', true],
    ['opera75', false],
  ] as const)('%s outdated: %s', (name, outdated) => {
    const result = checkBrowser(UA[name], true);
    expect(result.outdated).toBe(outdated);
    expect(result.reason).toBe(outdated ? 'version' : null);
  });

  it('warns a new browser without color-mix() support', () => {
    expect(checkBrowser(UA.chrome90, false)).toMatchObject({ outdated: true, reason: 'color-mix' });
    expect(checkBrowser('SomeBrowser/1.0', false)).toMatchObject({ outdated: true, reason: 'color-mix' });
    expect(checkBrowser('SomeBrowser/1.0', true)).toMatchObject({ outdated: false, browser: 'other' });
  });
});

describe('browser upgrade banner', () => {
  function renderBanner(userAgent: string, colorMix: boolean) {
    activateLocale('cn');
    return render(
      <ChakraProvider value={system}>
        <I18nProvider i18n={i18n}>
          <BrowserBanner check={checkBrowser(userAgent, colorMix)} />
        </I18nProvider>
      </ChakraProvider>,
    );
  }

  it('warns an outdated browser and can be dismissed', () => {
    renderBanner(UA.chrome89, true);
    const banner = screen.getByTestId('browser-warning');
    expect(banner.textContent).toContain('您的浏览器版本过低');
    expect(banner.textContent).toContain('Chrome 90');
    fireEvent.click(screen.getByRole('button', { name: '关闭提示' }));
    expect(screen.queryByTestId('browser-warning')).toBeNull();
    cleanup();
  });

  it('says nothing to a current browser', () => {
    renderBanner(UA.chrome90, true);
    expect(screen.queryByTestId('browser-warning')).toBeNull();
    cleanup();
  });
});

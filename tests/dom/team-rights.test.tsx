// The team's right packages show what each right holds, has allocated and has left through the one formatter:
// grouped, with the unit in the reader's language, unlimited as 不限 / Unlimited.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { ChakraProvider } from '@chakra-ui/react';
import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configureApi } from '../../src/api/client';
import { activateLocale, i18n, type Locale } from '../../src/ui/i18n';
import { system } from '../../src/ui/system';
import RightsTab from '../../src/ui/screens/team/RightsTab';

afterEach(() => {
  cleanup();
  activateLocale('cn');
});

const ok = (result: unknown) =>
  new Response(JSON.stringify({ code: 200, msg: 'success', result }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
const PACKAGE = {
  id: 1,
  product_name: '团队版（年付）',
  expire_time: null,
  rights: [
    { user_right_type: 1, title: '高速校对字数', total: 1_000_000_000, allocated: 300, remaining: 999_999_700 },
    { user_right_type: 8192, title: '精校字数', total: 100_000, allocated: 1_500, remaining: 98_500 },
    { user_right_type: 2, title: '图片校对次数', total: 50, allocated: 5, remaining: 45 },
  ],
};

function show(locale: Locale) {
  activateLocale(locale);
  configureApi({
    baseURL: '',
    fetch: async (request: Request) => {
      const path = new URL(request.url).pathname;
      if (path === '/enterprise/right_product_package/v1/get') return ok([PACKAGE]);
      if (path === '/enterprise/right_product_package/v1/get_allocated_info') return ok([]);
      if (path === '/enterprise/v1/get_user_auth') return ok({ role: 'member', permissions: [] });
      return ok(null);
    },
  });
  render(
    <ChakraProvider value={system}>
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <RightsTab />
        </QueryClientProvider>
      </I18nProvider>
    </ChakraProvider>,
  );
}

describe("the team's right packages", () => {
  it('read amounts with units, an unlimited right as 不限 even after some was allocated', async () => {
    show('cn');
    await waitFor(() => expect(screen.getByTestId('package-remaining-1').textContent).toBe('不限'));
    expect(screen.getByTestId('package-remaining-8192').textContent).toBe('98,500 字');
    expect(screen.getByTestId('package-remaining-2').textContent).toBe('45 次');
    expect(screen.getByTestId('team-rights').textContent).not.toMatch(/9{5}/);
  });

  it('in English', async () => {
    show('en');
    await waitFor(() => expect(screen.getByTestId('package-remaining-1').textContent).toBe('Unlimited'));
    expect(screen.getByTestId('package-remaining-8192').textContent).toBe('98,500 characters');
    expect(screen.getByTestId('package-remaining-2').textContent).toBe('45 times');
  });
});

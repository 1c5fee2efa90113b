// The server writes its data in the language the calls send: switching the interface language fetches what is
// shown again, in the new language.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderApp } from './helpers';

afterEach(cleanup);

const RULES: Record<string, string> = {
  'zh-CN': '## 一、总则\n使用本服务即表示同意。',
  en: '## 1. General\nUsing the service means you agree.',
  'zh-HK': '## 一、總則\n使用本服務即表示同意。',
};

describe('the data of the server in the interface language', () => {
  it('asks for the rules in the chosen language and again when it changes', async () => {
    const asked: Array<string | null> = [];
    renderApp({
      path: '/rules',
      loggedIn: false,
      handlers: {
        'GET /site/v1/rules': (_recorded, request) => {
          const tag = request.headers.get('accept-language');
          asked.push(tag);
          const text = RULES[tag ?? 'zh-CN'];
          return new Response(
            JSON.stringify({ code: 200, msg: 'ok', result: { text, updated_at: null, custom: false } }),
            {
              status: 200,
              headers: { 'content-type': 'application/json' },
            },
          );
        },
      },
    });
    await waitFor(() => expect(screen.getByTestId('rules-body').textContent).toContain('一、总则'));
    const select = (await screen.findByTestId('language-switch')) as HTMLSelectElement;

    fireEvent.change(select, { target: { value: 'en' } });
    await waitFor(() => expect(screen.getByTestId('rules-body').textContent).toContain('1. General'));
    fireEvent.change(select, { target: { value: 'hk' } });
    await waitFor(() => expect(screen.getByTestId('rules-body').textContent).toContain('一、總則'));
    expect(asked).toEqual(['zh-CN', 'en', 'zh-HK']);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderApp } from './helpers';

afterEach(() => {
  cleanup();
  document.documentElement.className = '';
});

describe('theme buttons (spec §1: two buttons at the bottom right)', () => {
  it('switches the colour mode on <html> and persists the choice', async () => {
    const app = renderApp({ path: '/' });
    const dark = await screen.findByTestId('theme-dark');
    const light = screen.getByTestId('theme-light');
    await waitFor(() => expect(document.documentElement.classList.contains('light')).toBe(true));
    expect(light.getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(dark);
    await waitFor(() => expect(document.documentElement.classList.contains('dark')).toBe(true));
    expect(document.documentElement.classList.contains('light')).toBe(false);
    expect(dark.getAttribute('aria-pressed')).toBe('true');
    expect(light.getAttribute('aria-pressed')).toBe('false');

    fireEvent.click(light);
    await waitFor(() => expect(document.documentElement.classList.contains('light')).toBe(true));
    expect(app.calls.persistedTheme).toEqual(['dark', 'light']);
  });

  it('are on the login page too', async () => {
    renderApp({ path: '/login', loggedIn: false });
    expect(await screen.findByTestId('theme-dark')).toBeTruthy();
  });
});

describe('language switch (cn / en / hk)', () => {
  it('changes the interface text and <html lang>', async () => {
    const app = renderApp({ path: '/' });
    const title = await screen.findByTestId('page-title');
    expect(title.textContent).toBe('文本校对');
    const select = screen.getByTestId('language-switch') as HTMLSelectElement;

    fireEvent.change(select, { target: { value: 'en' } });
    await waitFor(() => expect(screen.getByTestId('page-title').textContent).toBe('Text proofreading'));
    expect(document.documentElement.lang).toBe('en');
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeTruthy();

    fireEvent.change(select, { target: { value: 'hk' } });
    await waitFor(() => expect(screen.getByTestId('page-title').textContent).toBe('文本校對'));
    expect(document.documentElement.lang).toBe('zh-HK');
    expect(app.calls.persistedLocale).toEqual(['en', 'hk']);

    fireEvent.change(select, { target: { value: 'cn' } });
    await waitFor(() => expect(screen.getByTestId('page-title').textContent).toBe('文本校对'));
  });

  it('starts in the stored language', async () => {
    renderApp({ path: '/login', loggedIn: false, locale: 'en' });
    expect(await screen.findByRole('form', { name: 'Log in' })).toBeTruthy();
  });
});

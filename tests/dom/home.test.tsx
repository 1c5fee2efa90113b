// The home screen in the simulated DOM against the in-process fake API: empty state, word count,
// the check button, and a check that cannot start without a socket session failing honestly.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderApp } from './helpers';
import { countWords } from '../../src/ui/screens/home/Home';

afterEach(cleanup);

describe('home screen (text proofreading)', () => {
  it('counts non-white-space characters', () => {
    expect(countWords('他 跑得\n很快。 ')).toBe(6);
    expect(countWords('')).toBe(0);
  });

  it('shows the empty state, counts words while typing and enables the check button', async () => {
    renderApp({ path: '/' });
    await screen.findByTestId('home-empty');
    const button = screen.getByTestId('check-button') as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    const editor = screen.getByTestId('proofread-editor') as HTMLTextAreaElement;
    act(() => {
      fireEvent.change(editor, { target: { value: '他跑的很快。\n这个这个问题很重要。' } });
    });
    await waitFor(() => expect(screen.getByTestId('word-count').textContent).toContain('16'));
    expect(button.disabled).toBe(false);
    // get_user_right is not served by the fake API (501): no quota is known, so none is claimed
    expect(screen.getByTestId('quota-remaining').textContent).toMatch(/0 字|…/);
  });

  it('keeps the text when navigating away and back (kept alive)', async () => {
    const app = renderApp({ path: '/' });
    const editor = (await screen.findByTestId('proofread-editor')) as HTMLTextAreaElement;
    act(() => {
      fireEvent.change(editor, { target: { value: '欢迎光林本店。' } });
    });
    act(() => app.goTo('/user'));
    await waitFor(() => expect(document.querySelector('[data-screen="/user"]')).not.toBeNull());
    act(() => app.goTo('/'));
    await waitFor(() =>
      expect((screen.getByTestId('proofread-editor') as HTMLTextAreaElement).value).toBe('欢迎光林本店。'),
    );
  });

  it('a check without a socket session fails and says so', async () => {
    renderApp({ path: '/' });
    const editor = (await screen.findByTestId('proofread-editor')) as HTMLTextAreaElement;
    act(() => {
      fireEvent.change(editor, { target: { value: '他跑的很快。' } });
    });
    act(() => {
      fireEvent.click(screen.getByTestId('check-button'));
    });
    await screen.findByTestId('no-findings');
    await waitFor(() => expect(screen.getByTestId('no-findings').textContent).toBe('校对未完成'));
  });
});

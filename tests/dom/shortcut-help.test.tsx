// The keyboard shortcut overview: `?` opens it when the focus is not in a text field, Esc closes it, and it speaks
// the user's language (cn, en, hk).
import { afterEach, describe, expect, it } from 'vitest';
import './setup';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp } from './helpers';
import { SHORTCUT_GROUPS } from '../../src/ui/layout/ShortcutHelp';

afterEach(cleanup);

async function openWithQuestionMark(target: Element = document.body) {
  await act(async () => {
    fireEvent.keyDown(target, { key: '?', shiftKey: true });
  });
}

describe('keyboard shortcut overview', () => {
  it('opens with ? and lists the shortcuts the workbench handles; Esc closes it', async () => {
    renderApp({ path: '/' });
    await screen.findByTestId('side-bar');
    // the overview's code loads after the first paint, like the other dialogs of the layout
    await waitFor(async () => {
      await openWithQuestionMark();
      expect(screen.queryByTestId('shortcut-help')).not.toBeNull();
    });
    const help = screen.getByTestId('shortcut-help');
    expect(within(help).getByText('键盘快捷键')).toBeTruthy();
    const rows = within(help).getAllByTestId('shortcut');
    expect(rows).toHaveLength(SHORTCUT_GROUPS.reduce((n, g) => n + g.items.length, 0));
    // the finding review's keys (useFindingReview) and the editor's save are there
    expect(within(help).getByText('下一处问题').parentElement?.textContent).toContain('Alt↓');
    expect(within(help).getByText('忽略当前问题').parentElement?.textContent).toContain('X');
    expect(within(help).getByText('保存文档（文档详情）')).toBeTruthy();
    fireEvent.keyDown(help, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('shortcut-help')).toBeNull());
  });

  it('does not open while the user types ? into a text field', async () => {
    renderApp({ path: '/' });
    await screen.findByTestId('side-bar');
    const field = await screen.findByRole('textbox');
    // wait until the overview's code is loaded: ? on the page opens it, then Esc closes it again
    await waitFor(async () => {
      await openWithQuestionMark();
      expect(screen.queryByTestId('shortcut-help')).not.toBeNull();
    });
    fireEvent.keyDown(screen.getByTestId('shortcut-help'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('shortcut-help')).toBeNull());
    await openWithQuestionMark(field);
    expect(screen.queryByTestId('shortcut-help')).toBeNull();
  });

  it.each([
    ['en', 'Keyboard shortcuts', 'Next issue'],
    ['hk', '鍵盤快捷鍵', '下一處問題'],
  ] as const)('speaks %s', async (locale, title, next) => {
    renderApp({ path: '/', locale });
    await screen.findByTestId('side-bar');
    await waitFor(async () => {
      await openWithQuestionMark();
      expect(screen.queryByTestId('shortcut-help')).not.toBeNull();
    });
    const help = screen.getByTestId('shortcut-help');
    expect(within(help).getByText(title)).toBeTruthy();
    expect(within(help).getByText(next)).toBeTruthy();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import './setup';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { ChakraProvider } from '@chakra-ui/react';
import { I18nProvider } from '@lingui/react';
import { renderApp } from './helpers';
import { activateLocale, i18n } from '../../src/ui/i18n';
import { system } from '../../src/ui/system';
import { ConfirmDialog } from '../../src/ui/layout/ConfirmDialog';
import { QUOTA_DIALOG_AUTO_CLOSE_MS } from '../../src/machines/quotaDialog';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('quota-exhausted dialog (spec §2, §4)', () => {
  it('offers the free speed-up, which goes to /share', async () => {
    const app = renderApp({ path: '/' });
    await screen.findByTestId('side-bar');
    act(() => app.triggers.quotaExhausted(1));
    const dialog = await screen.findByTestId('quota-dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '参与免费提速' }));
    await waitFor(() => expect(app.currentPath()).toBe('/share'));
    await waitFor(() => expect(screen.queryByTestId('quota-dialog')).toBeNull());
  });

  it('offers the upgrade, which goes to /upgrade', async () => {
    const app = renderApp({ path: '/' });
    await screen.findByTestId('side-bar');
    act(() => app.triggers.quotaExhausted(1));
    fireEvent.click(within(await screen.findByTestId('quota-dialog')).getByRole('button', { name: '立即升级' }));
    await waitFor(() => expect(app.currentPath()).toBe('/upgrade'));
  });

  it('closes kind 2 by itself after 6 s', async () => {
    const app = renderApp({ path: '/' });
    await screen.findByTestId('side-bar');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    act(() => app.triggers.quotaExhausted(2));
    expect((await screen.findByTestId('quota-dialog')).getAttribute('data-kind')).toBe('2');
    await act(async () => {
      vi.advanceTimersByTime(QUOTA_DIALOG_AUTO_CLOSE_MS + 100);
    });
    await waitFor(() => expect(screen.queryByTestId('quota-dialog')).toBeNull());
    expect(app.currentPath()).toBe('/');
  });
});

it('keeps kind 1 open until the user chooses', async () => {
  const app = renderApp({ path: '/' });
  await screen.findByTestId('side-bar');
  vi.useFakeTimers({ shouldAdvanceTime: true });
  act(() => app.triggers.quotaExhausted(1));
  await screen.findByTestId('quota-dialog');
  await act(async () => {
    vi.advanceTimersByTime(QUOTA_DIALOG_AUTO_CLOSE_MS * 2);
  });
  expect(screen.getByTestId('quota-dialog')).toBeTruthy();
});

describe('401 anywhere (spec §4, §8)', () => {
  it('logs the user out and shows the login page', async () => {
    const app = renderApp({ path: '/user' });
    await screen.findByTestId('side-bar');
    act(() => app.triggers.unauthorized());
    await waitFor(() => expect(app.currentPath()).toBe('/login'));
    expect(await screen.findByRole('form', { name: '登录' })).toBeTruthy();
  });
});

function ConfirmHarness({ onConfirm }: { onConfirm: () => void }) {
  const [open, setOpen] = useState(true);
  return (
    <ConfirmDialog
      open={open}
      title="删除这条记录？"
      onCancel={() => setOpen(false)}
      onConfirm={() => {
        onConfirm();
        setOpen(false);
      }}
    />
  );
}

describe('generic confirm dialog (spec §2)', () => {
  function renderConfirm(onConfirm: () => void) {
    return render(
      <ChakraProvider value={system}>
        <I18nProvider i18n={i18n}>
          <ConfirmHarness onConfirm={onConfirm} />
        </I18nProvider>
      </ChakraProvider>,
    );
  }

  it('has 取消 and 确认; 确认 confirms', async () => {
    activateLocale('cn');
    const onConfirm = vi.fn();
    renderConfirm(onConfirm);
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByRole('button', { name: '取消' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('取消 closes without confirming', async () => {
    activateLocale('cn');
    const onConfirm = vi.fn();
    renderConfirm(onConfirm);
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('speaks the current language', async () => {
    activateLocale('en');
    renderConfirm(() => {});
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Confirm' })).toBeTruthy();
    activateLocale('cn');
  });
});

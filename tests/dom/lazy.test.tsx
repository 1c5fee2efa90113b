import './setup';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Component, Suspense, type ReactNode } from 'react';
import { cleanup, render, screen } from '@testing-library/react';
import { lazyWithReload } from '../../src/ui/lazy';

afterEach(cleanup);

class Boundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  render() {
    return this.state.error ? <p>failed: {this.state.error.message}</p> : this.props.children;
  }
}

function flag(initial: boolean) {
  let value = initial;
  return { get: () => value, set: (v: boolean) => void (value = v), peek: () => value };
}

describe('lazy screens: a failed chunk reloads the page once per session (spec §2, §9)', () => {
  it('reloads on the first failure and sets the session flag', async () => {
    const reload = vi.fn();
    const f = flag(false);
    const Screen = lazyWithReload(() => Promise.reject(new Error('chunk gone')), f, reload);
    render(
      <Boundary>
        <Suspense fallback={<p>loading</p>}>
          <Screen />
        </Suspense>
      </Boundary>,
    );
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(f.peek()).toBe(true);
    expect(screen.getByText('loading')).toBeTruthy();
  });

  it('does not reload again in the same session: the error reaches the boundary', async () => {
    const reload = vi.fn();
    const Screen = lazyWithReload(() => Promise.reject(new Error('chunk gone')), flag(true), reload);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <Boundary>
        <Suspense fallback={<p>loading</p>}>
          <Screen />
        </Suspense>
      </Boundary>,
    );
    expect(await screen.findByText('failed: chunk gone')).toBeTruthy();
    expect(reload).not.toHaveBeenCalled();
  });

  it('renders the screen when the chunk loads', async () => {
    const reload = vi.fn();
    const Screen = lazyWithReload(async () => ({ default: () => <p>screen</p> }), flag(false), reload);
    render(
      <Suspense fallback={<p>loading</p>}>
        <Screen />
      </Suspense>,
    );
    expect(await screen.findByText('screen')).toBeTruthy();
    expect(reload).not.toHaveBeenCalled();
  });
});

// The cancel control of a running check, shown on the home screen and under AI writing's checked result: a cancel
// pressed while the check is still being sent is not lost, the check is cancelled once its id is known.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ChakraProvider } from '@chakra-ui/react';
import { I18nProvider } from '@lingui/react';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { proofreadJobMachine } from '../../src/machines/proofreadJob';
import { CancelCheckButton } from '../../src/ui/findings/CancelCheck';
import { activateLocale, i18n } from '../../src/ui/i18n';
import { system } from '../../src/ui/system';

afterEach(cleanup);

describe('cancel a running check', () => {
  it('shows while the check is sent, and a press then cancels it as soon as its id is known', async () => {
    activateLocale('cn');
    let answer: (value: { check_id: string }) => void = () => {};
    const cancelled: string[] = [];
    const job = createActor(
      proofreadJobMachine.provide({
        actors: {
          'submit check': fromPromise(() => new Promise<{ check_id: string }>((resolve) => (answer = resolve))),
          'cancel check': fromPromise(async ({ input }: { input: { checkId: string } }) => {
            cancelled.push(input.checkId);
          }),
          'fine right': fromPromise(async () => true),
          'socket messages': fromCallback(() => () => undefined),
        },
        actions: { notify: () => undefined },
      }),
    ).start();
    render(
      <ChakraProvider value={system}>
        <I18nProvider i18n={i18n}>
          <CancelCheckButton job={job} />
        </I18nProvider>
      </ChakraProvider>,
    );
    expect(screen.queryByTestId('cancel-check')).toBeNull();
    act(() => {
      job.send({ type: 'text edited', text: '他高兴的跑了。' });
      job.send({ type: 'check requested' });
    });
    const button = await screen.findByTestId('cancel-check');
    expect(button.textContent).toContain('取消校对');
    act(() => fireEvent.click(button));
    await act(async () => answer({ check_id: 'c1' }));
    await waitFor(() => expect(cancelled).toEqual(['c1']));
    expect(job.getSnapshot().matches({ job: 'cancelled' })).toBe(true);
    await waitFor(() => expect(screen.queryByTestId('cancel-check')).toBeNull());
    job.stop();
  });
});

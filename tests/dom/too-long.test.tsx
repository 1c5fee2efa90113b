// A text over the plan's per-check limit: the screen says the limit as it is (单次最多校对 5,000 字), offers the first
// part and an upgrade, checks the first part on request and then the rest with one more click; the quota dialog is
// not involved.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ChakraProvider } from '@chakra-ui/react';
import { I18nProvider } from '@lingui/react';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { proofreadJobMachine, type SubmitInput } from '../../src/machines/proofreadJob';
import { countChars } from '../../src/machines/findings/parts';
import { TooLongChoice } from '../../src/ui/findings/TooLongChoice';
import { activateLocale, i18n } from '../../src/ui/i18n';
import { system } from '../../src/ui/system';
import type { ServerMessage } from '../../openapi/socket-protocol';

afterEach(cleanup);

const MAX = 5000;
// 68 different paragraphs of 100 characters: 6,800 characters
const TEXT = Array.from({ length: 68 }, (_, i) => String(i).padStart(2, '0') + '字'.repeat(97) + '。').join('\n');

function setUp() {
  const sent: string[] = [];
  const job = createActor(
    proofreadJobMachine.provide({
      actors: {
        'submit check': fromPromise(async ({ input }: { input: SubmitInput }) => {
          sent.push(input.text);
          const total = countChars(input.text);
          if (total > MAX) throw Object.assign(new Error('单次最多校对'), { status: 413, result: { max: MAX, total } });
          return { check_id: `c${sent.length}` };
        }),
        'cancel check': fromPromise<void, { checkId: string }>(async () => {}),
        'fine right': fromPromise(async () => true),
        'socket messages': fromCallback(() => () => undefined),
      },
      actions: { notify: () => undefined },
    }),
  ).start();
  render(
    <ChakraProvider value={system}>
      <I18nProvider i18n={i18n}>
        <TooLongChoice job={job} />
      </I18nProvider>
    </ChakraProvider>,
  );
  // the check's single result message ends it (no findings)
  const finish = () =>
    act(() =>
      job.send({
        type: 'server message',
        message: {
          type: 2,
          cmd: 2,
          status: 200,
          index: sent.length,
          data: { check_id: `c${sent.length}`, paragraph: 0, offset: 0, hash: 'h', done: true, issues: [] },
        } as ServerMessage,
      }),
    );
  return { job, sent, finish };
}

describe('a text over the per-check limit', () => {
  it('says the limit, checks the first 5,000 characters on request, then the rest with one more click', async () => {
    activateLocale('cn');
    const { job, sent, finish } = setUp();
    act(() => {
      job.send({ type: 'text edited', text: TEXT });
      job.send({ type: 'check requested' });
    });
    const choice = await screen.findByTestId('too-long');
    expect(choice.textContent).toContain('单次最多校对 5,000 字');
    expect(choice.textContent).toContain('这段文字有 6,800 字');
    expect(choice.textContent).not.toContain('用完');
    expect(screen.getByTestId('too-long-upgrade').getAttribute('href')).toMatch(/\/upgrade$/);

    act(() => fireEvent.click(screen.getByTestId('check-first-part')));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(countChars(sent[1])).toBe(5000);
    expect(TEXT.startsWith(sent[1])).toBe(true);
    await waitFor(() => expect(job.getSnapshot().matches({ job: 'streaming' })).toBe(true));
    finish();

    const rest = await screen.findByTestId('check-rest');
    expect(rest.textContent).toContain('还有 1,800 字 未校对');
    act(() => fireEvent.click(screen.getByTestId('check-rest-button')));
    await waitFor(() => expect(sent).toHaveLength(3));
    expect(TEXT.endsWith(sent[2])).toBe(true);
    expect(countChars(sent[2])).toBe(1800);
    await waitFor(() => expect(job.getSnapshot().matches({ job: 'streaming' })).toBe(true));
    finish();
    await waitFor(() => expect(job.getSnapshot().matches({ job: 'done' })).toBe(true));
    expect(screen.queryByTestId('check-rest')).toBeNull();
    job.stop();
  });

  it('in English, and dismissed it leaves the text unchecked', async () => {
    activateLocale('en');
    const { job } = setUp();
    act(() => {
      job.send({ type: 'text edited', text: TEXT });
      job.send({ type: 'check requested' });
    });
    const choice = await screen.findByTestId('too-long');
    expect(choice.textContent).toContain('At most 5,000 characters per check');
    act(() => fireEvent.click(screen.getByTestId('too-long-dismiss')));
    await waitFor(() => expect(screen.queryByTestId('too-long')).toBeNull());
    expect(job.getSnapshot().matches({ job: 'idle' })).toBe(true);
    activateLocale('cn');
    job.stop();
  });
});

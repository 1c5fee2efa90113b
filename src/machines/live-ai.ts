// The AI writing screen's bindings, apart from live.ts so that they load with the screen, not with the app.
import { fromCallback, fromPromise } from 'xstate';
import { aiWriterMachine, type AiWriterEvent } from './aiWriter';
import { streamWriting, writingFunctions } from './aiCalls';
import { forwardServerMessages, type SocketRef } from './findings/socket';
import { liveProofreadJob } from './live';

/**
 * The AI writing screen bound to the /gpt calls. Its proofreading job is the home screen's machine, hearing the app's
 * socket (`socket`) and sending its checks to that socket's session.
 */
export function liveAiWriter(options: { socket: () => SocketRef | undefined; sessionId: () => string | null }) {
  const proofreader = liveProofreadJob({}, options.sessionId).provide({
    actors: { 'socket messages': forwardServerMessages(options.socket) },
  });
  return aiWriterMachine.provide({
    actors: {
      'load functions': fromPromise(() => writingFunctions()),
      run: fromCallback<AiWriterEvent, Parameters<typeof streamWriting>[0]>(({ input, sendBack }) => {
        const controller = new AbortController();
        streamWriting(input, controller.signal, (event) => {
          if (event.kind === 'delta') sendBack({ type: 'delta', text: event.text });
          else if (event.kind === 'done') sendBack({ type: 'finished', used: event.used, truncated: event.truncated });
          else sendBack({ type: 'run failed', message: event.message });
        }).catch((error: unknown) => {
          if (!controller.signal.aborted)
            sendBack({ type: 'run failed', message: error instanceof Error ? error.message : '系统异常' });
        });
        return () => controller.abort();
      }),
      proofreader,
    },
  });
}

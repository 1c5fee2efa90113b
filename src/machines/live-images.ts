// The image screen's bindings, apart from live.ts so that they load with the screen, not with the app.
import { fromCallback } from 'xstate';
import { forwardServerMessages, type SocketRef } from './findings/socket';
import * as images from './imageCalls';
import { imageChecksMachine, IMAGE_POLL_MS } from './imageChecks';

/** Image proofreading bound to the image calls; the view lets go of the pictures' object URLs. */
export function liveImageChecks(options: { socket?: () => SocketRef | undefined; release?(url: string): void } = {}) {
  return imageChecksMachine.provide({
    actors: {
      ...(options.socket ? { 'socket messages': forwardServerMessages(options.socket) } : {}),
      upload: fromCallback(({ input, sendBack }) => {
        const controller = new AbortController();
        images.uploadImage(input.file, input.name, { signal: controller.signal }).then(
          (answer) => sendBack({ type: 'uploaded', key: input.key, taskId: answer.task_id }),
          (error: unknown) => {
            if (controller.signal.aborted) return;
            const message = error instanceof Error && error.message ? error.message : '系统异常';
            sendBack({ type: 'upload failed', key: input.key, error: message });
          },
        );
        return () => controller.abort();
      }),
      poll: fromCallback(({ input, sendBack }) => {
        const timer = setInterval(() => {
          images.imageResult(input.taskId).then(
            (data) => {
              images.rememberImageError(data);
              sendBack({ type: 'result', data });
            },
            () => undefined,
          );
        }, IMAGE_POLL_MS);
        return () => clearInterval(timer);
      }),
      recheck: fromCallback(({ input, sendBack }) => {
        images.recheckImage(input.taskId, input.text).then(
          (data) => sendBack({ type: 'result', data }),
          (error: unknown) =>
            sendBack({ type: 'recheck failed', key: input.key, error: error instanceof Error ? error.message : '' }),
        );
      }),
    },
    actions: {
      'release picture': (_, params) => options.release?.(params.url),
    },
  });
}

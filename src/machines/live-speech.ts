// The audio and video screen's bindings, apart from live.ts so that they load with the screen, not with the app.
import { fromCallback, fromPromise } from 'xstate';
import * as speech from './speechCalls';
import { speechTaskMachine } from './speechTask';

/** Audio and video proofreading bound to the speech calls; the view saves the corrected subtitles. */
export function liveSpeechTask(options: { save?(blob: Blob, name: string): void } = {}) {
  return speechTaskMachine.provide({
    actors: {
      sources: fromPromise(() => speech.speechSources()),
      upload: fromCallback(({ input, sendBack }) => {
        const controller = new AbortController();
        speech
          .uploadSpeech(input.media, input.subtitle, {
            signal: controller.signal,
            onProgress: (p) =>
              sendBack({ type: 'upload progress', percent: p.total ? Math.floor((p.loaded / p.total) * 100) : 0 }),
          })
          .then(
            (task) => {
              speech.rememberSpeechError(task);
              sendBack({ type: 'uploaded', task });
            },
            (error: unknown) => {
              if (controller.signal.aborted) return;
              sendBack({
                type: 'upload failed',
                error: error instanceof Error && error.message ? error.message : '系统异常',
              });
            },
          );
        return () => controller.abort();
      }),
      detail: fromPromise(({ input }) => speech.speechDetail(input.taskId)),
      subtitles: fromPromise(async ({ input }) => ({
        blob: await speech.speechSubtitles(input.task.task_id, input.format),
        name: `${input.task.name.replace(/\.[^.]+$/, '')}（校对后）.${input.format}`,
      })),
    },
    actions: {
      'save file': (_, params) => options.save?.(params.blob, params.name),
    },
  });
}

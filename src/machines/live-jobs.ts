// The job queue screen's bindings, apart from live.ts so that they load with the screen, not with the app.
import { fromPromise } from 'xstate';
import { cancelJob, jobQueue, retryJob } from '../api/jobs';
import { jobQueueMachine } from './jobQueue';

export function liveJobQueue() {
  return jobQueueMachine.provide({
    actors: {
      load: fromPromise(() => jobQueue()),
      act: fromPromise(({ input }) => (input.action === 'retry' ? retryJob(input.id) : cancelJob(input.id))),
    },
  });
}

// The guide modal's bindings, apart from live.ts so that they load with the (lazy) modal, not with the app.
import { fromPromise } from 'xstate';
import { guideMachine } from './guide';
import { recordGuide } from './guideCalls';

/** The guide modal bound to GET /wizard/v1/access. */
export function liveGuide() {
  return guideMachine.provide({
    actors: {
      record: fromPromise(({ input }) => recordGuide(input.type, input.ver)),
    },
  });
}

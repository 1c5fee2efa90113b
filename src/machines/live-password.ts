// The forgotten-password flow's bindings (login page), apart from live.ts so that they load with the screen.
import { fromPromise } from 'xstate';
import * as user from '../api/user';
import { passwordResetMachine } from './passwordReset';

/** A forgotten password (the login page): its calls answer silently, the form shows each error by its field. */
export function livePasswordReset() {
  return passwordResetMachine.provide({
    actors: {
      'send code': fromPromise(async ({ input }) => {
        await user.sendSmsCode(input.phone, 'reset', { silent: true });
      }),
      'reset password': fromPromise(({ input }) =>
        user.resetPassword({ phone: input.phone, code: input.code, new_password: input.password }, { silent: true }),
      ),
    },
  });
}

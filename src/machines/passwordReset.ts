// A forgotten password (the login page's 忘记密码): phone, an SMS code of purpose `reset` (POST /user/sms_code), the new
// password twice, then POST /user/reset_pwd; the server revokes every login, so the user logs in again. Each field
// shows its own error: the form's checks, or the server's answer (a wrong code under the code, its 429 under what was
// refused).
import { assign, setup, fromPromise, type ActorRefFrom } from 'xstate';
import { codedServerMessage } from '../api/serverMessages';
import { notProvided } from './provide';

export const PHONE_PATTERN = /^1\d{10}$/;
export const SMS_CODE_PATTERN = /^\d{6}$/;
/** The server's rule (passwordProblem): 6 to 32 characters, not only spaces. */
export const MIN_PASSWORD = 6;
export const MAX_PASSWORD = 32;
/** Seconds before another code may be asked for. */
export const CODE_COOLDOWN_S = 60;

export type ResetField = 'phone' | 'code' | 'password' | 'confirm' | 'form';

/** `invalid`: the form's own check failed (the view says why per field); otherwise the server's message. */
export type FieldErrors = Partial<Record<ResetField, 'invalid' | { message: string }>>;

export interface PasswordResetContext {
  phone: string;
  /** seconds left before another code may be sent */
  cooldown: number;
  codeSent: boolean;
  errors: FieldErrors;
}

export interface ResetRequest {
  phone: string;
  code: string;
  password: string;
  confirm: string;
}

export type PasswordResetEvent =
  | { type: 'code requested'; phone: string }
  | ({ type: 'reset submitted' } & ResetRequest)
  | { type: 'field edited'; field: ResetField };

const statusOf = (error: unknown) => (error as { status?: unknown } | null)?.status;
const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : '系统异常');

/** Which field a refused reset belongs to: the code's and the password's problems there, the rest to the form. */
export function fieldOfResetError(error: unknown): ResetField {
  if (statusOf(error) !== 400) return 'form';
  const code = codedServerMessage(messageOf(error))?.code ?? '';
  if (code.startsWith('sms.')) return 'code';
  if (code.startsWith('account.password')) return 'password';
  return 'form';
}

/** The form's own checks of a submitted reset. */
export function checkReset(request: ResetRequest): FieldErrors {
  const errors: FieldErrors = {};
  if (!PHONE_PATTERN.test(request.phone)) errors.phone = 'invalid';
  if (!SMS_CODE_PATTERN.test(request.code)) errors.code = 'invalid';
  const { password } = request;
  if (password.length < MIN_PASSWORD || password.length > MAX_PASSWORD || password.trim() === '')
    errors.password = 'invalid';
  if (request.confirm !== password) errors.confirm = 'invalid';
  return errors;
}

export const passwordResetMachine = setup({
  types: {
    context: {} as PasswordResetContext,
    events: {} as PasswordResetEvent,
  },
  actors: {
    /** POST /user/sms_code {purpose: 'reset'} (silent: the form shows what went wrong) */
    'send code': fromPromise<void, { phone: string }>(notProvided('passwordReset', 'send code')),
    /** POST /user/reset_pwd (silent) */
    'reset password': fromPromise<void, { phone: string; code: string; password: string }>(
      notProvided('passwordReset', 'reset password'),
    ),
  },
  guards: {
    'phone is valid': ({ event }) => event.type === 'code requested' && PHONE_PATTERN.test(event.phone),
    'reset is valid': ({ event }) => event.type === 'reset submitted' && Object.keys(checkReset(event)).length === 0,
    'cooldown over': ({ context }) => context.cooldown <= 1,
  },
  delays: { second: 1000 },
}).createMachine({
  id: 'passwordReset',
  context: { phone: '', cooldown: 0, codeSent: false, errors: {} },
  type: 'parallel',
  on: {
    // typing in a field clears its error (and the form's)
    'field edited': {
      actions: assign(({ context, event }) => {
        const { [event.field]: _field, form: _form, ...errors } = context.errors;
        return { errors };
      }),
    },
  },
  states: {
    code: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'code requested': [
              {
                guard: 'phone is valid',
                target: 'sending',
                actions: assign(({ context, event }) => {
                  const { phone: _phone, code: _code, ...errors } = context.errors;
                  return { phone: event.phone, errors };
                }),
              },
              { actions: assign(({ context }) => ({ errors: { ...context.errors, phone: 'invalid' as const } })) },
            ],
          },
        },
        sending: {
          invoke: {
            src: 'send code',
            input: ({ context }) => ({ phone: context.phone }),
            onDone: { target: 'waiting', actions: assign({ codeSent: true, cooldown: CODE_COOLDOWN_S }) },
            // the rate limit (429) and every other refusal: under the code it was asked for
            onError: {
              target: 'idle',
              actions: assign(({ context, event }) => ({
                errors: { ...context.errors, code: { message: messageOf(event.error) } },
              })),
            },
          },
        },
        waiting: {
          after: {
            second: [
              { guard: 'cooldown over', target: 'idle', actions: assign({ cooldown: 0 }) },
              {
                target: 'waiting',
                reenter: true,
                actions: assign(({ context }) => ({ cooldown: context.cooldown - 1 })),
              },
            ],
          },
        },
      },
    },
    form: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            'reset submitted': [
              {
                guard: 'reset is valid',
                target: 'resetting',
                actions: assign(({ event }) => ({ phone: event.phone, errors: {} })),
              },
              { actions: assign(({ event }) => ({ errors: checkReset(event) })) },
            ],
          },
        },
        resetting: {
          invoke: {
            src: 'reset password',
            input: ({ event }) => {
              if (event.type !== 'reset submitted') throw new Error('a reset starts with its request');
              return { phone: event.phone, code: event.code, password: event.password };
            },
            onDone: { target: 'done' },
            onError: {
              target: 'editing',
              actions: assign(({ event }) => ({
                errors: { [fieldOfResetError(event.error)]: { message: messageOf(event.error) } },
              })),
            },
          },
        },
        // the password is set and every login revoked: the view goes back to logging in
        done: { type: 'final' },
      },
    },
  },
});

export type PasswordResetRef = ActorRefFrom<typeof passwordResetMachine>;

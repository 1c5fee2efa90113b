// A forgotten password (src/machines/passwordReset.ts) driven with its live calls over a fake transport: the code,
// its cooldown, the form's checks per field, the server's refusals each under its field, and the reset.
import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import { configureApi } from '../../src/api/client';
import { livePasswordReset } from '../../src/machines/live-password';
import { CODE_COOLDOWN_S } from '../../src/machines/passwordReset';
import { collectNotices, freshStores } from '../api/helpers';

type Answer = { status: number; code?: string; msg: string };

function harness(answers: Partial<Record<'/user/sms_code' | '/user/reset_pwd', Answer[]>> = {}) {
  freshStores();
  const bodies: Array<{ path: string; body: unknown }> = [];
  configureApi({
    baseURL: 'http://api.test',
    fetch: async (request) => {
      const path = new URL(request.url).pathname as '/user/sms_code' | '/user/reset_pwd';
      bodies.push({ path, body: await request.clone().json() });
      const answer = answers[path]?.shift() ?? { status: 200, msg: 'ok' };
      const result = answer.status === 200 && path === '/user/sms_code' ? { expires_in: 300 } : null;
      return new Response(
        JSON.stringify({
          code: answer.status,
          msg: answer.msg,
          ...(answer.code ? { msg_code: answer.code } : {}),
          result,
        }),
        { status: answer.status, headers: { 'content-type': 'application/json' } },
      );
    },
  });
  const clock = new SimulatedClock();
  const actor = createActor(livePasswordReset(), { clock }).start();
  const settle = async () => {
    for (let i = 0; i < 6; i++) await new Promise((r) => setTimeout(r, 0));
  };
  return { actor, clock, bodies, settle };
}

const PHONE = '13912345678';
const GOOD = { phone: PHONE, code: '123456', password: 'new-secret', confirm: 'new-secret' };

describe('forgotten password', () => {
  it('sends a reset code, counts down before another, and resets the password', async () => {
    const { notices, unsubscribe } = collectNotices();
    const h = harness();
    h.actor.send({ type: 'code requested', phone: PHONE });
    expect(h.actor.getSnapshot().matches({ code: 'sending' })).toBe(true);
    await h.settle();
    expect(h.bodies).toEqual([{ path: '/user/sms_code', body: { phone: PHONE, purpose: 'reset' } }]);
    expect(h.actor.getSnapshot().context).toMatchObject({ codeSent: true, cooldown: CODE_COOLDOWN_S });
    // no second code while the countdown runs
    h.actor.send({ type: 'code requested', phone: PHONE });
    expect(h.bodies).toHaveLength(1);
    h.clock.increment(1000);
    expect(h.actor.getSnapshot().context.cooldown).toBe(CODE_COOLDOWN_S - 1);
    for (let s = 1; s < CODE_COOLDOWN_S; s++) h.clock.increment(1000);
    expect(h.actor.getSnapshot().matches({ code: 'idle' })).toBe(true);
    expect(h.actor.getSnapshot().context.cooldown).toBe(0);

    h.actor.send({ type: 'reset submitted', ...GOOD });
    expect(h.actor.getSnapshot().matches({ form: 'resetting' })).toBe(true);
    await h.settle();
    expect(h.bodies.at(-1)).toEqual({
      path: '/user/reset_pwd',
      body: { phone: PHONE, code: '123456', new_password: 'new-secret' },
    });
    expect(h.actor.getSnapshot().matches({ form: 'done' })).toBe(true);
    expect(h.actor.getSnapshot().context.phone).toBe(PHONE);
    // the form shows its errors itself: nothing pops up
    expect(notices).toEqual([]);
    unsubscribe();
  });

  it('checks every field before anything is sent, and typing clears a field’s error', () => {
    const h = harness();
    h.actor.send({ type: 'code requested', phone: '123' });
    expect(h.actor.getSnapshot().context.errors).toEqual({ phone: 'invalid' });
    h.actor.send({ type: 'reset submitted', phone: '123', code: '12', password: '  ', confirm: 'x' });
    expect(h.actor.getSnapshot().context.errors).toEqual({
      phone: 'invalid',
      code: 'invalid',
      password: 'invalid',
      confirm: 'invalid',
    });
    expect(h.bodies).toEqual([]);
    h.actor.send({ type: 'field edited', field: 'code' });
    expect(Object.keys(h.actor.getSnapshot().context.errors).sort()).toEqual(['confirm', 'password', 'phone']);
    h.actor.send({ type: 'reset submitted', ...GOOD, password: 'x'.repeat(33), confirm: 'x'.repeat(33) });
    expect(h.actor.getSnapshot().context.errors).toEqual({ password: 'invalid' });
  });

  it('shows the server’s refusals under their fields: a 429 of the code, a wrong code, the reset’s 429', async () => {
    const h = harness({
      '/user/sms_code': [{ status: 429, code: 'rate.sms_address', msg: '验证码发送过于频繁，请 60 分钟后再试' }],
      '/user/reset_pwd': [
        { status: 400, code: 'sms.wrong', msg: '验证码错误' },
        { status: 429, code: 'rate.login_address', msg: '登录尝试过于频繁，请 10 分钟后再试' },
      ],
    });
    h.actor.send({ type: 'code requested', phone: PHONE });
    await h.settle();
    expect(h.actor.getSnapshot().matches({ code: 'idle' })).toBe(true);
    expect(h.actor.getSnapshot().context.errors).toEqual({
      code: { message: '验证码发送过于频繁，请 60 分钟后再试' },
    });
    h.actor.send({ type: 'reset submitted', ...GOOD });
    await h.settle();
    expect(h.actor.getSnapshot().matches({ form: 'editing' })).toBe(true);
    expect(h.actor.getSnapshot().context.errors).toEqual({ code: { message: '验证码错误' } });
    h.actor.send({ type: 'reset submitted', ...GOOD });
    await h.settle();
    expect(h.actor.getSnapshot().context.errors).toEqual({
      form: { message: '登录尝试过于频繁，请 10 分钟后再试' },
    });
    expect(h.actor.getSnapshot().matches({ form: 'editing' })).toBe(true);
  });
});

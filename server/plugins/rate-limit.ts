import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { tooManyRequests } from '../errors';
import type { Limiter } from '../types';

const bodyPhone = (request: FastifyRequest) => String((request.body as { phone?: unknown } | undefined)?.phone ?? '');

/** Limits checked inside handlers (after validation, so the key can use the phone in the body). */
export default fp(
  async (app) => {
    await app.register(rateLimit, { global: false });
    const limiter = (check: ReturnType<typeof app.createRateLimit>): Limiter => async (request) => {
      const result = await check(request);
      if (!result.isAllowed && result.isExceeded) throw tooManyRequests();
    };
    app.decorate('limiters', {
      // Login: 10 attempts per minute per phone + client address.
      login: limiter(app.createRateLimit({ max: 10, timeWindow: 60_000, keyGenerator: (r) => `login|${bodyPhone(r)}|${r.ip}` })),
      // SMS codes: 5 per 10 minutes per phone, so nobody floods a number.
      smsCode: limiter(app.createRateLimit({ max: 5, timeWindow: 600_000, keyGenerator: (r) => `sms|${bodyPhone(r)}` })),
      // Feedback: 10 messages per hour per account.
      leaveMessage: limiter(app.createRateLimit({ max: 10, timeWindow: 3_600_000, keyGenerator: (r) => `msg|${r.auth?.uid ?? r.ip}` })),
    });
  },
  { name: 'rate-limit' },
);

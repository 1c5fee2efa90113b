import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import { databaseRateStore } from '../services/rate-store';
import type { FastifyRequest } from 'fastify';
import { tooManyRequests } from '../errors';
import type { Limiter } from '../types';

const bodyPhone = (request: FastifyRequest) => String((request.body as { phone?: unknown } | undefined)?.phone ?? '');

/** Limits checked inside handlers (after validation, so the key can use the phone in the body). */
export default fp(
  async (app) => {
    // Several processes on PostgreSQL share their counters through the database; one process keeps them in memory.
    const shared = app.dialect === 'postgres' ? { store: databaseRateStore(app.db) } : {};
    await app.register(rateLimit, { global: false, ...shared });
    // whom a call counts against when the handler knows it better than the token (a uid from an API key)
    const subjects = new WeakMap<FastifyRequest, string | number>();
    const subject = (r: FastifyRequest) => subjects.get(r) ?? r.auth?.uid ?? r.ip;
    const limiter = (check: ReturnType<typeof app.createRateLimit>, message?: (retryAfter: number) => string): Limiter => async (request, who) => {
      if (who !== undefined) subjects.set(request, who);
      const result = await check(request);
      if (!result.isAllowed && result.isExceeded) throw tooManyRequests(message?.(result.ttlInSeconds));
    };
    const { checkMax, anonymousMax, windowMs } = app.config.checkRateLimit;
    const per = `${Math.round(windowMs / 1000)} 秒`;
    const checkLimiter = (max: number, key: (r: FastifyRequest) => string, what: string): Limiter => {
      if (max <= 0) return async () => {};
      return limiter(
        app.createRateLimit({ max, timeWindow: windowMs, keyGenerator: key }),
        (retry) => `校对请求过于频繁：${what}每 ${per}最多 ${max} 次，请 ${retry} 秒后再试 (too many checks, retry in ${retry} s)`,
      );
    };
    app.decorate('limiters', {
      // Login: 10 attempts per minute per phone + client address.
      login: limiter(app.createRateLimit({ max: 10, timeWindow: 60_000, keyGenerator: (r) => `login|${bodyPhone(r)}|${r.ip}` })),
      // SMS codes: 5 per 10 minutes per phone, so nobody floods a number.
      smsCode: limiter(app.createRateLimit({ max: 5, timeWindow: 600_000, keyGenerator: (r) => `sms|${bodyPhone(r)}` })),
      // Feedback: 10 messages per hour per account.
      leaveMessage: limiter(app.createRateLimit({ max: 10, timeWindow: 3_600_000, keyGenerator: (r) => `msg|${r.auth?.uid ?? r.ip}` })),
      // Checks (CHECK_RATE_MAX per CHECK_RATE_WINDOW_MS per user; LT_ANON_RATE_MAX per address without a token).
      checkText: checkLimiter(checkMax, (r) => `check|${subject(r)}`, '每个账号'),
      ltCheck: checkLimiter(checkMax, (r) => `lt|${subject(r)}`, '每个账号'),
      ltAnonymous: checkLimiter(anonymousMax, (r) => `lt-anon|${r.ip}`, '未登录时每个地址'),
      // Redemption codes: 10 attempts per 10 minutes per account and 30 per client address, against guessing.
      couponUser: limiter(app.createRateLimit({ max: 10, timeWindow: 600_000, keyGenerator: (r) => `coupon|${r.auth?.uid ?? r.ip}` })),
      couponAddress: limiter(app.createRateLimit({ max: 30, timeWindow: 600_000, keyGenerator: (r) => `coupon-ip|${r.ip}` })),
      // Sharing records: 30 per hour per account (only the first share of a day is rewarded anyway).
      share: limiter(app.createRateLimit({ max: 30, timeWindow: 3_600_000, keyGenerator: (r) => `share|${r.auth?.uid ?? r.ip}` })),
    });
  },
  { name: 'rate-limit' },
);

import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import { databaseRateStore, memoryRateStore } from '../domain/accounts/rate-store';
import type { FastifyRequest } from 'fastify';
import { tooManyRequests } from '../errors';
import type { Limiter, RefundableLimiter } from '../types';
import type { MessageParams, ServerMessageCode } from '../../openapi/messages';

/** What a refused call is told: the message and its values. */
type Refusal = [ServerMessageCode, MessageParams];

const bodyPhone = (request: FastifyRequest) => String((request.body as { phone?: unknown } | undefined)?.phone ?? '');

/** Limits checked inside handlers (after validation, so the key can use the phone in the body). */
export default fp(
  async (app) => {
    // Several processes share their counters: in Redis when configured, else in PostgreSQL; one process on SQLite
    // keeps them in memory.
    let shared: object;
    /** gives one counted request back (a call whose work failed before it cost anything) */
    let refund: (key: string, timeWindow: number) => Promise<void>;
    if (app.config.redisUrl) {
      const redis = new Redis(app.config.redisUrl, { connectTimeout: 2000, maxRetriesPerRequest: 1 });
      redis.on('error', (error: Error) => app.log.error({ err: error }, 'rate-limit store connection failed'));
      app.addHook('onClose', async () => void (await redis.quit().catch(() => {})));
      // Redis unreachable: the limits are skipped rather than every call failing (the login locks live in the database)
      shared = { redis, nameSpace: 'workbench-rate-', skipOnError: true };
      // the key @fastify/rate-limit's Redis store counts under for a limiter made by createRateLimit (a child store
      // for a route without method or url); taken back only while it exists and is above 0
      refund = async (key) => {
        const script =
          "local n = tonumber(redis.call('GET', KEYS[1]) or '0') if n > 0 then redis.call('DECR', KEYS[1]) end";
        await redis.eval(script, 1, `workbench-rate-undefinedundefined-${key}`).catch(() => {});
      };
    } else {
      // our own stores (database, memory) can take a request back; @fastify/rate-limit's memory store cannot
      const Store = app.dialect === 'postgres' ? databaseRateStore(app.db) : memoryRateStore();
      shared = { store: Store };
      const store = new Store();
      refund = (key, timeWindow) => store.decr(key, timeWindow);
    }
    await app.register(rateLimit, { global: false, ...shared });
    // whom a call counts against when the handler knows it better than the token (a uid from an API key)
    const subjects = new WeakMap<FastifyRequest, string | number>();
    const subject = (r: FastifyRequest) => subjects.get(r) ?? r.auth?.uid ?? r.ip;
    const limiter =
      (check: ReturnType<typeof app.createRateLimit>, message?: (retryAfter: number) => Refusal): Limiter =>
      async (request, who) => {
        if (who !== undefined) subjects.set(request, who);
        const result = await check(request);
        if (!result.isAllowed && result.isExceeded) {
          const refusal = message?.(result.ttlInSeconds);
          // the client may wait exactly as long as the limit says
          throw tooManyRequests(result.ttlInSeconds, refusal?.[0], refusal?.[1]);
        }
      };
    /** A limiter whose slot the caller can give back: it resolves to the function that does. */
    const refundable =
      (
        check: ReturnType<typeof app.createRateLimit> | null,
        message?: (retryAfter: number) => Refusal,
      ): RefundableLimiter =>
      async (request) => {
        if (!check) return async () => {};
        const result = await check(request);
        if (!result.isAllowed && result.isExceeded) {
          const refusal = message?.(result.ttlInSeconds);
          throw tooManyRequests(result.ttlInSeconds, refusal?.[0], refusal?.[1]);
        }
        let given = false;
        return async () => {
          if (given || result.isAllowed) return;
          given = true;
          await refund(result.key, result.timeWindow);
        };
      };
    const { checkMax, anonymousMax, windowMs } = app.config.checkRateLimit;
    const window = Math.round(windowMs / 1000);
    const checkLimiter = (
      max: number,
      key: (r: FastifyRequest) => string,
      code: 'rate.check_account' | 'rate.check_anonymous',
    ): Limiter => {
      if (max <= 0) return async () => {};
      return limiter(app.createRateLimit({ max, timeWindow: windowMs, keyGenerator: key }), (retry) => [
        code,
        { window, max, retry },
      ]);
    };
    const { loginPerAddress, smsPerAddress } = app.config.authRateLimit;
    /** "…，请 N 分钟后再试" from the seconds the limiter reports. */
    const inMinutes =
      (code: ServerMessageCode) =>
      (seconds: number): Refusal => [code, { minutes: Math.max(1, Math.ceil(seconds / 60)) }];
    type Key = (r: FastifyRequest) => string;
    /** A limit that 0 turns off (the configurable ones). */
    const optional = (max: number, timeWindow: number, key: Key, message: (retry: number) => Refusal): Limiter =>
      max <= 0 ? async () => {} : limiter(app.createRateLimit({ max, timeWindow, keyGenerator: key }), message);
    // Tracking calls are silent in the client; these bounds only stop a script from filling the tables.
    // Constants, not settings: no real user comes near them.
    const tracking = (max: number, key: Key) =>
      limiter(app.createRateLimit({ max, timeWindow: 60_000, keyGenerator: key }));
    app.decorate('limiters', {
      // Login: 10 attempts per minute per phone + client address.
      login: limiter(
        app.createRateLimit({ max: 10, timeWindow: 60_000, keyGenerator: (r) => `login|${bodyPhone(r)}|${r.ip}` }),
      ),
      // ...and 20 per 10 minutes per phone from any number of addresses (a botnet aiming at one account; the
      // database lockout of domain/accounts/lockout.ts counts failures only, this counts every attempt).
      loginPhone: limiter(
        app.createRateLimit({ max: 20, timeWindow: 600_000, keyGenerator: (r) => `login-phone|${bodyPhone(r)}` }),
        inMinutes('rate.login_phone'),
      ),
      // ...and LOGIN_IP_RATE_MAX per 10 minutes per client address whatever the phone (spraying guesses over
      // many phones); password resets count here too.
      loginAddress: optional(loginPerAddress, 600_000, (r) => `login-ip|${r.ip}`, inMinutes('rate.login_address')),
      // SMS codes: 5 per 10 minutes per phone, so nobody floods a number. A code the gateway failed to send is
      // given back (both limits): the user may ask again without having received anything.
      smsCode: refundable(
        app.createRateLimit({ max: 5, timeWindow: 600_000, keyGenerator: (r) => `sms|${bodyPhone(r)}` }),
      ),
      // ...and SMS_IP_RATE_MAX per hour per client address, so nobody floods many numbers (or our SMS bill).
      smsAddress: refundable(
        smsPerAddress > 0
          ? app.createRateLimit({ max: smsPerAddress, timeWindow: 3_600_000, keyGenerator: (r) => `sms-ip|${r.ip}` })
          : null,
        inMinutes('rate.sms_address'),
      ),
      // Feedback: 10 messages per hour per account.
      leaveMessage: limiter(
        app.createRateLimit({ max: 10, timeWindow: 3_600_000, keyGenerator: (r) => `msg|${r.auth?.uid ?? r.ip}` }),
      ),
      // Checks (CHECK_RATE_MAX per CHECK_RATE_WINDOW_MS per user; LT_ANON_RATE_MAX per address without a token).
      checkText: checkLimiter(checkMax, (r) => `check|${subject(r)}`, 'rate.check_account'),
      ltCheck: checkLimiter(checkMax, (r) => `lt|${subject(r)}`, 'rate.check_account'),
      ltAnonymous: checkLimiter(anonymousMax, (r) => `lt-anon|${r.ip}`, 'rate.check_anonymous'),
      // The word list calls: as many per user as checks (they are cheaper, but a client syncing its list
      // calls them in bursts), and LT_ANON_RATE_MAX per address without a token, counted before the API key
      // is looked up, like /v2/check.
      ltWords: optional(
        checkMax,
        windowMs,
        (r) => `lt-words|${subject(r)}`,
        (retry) => ['rate.words', { retry }],
      ),
      ltWordsAnonymous: optional(
        anonymousMax,
        windowMs,
        (r) => `lt-words-anon|${r.ip}`,
        (retry) => ['rate.words_anonymous', { retry }],
      ),
      // Page-view clicks: 60 per minute per account, 300 per address (an office behind one address).
      click: tracking(60, (r) => `click|${subject(r)}`),
      clickAddress: tracking(300, (r) => `click-ip|${r.ip}`),
      // Feedback on findings, one per accepted or ignored finding, so more: 120 per minute per account, 600
      // per address.
      collect: tracking(120, (r) => `collect|${subject(r)}`),
      collectAddress: tracking(600, (r) => `collect-ip|${r.ip}`),
      // Redemption codes: 10 attempts per 10 minutes per account and 30 per client address, against guessing.
      couponUser: limiter(
        app.createRateLimit({ max: 10, timeWindow: 600_000, keyGenerator: (r) => `coupon|${r.auth?.uid ?? r.ip}` }),
      ),
      couponAddress: limiter(
        app.createRateLimit({ max: 30, timeWindow: 600_000, keyGenerator: (r) => `coupon-ip|${r.ip}` }),
      ),
      // Team invitations send SMS (up to 100 phones a call): 30 calls per hour per account.
      teamInvite: limiter(
        app.createRateLimit({
          max: 30,
          timeWindow: 3_600_000,
          keyGenerator: (r) => `team-invite|${r.auth?.uid ?? r.ip}`,
        }),
      ),
      // Applications (team, API access, joining a team): 10 per hour per account; operators read them.
      teamApply: limiter(
        app.createRateLimit({
          max: 10,
          timeWindow: 3_600_000,
          keyGenerator: (r) => `team-apply|${r.auth?.uid ?? r.ip}`,
        }),
      ),
      // Calls that take a team's invitation code or an SMS invitation code: 20 per 10 minutes per account, so
      // codes cannot be guessed.
      teamCode: limiter(
        app.createRateLimit({ max: 20, timeWindow: 600_000, keyGenerator: (r) => `team-code|${r.auth?.uid ?? r.ip}` }),
      ),
      // WeChat login and binding start an authorisation (a stored state) each: 30 per 10 minutes per address.
      wechat: limiter(app.createRateLimit({ max: 30, timeWindow: 600_000, keyGenerator: (r) => `wechat|${r.ip}` })),
      // AI writing runs call a paid outside service: 20 a minute per account.
      aiWrite: limiter(
        app.createRateLimit({ max: 20, timeWindow: 60_000, keyGenerator: (r) => `ai-write|${r.auth?.uid ?? r.ip}` }),
      ),
      // Sharing records: 30 per hour per account (only the first share of a day is rewarded anyway).
      share: limiter(
        app.createRateLimit({ max: 30, timeWindow: 3_600_000, keyGenerator: (r) => `share|${r.auth?.uid ?? r.ip}` }),
      ),
    });
  },
  { name: 'rate-limit' },
);

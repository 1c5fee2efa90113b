import type { Db, DialectName } from './db';
import type { ServerConfig } from './config';
import type { SmsProvider } from './domain/accounts/sms';
import type { PaymentProvider } from './domain/commerce/pay/provider';
import type { AuthContext } from './domain/accounts/tokens';
import type { RealtimeHub } from './realtime/hub';
import type { JobRunner } from './jobs/runner';
import type { HeavyPool } from './workers/heavy/pool';
import type { ServerInstance } from './workers/instance';

/** Throws 429 when over the limit; `subject` (e.g. a uid) overrides whom the call counts against. */
export type Limiter = (request: import('fastify').FastifyRequest, subject?: string | number) => Promise<void>;
/** A Limiter resolving to a function that gives the slot back, for a call that failed before it cost anything. */
export type RefundableLimiter = (request: import('fastify').FastifyRequest) => Promise<() => Promise<void>>;

declare module 'fastify' {
  interface FastifyInstance {
    config: ServerConfig;
    db: Db;
    dialect: DialectName;
    sms: SmsProvider;
    /** WeChat Pay (or a test's fake gateway behind it); null when payment is not configured. */
    payment: PaymentProvider | null;
    realtime: RealtimeHub;
    /** The job runner of every persisted job: documents, PDFs, images, audio/video, websites (server/jobs). */
    jobs: JobRunner;
    /** Speech tasks: audio and video proofreading (formats/media/speech.ts). */
    /** The bounded worker pool for heavy work (workers/heavy/pool.ts). */
    heavy: HeavyPool;
    /** This process among those sharing the database (heartbeat, reservations, job ownership). */
    instance: ServerInstance;
    /** Resolves the bearer token of the request or throws 401. */
    authenticate(request: FastifyRequest): Promise<AuthContext>;
    limiters: {
      /** POST /user/login, per phone + client address */
      login: Limiter;
      /** POST /user/login, per phone whatever the address */
      loginPhone: Limiter;
      /** POST /user/login and /user/reset_pwd, per client address whatever the phone */
      loginAddress: Limiter;
      /** POST /user/sms_code, per phone */
      smsCode: RefundableLimiter;
      /** POST /user/sms_code, per client address */
      smsAddress: RefundableLimiter;
      leaveMessage: Limiter;
      /** POST /misscut/v{n}/check_text, per user (after authentication) */
      checkText: Limiter;
      /** POST /v2/check, per user (after authentication) */
      ltCheck: Limiter;
      /** POST /v2/check without a bearer token, per client address (before the API key is checked) */
      ltAnonymous: Limiter;
      /** GET /v2/words, POST /v2/words/add and /delete: per user, and per client address without a bearer token */
      ltWords: Limiter;
      ltWordsAnonymous: Limiter;
      /** GET /misscut/v1/click and POST /proofread/result/collect/receive: per user and per client address */
      click: Limiter;
      clickAddress: Limiter;
      collect: Limiter;
      collectAddress: Limiter;
      /** team invitations (SMS), per user */
      teamInvite: Limiter;
      /** team / API / join applications, per user */
      teamApply: Limiter;
      /** calls taking a team invitation code or an SMS invitation code, per user */
      teamCode: Limiter;
      /** POST /user/right_coupon_code/v1/use, per user and per client address */
      couponUser: Limiter;
      couponAddress: Limiter;
      /** the WeChat login and binding navigations, per client address */
      wechat: Limiter;
      /** POST /gpt/v1/chat/completions, per user */
      aiWrite: Limiter;
      /** POST /user/add_sharing_info, per user */
      share: Limiter;
    };
  }
  interface FastifyRequest {
    /** Set by the bearerAuth security handler on secured operations. */
    auth: AuthContext | null;
  }
}

import type { Db, DialectName } from './db';
import type { ServerConfig } from './config';
import type { SmsProvider } from './services/sms';
import type { PaymentProvider } from './services/pay/provider';
import type { AuthContext } from './services/tokens';
import type { RealtimeHub } from './realtime/hub';

export type Limiter = (request: import('fastify').FastifyRequest) => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    config: ServerConfig;
    db: Db;
    dialect: DialectName;
    sms: SmsProvider;
    /** WeChat Pay (or a test's fake gateway behind it); null when payment is not configured. */
    payment: PaymentProvider | null;
    realtime: RealtimeHub;
    /** Resolves the bearer token of the request or throws 401. */
    authenticate(request: FastifyRequest): Promise<AuthContext>;
    limiters: { login: Limiter; smsCode: Limiter; leaveMessage: Limiter };
  }
  interface FastifyRequest {
    /** Set by the bearerAuth security handler on secured operations. */
    auth: AuthContext | null;
  }
}

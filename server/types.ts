import type { Db, DialectName } from './db';
import type { ServerConfig } from './config';
import type { SmsProvider } from './services/sms';
import type { AuthContext } from './services/tokens';
import type { RealtimeHub } from './realtime/hub';

export type Limiter = (request: import('fastify').FastifyRequest) => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    config: ServerConfig;
    db: Db;
    dialect: DialectName;
    sms: SmsProvider;
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

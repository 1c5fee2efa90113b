import type { Generated } from 'kysely';

/** Table types for Kysely. Timestamps are ISO-8601 UTC strings so SQLite and PostgreSQL agree. */
export interface UsersTable {
  uid: Generated<number>;
  /** Null once the account is closed (the number is freed for a new registration). */
  phone: string | null;
  login_id: string | null;
  name: string;
  role: string;
  user_identity: number;
  enterprise_id: number | null;
  password_hash: string;
  created_at: string;
  closed_at: string | null;
}

export interface TokensTable {
  id: Generated<number>;
  /** sha256 of the bearer token; the token itself is never stored. */
  token_hash: string;
  uid: number;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface SmsCodesTable {
  id: Generated<number>;
  phone: string;
  purpose: string;
  code_hash: string;
  attempts: number;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface MessagesTable {
  id: Generated<number>;
  uid: number;
  content: string;
  contact: string | null;
  created_at: string;
}

export interface PortraitsTable {
  uid: number;
  mime: string;
  data: Buffer;
  updated_at: string;
}

export interface ServerInstancesTable {
  id: string;
  started_at: string;
  seen_at: string;
}

export interface CheckReservationsTable {
  check_id: string;
  uid: number;
  instance: string;
  /** JSON: the Consumption (services/rights.ts) the check took */
  consumption: string;
  created_at: string;
}

export interface SocketSessionsTable {
  session_id: string;
  uid: number;
  instance: string;
  created_at: string;
}

export interface RateLimitsTable {
  key: string;
  count: number;
  /** epoch milliseconds */
  reset_at: number | string;
}

export interface Database {
  server_instances: ServerInstancesTable;
  check_reservations: CheckReservationsTable;
  socket_sessions: SocketSessionsTable;
  rate_limits: RateLimitsTable;
  users: UsersTable;
  tokens: TokensTable;
  sms_codes: SmsCodesTable;
  messages: MessagesTable;
  portraits: PortraitsTable;
}

export type DialectName = 'sqlite' | 'postgres';

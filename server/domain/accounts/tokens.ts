import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db';
import { isoIn, nowIso } from '../../db';
import { deleteApiKey } from '../../db/repos/api-keys';
import { findTokenWithAccount, insertToken, revokeOpenTokens, revokeTokenHash } from '../../db/repos/tokens';

export const TOKEN_LIFETIME_MS = 30 * 24 * 3600 * 1000;

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export interface AuthContext {
  uid: number;
  tokenHash: string;
}

/** `Authorization: Bearer <token>` (a bare token is accepted too). */
export function bearerToken(request: { headers: { authorization?: string } }): string {
  const header = request.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match ? match[1] : header.trim();
}

/** Issues a random bearer token; only its sha256 is stored, so a database leak reveals no tokens. */
export async function issueToken(db: Db, uid: number, appUuid?: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await insertToken(db, {
    token_hash: hashToken(token),
    uid,
    created_at: nowIso(),
    expires_at: isoIn(TOKEN_LIFETIME_MS),
    revoked_at: null,
    ...(appUuid ? { app_uuid: appUuid } : {}),
  });
  return token;
}

/** The account behind a live token (not revoked, not expired, account open), or null. */
export async function resolveToken(db: Db, token: string): Promise<AuthContext | null> {
  if (!token) return null;
  const tokenHash = hashToken(token);
  const row = await findTokenWithAccount(db, tokenHash);
  if (!row || row.revoked_at || row.closed_at || row.expires_at <= nowIso()) return null;
  return { uid: row.uid, tokenHash };
}

export async function revokeToken(db: Db, tokenHash: string): Promise<void> {
  await revokeTokenHash(db, tokenHash, nowIso());
}

/**
 * Every way into the account but `keepHash` stops working: other tokens and the API key (a password change or
 * reset, logging out everywhere). Returns the revoked token hashes, whose sockets the caller closes.
 */
export async function revokeCredentials(db: Db, uid: number, keepHash?: string): Promise<string[]> {
  const hashes = await revokeOpenTokens(db, uid, nowIso(), keepHash);
  await deleteApiKey(db, uid);
  return hashes;
}

import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db';
import { isoIn, nowIso } from '../db';

export const TOKEN_LIFETIME_MS = 30 * 24 * 3600 * 1000;

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export interface AuthContext {
  uid: number;
  tokenHash: string;
}

/** Issues a random bearer token; only its sha256 is stored, so a database leak reveals no tokens. */
export async function issueToken(db: Db, uid: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('tokens')
    .values({
      token_hash: hashToken(token),
      uid,
      created_at: nowIso(),
      expires_at: isoIn(TOKEN_LIFETIME_MS),
      revoked_at: null,
    })
    .execute();
  return token;
}

/** The account behind a live token (not revoked, not expired, account open), or null. */
export async function resolveToken(db: Db, token: string): Promise<AuthContext | null> {
  if (!token) return null;
  const tokenHash = hashToken(token);
  const row = await db
    .selectFrom('tokens')
    .innerJoin('users', 'users.uid', 'tokens.uid')
    .select(['tokens.uid', 'tokens.expires_at', 'tokens.revoked_at', 'users.closed_at'])
    .where('tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row || row.revoked_at || row.closed_at || row.expires_at <= nowIso()) return null;
  return { uid: row.uid, tokenHash };
}

export async function revokeToken(db: Db, tokenHash: string): Promise<void> {
  await db
    .updateTable('tokens')
    .set({ revoked_at: nowIso() })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes every live token of the account except `keepHash`; returns the revoked hashes. */
export async function revokeUserTokens(db: Db, uid: number, keepHash?: string): Promise<string[]> {
  let query = db.selectFrom('tokens').select('token_hash').where('uid', '=', uid).where('revoked_at', 'is', null);
  if (keepHash) query = query.where('token_hash', '!=', keepHash);
  const hashes = (await query.execute()).map((r) => r.token_hash);
  if (hashes.length > 0) {
    await db.updateTable('tokens').set({ revoked_at: nowIso() }).where('token_hash', 'in', hashes).execute();
  }
  return hashes;
}

/** Deletes the account's API key (the LanguageTool-compatible API); a new one can be created after logging in. */
export async function revokeApiKeys(db: Db, uid: number): Promise<void> {
  await db.deleteFrom('api_keys').where('uid', '=', uid).execute();
}

/**
 * Every way into the account but `keepHash` stops working: other tokens and the API key (a password change or
 * reset, logging out everywhere). Returns the revoked token hashes, whose sockets the caller closes.
 */
export async function revokeCredentials(db: Db, uid: number, keepHash?: string): Promise<string[]> {
  const hashes = await revokeUserTokens(db, uid, keepHash);
  await revokeApiKeys(db, uid);
  return hashes;
}

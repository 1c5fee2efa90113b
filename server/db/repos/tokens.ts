import type { Insertable } from 'kysely';
import type { Db } from '..';
import type { TokensTable } from '../schema';

/** Bearer tokens (`tokens`), stored as sha256; issuing and resolving them is domain/accounts/tokens.ts. */

export async function insertToken(db: Db, values: Insertable<TokensTable>): Promise<void> {
  await db.insertInto('tokens').values(values).execute();
}

/** The token with this hash and the closing time of its account, if there is such a token. */
export async function findTokenWithAccount(
  db: Db,
  tokenHash: string,
): Promise<{ uid: number; expires_at: string; revoked_at: string | null; closed_at: string | null } | undefined> {
  return db
    .selectFrom('tokens')
    .innerJoin('users', 'users.uid', 'tokens.uid')
    .select(['tokens.uid', 'tokens.expires_at', 'tokens.revoked_at', 'users.closed_at'])
    .where('tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Revokes the token with this hash unless it is revoked already. */
export async function revokeTokenHash(db: Db, tokenHash: string, revokedAt: string): Promise<void> {
  await db
    .updateTable('tokens')
    .set({ revoked_at: revokedAt })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .execute();
}

/**
 * Revokes every live token of the account but the one whose hash is `keepHash`, in one statement; returns the
 * hashes it revoked, for callers that close those sockets one by one.
 */
export async function revokeOpenTokens(db: Db, uid: number, revokedAt: string, keepHash?: string): Promise<string[]> {
  let query = db
    .updateTable('tokens')
    .set({ revoked_at: revokedAt })
    .where('uid', '=', uid)
    .where('revoked_at', 'is', null);
  if (keepHash) query = query.where('token_hash', '!=', keepHash);
  const rows = await query.returning('token_hash').execute();
  return rows.map((r) => r.token_hash);
}

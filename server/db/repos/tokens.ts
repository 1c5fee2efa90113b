import type { Db } from '..';

/** Bearer tokens (`tokens`); issuing and resolving them is services/tokens.ts. */

/**
 * Revokes every live token of the account in one statement (closing it). services/tokens.ts revokeUserTokens
 * reads the hashes first because its callers close those sockets one by one; closing an account closes all of
 * the user's sockets at once and needs no hashes.
 */
export async function revokeOpenTokens(db: Db, uid: number, revokedAt: string): Promise<void> {
  await db
    .updateTable('tokens')
    .set({ revoked_at: revokedAt })
    .where('uid', '=', uid)
    .where('revoked_at', 'is', null)
    .execute();
}

import type { Db } from '..';

/** Account fields of `users` that the profile and account calls change. */

/** The account that has this login id, if any (closed accounts have none). */
export async function findUidByLoginId(db: Db, loginId: string): Promise<number | undefined> {
  const row = await db.selectFrom('users').select('uid').where('login_id', '=', loginId).executeTakeFirst();
  return row?.uid;
}

/** The account's display name, closed accounts included; undefined for an unknown uid. */
export async function findUserName(db: Db, uid: number): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('name').where('uid', '=', uid).executeTakeFirst();
  return row?.name;
}

/** The uids of the open root accounts. */
export async function findOpenRootUids(db: Db): Promise<number[]> {
  const rows = await db
    .selectFrom('users')
    .select('uid')
    .where('role', '=', 'root')
    .where('closed_at', 'is', null)
    .execute();
  return rows.map((r) => r.uid);
}

export async function setLoginId(db: Db, uid: number, loginId: string): Promise<void> {
  await db.updateTable('users').set({ login_id: loginId }).where('uid', '=', uid).execute();
}

export async function setPhone(db: Db, uid: number, phone: string): Promise<void> {
  await db.updateTable('users').set({ phone }).where('uid', '=', uid).execute();
}

export async function setPasswordHash(db: Db, uid: number, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('uid', '=', uid).execute();
}

/**
 * Marks the account closed: its phone and login id are freed for new registrations and its name is
 * anonymised. Tokens, API key and avatar are the caller's to remove (in the same transaction).
 */
export async function closeUser(db: Db, uid: number, closedAt: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ closed_at: closedAt, phone: null, login_id: null, name: '已注销用户' })
    .where('uid', '=', uid)
    .execute();
}

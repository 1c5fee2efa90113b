import type { Insertable, Selectable } from 'kysely';
import type { Db } from '..';
import type { UsersTable } from '../schema';

/** Accounts (`users`): finding them, creating them and changing their fields. */

export type UserRecord = Selectable<UsersTable>;

/** The open account that has this phone, if any. */
export async function findOpenUserByPhone(db: Db, phone: string): Promise<UserRecord | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('phone', '=', phone)
    .where('closed_at', 'is', null)
    .executeTakeFirst();
}

/** The account if it is open. */
export async function findOpenUser(db: Db, uid: number): Promise<UserRecord | undefined> {
  return db.selectFrom('users').selectAll().where('uid', '=', uid).where('closed_at', 'is', null).executeTakeFirst();
}

/** Every open account, in uid order (the admin CLI's listing). */
export async function findOpenUsers(
  db: Db,
): Promise<Array<Pick<UserRecord, 'uid' | 'phone' | 'name' | 'role' | 'login_id' | 'created_at'>>> {
  return db
    .selectFrom('users')
    .select(['uid', 'phone', 'name', 'role', 'login_id', 'created_at'])
    .where('closed_at', 'is', null)
    .orderBy('uid')
    .execute();
}

/** The account's role, closed accounts included; undefined for an unknown uid. */
export async function findUserRole(db: Db, uid: number): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('role').where('uid', '=', uid).executeTakeFirst();
  return row?.role;
}

/** Creates an account; returns its row. A phone another account has breaks a unique constraint. */
export async function insertUser(db: Db, values: Insertable<UsersTable>): Promise<UserRecord> {
  return db.insertInto('users').values(values).returningAll().executeTakeFirstOrThrow();
}

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

export async function setRole(db: Db, uid: number, role: string): Promise<void> {
  await db.updateTable('users').set({ role }).where('uid', '=', uid).execute();
}

/** The team the account belongs to (`users.enterprise_id`). */
export async function setEnterpriseId(db: Db, uid: number, enterpriseId: number | null): Promise<void> {
  await db.updateTable('users').set({ enterprise_id: enterpriseId }).where('uid', '=', uid).execute();
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

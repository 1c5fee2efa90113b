import type { Db } from '../../db';
import { isUniqueViolation, nowIso } from '../../db';
import { findOpenRootUids, findOpenUserByPhone, findUserRole, insertUser, setRole } from '../../db/repos/users';
import type { UsersTable } from '../../db/schema';
import { AppError, conflict } from '../../errors';
import { hashPassword } from './passwords';

export const ROLES = ['free', 'user', 'user_admin', 'dic_admin', 'admin', 'root'] as const;
export type Role = (typeof ROLES)[number];

export const PHONE_PATTERN = /^1\d{10}$/;

export interface UserInfo {
  uid: number;
  phone: string;
  name: string;
  role: string;
  user_identity: number;
  enterprise_id: number | null;
  login_id: string | null;
}

type UserRow = Omit<UsersTable, 'uid'> & { uid: number };

export const toUserInfo = (u: UserRow): UserInfo => ({
  uid: u.uid,
  phone: u.phone ?? '',
  name: u.name,
  role: u.role,
  user_identity: u.user_identity,
  enterprise_id: u.enterprise_id,
  login_id: u.login_id,
});

/** Default display name: the phone with its middle digits hidden, e.g. 138****0000. */
export const defaultName = (phone: string) => `${phone.slice(0, 3)}****${phone.slice(-4)}`;

export async function createUser(
  db: Db,
  input: { phone: string; password: string; name?: string; role?: Role },
): Promise<UserRow> {
  const taken = () => conflict('account.phone_taken');
  if (await findOpenUserByPhone(db, input.phone)) throw taken();
  // Two registrations of one phone at once (or two processes creating the root): the second insert is refused.
  const row = await insertUser(db, {
    phone: input.phone,
    login_id: null,
    name: input.name?.trim() || defaultName(input.phone),
    role: input.role ?? 'free',
    user_identity: 0,
    enterprise_id: null,
    password_hash: await hashPassword(input.password),
    created_at: nowIso(),
    closed_at: null,
  }).catch((error: unknown) => {
    throw isUniqueViolation(error) ? taken() : error;
  });
  return row;
}

/** First start: create the root account from ADMIN_PHONE / ADMIN_PASSWORD when no root exists. */
export async function ensureRootAdmin(db: Db, phone: string, password: string): Promise<UserRow | null> {
  if ((await findOpenRootUids(db)).length > 0) return null;
  const existing = await findOpenUserByPhone(db, phone);
  if (existing) {
    await setRole(db, existing.uid, 'root');
    return { ...existing, role: 'root' };
  }
  try {
    return await createUser(db, { phone, password, name: '管理员', role: 'root' });
  } catch (error) {
    // another process starting on the same database created it first
    if (error instanceof AppError && error.statusCode === 409) return null;
    throw error;
  }
}

/** The site's operators are the accounts of role root: they review applications, edit the guide, publish notices. */
export async function isOperator(db: Db, uid: number): Promise<boolean> {
  return (await findUserRole(db, uid)) === 'root';
}

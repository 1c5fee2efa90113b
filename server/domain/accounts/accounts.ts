/**
 * The account's own changes (spec §1 account, §2 personal center): login id, phone, password, avatar, feedback and
 * closing the account, with the rules that guard them. The routes parse and answer; sockets of revoked tokens are
 * closed by the caller, which holds the realtime hub.
 */
import type { ServerMessageCode } from '../../../openapi/messages';
import type { Db } from '../../db';
import { nowIso } from '../../db';
import { deleteApiKey } from '../../db/repos/api-keys';
import { insertMessage } from '../../db/repos/feedback';
import { deletePortrait, findPortrait, savePortrait } from '../../db/repos/portraits';
import { findMembership } from '../../db/repos/teams';
import { revokeOpenTokens } from '../../db/repos/tokens';
import {
  closeUser,
  findOpenRootUids,
  findOpenUser,
  findOpenUserByPhone,
  findUidByLoginId,
  setLoginId as storeLoginId,
  setPasswordHash,
  setPhone,
  type UserRecord,
} from '../../db/repos/users';
import { badRequest, conflict } from '../../errors';
import { accountSubject, clearFailures, loginSubject, verifyWithLockout } from './lockout';
import { hashPassword } from './passwords';
import { consumeSmsCode } from './sms';
import { MEMBER_STATUS } from '../teams/teams';
import { revokeCredentials } from './tokens';
import { PHONE_PATTERN } from './users';

// Same rule as the contract: 4-32 characters, a letter first, then letters, digits or _.
const LOGIN_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_]{3,31}$/;

/** An open (not closed) account, or undefined. */
export const openUser = (db: Db, uid: number) => findOpenUser(db, uid);
export const openUserByPhone = (db: Db, phone: string) => findOpenUserByPhone(db, phone);

/** Spec §3 user_identity: 0 personal, 1 team member, 2 team administrator (the team's root and admins). */
export async function userIdentity(db: Db, uid: number): Promise<0 | 1 | 2> {
  const membership = await findMembership(db, uid, MEMBER_STATUS.active);
  return !membership ? 0 : membership.role === 'root' || membership.role === 'admin' ? 2 : 1;
}

/**
 * The current password of a logged-in account, re-entered for a sensitive change. Wrong ones count against
 * the account (5 in 15 minutes lock these checks for 15 minutes, domain/accounts/lockout.ts), so a stolen token
 * cannot be used to guess the password.
 */
export async function checkCurrentPassword(db: Db, user: UserRecord, password: string, wrong: ServerMessageCode) {
  if (!(await verifyWithLockout(db, accountSubject(user.uid), password, user.password_hash, 'lockout.password'))) {
    throw badRequest(wrong);
  }
}

export async function setLoginId(db: Db, uid: number, loginId: string): Promise<void> {
  if (!LOGIN_ID_PATTERN.test(loginId)) throw badRequest('account.login_id_invalid');
  const taken = await findUidByLoginId(db, loginId);
  if (taken !== undefined && taken !== uid) throw conflict('account.login_id_taken');
  await storeLoginId(db, uid, loginId);
}

/**
 * Moves the account to another phone. A token alone must not do it: the owner proves it with the password or with a
 * code sent to the current phone, on top of the new phone's code.
 */
export async function changePhone(
  db: Db,
  user: UserRecord,
  change: { phone: string; code: string; password?: string; oldCode?: string },
): Promise<void> {
  const { phone, code, password, oldCode } = change;
  if (!PHONE_PATTERN.test(phone)) throw badRequest('account.phone_invalid');
  if (phone === user.phone) throw badRequest('account.phone_same');
  if (password !== undefined) {
    await checkCurrentPassword(db, user, password, 'account.current_password_wrong');
  } else if (oldCode !== undefined && user.phone) {
    await consumeSmsCode(db, user.phone, 'verify_old', oldCode);
  } else {
    throw badRequest('account.password_or_code');
  }
  if (await findOpenUserByPhone(db, phone)) throw conflict('account.phone_taken');
  await consumeSmsCode(db, phone, 'phone', code);
  await setPhone(db, user.uid, phone);
}

/**
 * A new password for a logged-in account (its problems already refused). Every other device has to log in again,
 * and the API key (made with the old credentials, maybe by whoever had them) stops working; `keepHash`'s session
 * stays. Returns the revoked token hashes.
 */
export async function changePassword(db: Db, uid: number, password: string, keepHash: string): Promise<string[]> {
  await setPasswordHash(db, uid, await hashPassword(password));
  return revokeCredentials(db, uid, keepHash);
}

/**
 * A new password after the phone was proven by a reset code: whoever knew the old password is out (every token and
 * the API key; the caller closes the sockets), and proving the phone is the way out of a lock someone caused by
 * guessing.
 */
export async function resetPassword(db: Db, uid: number, phone: string, password: string): Promise<void> {
  await setPasswordHash(db, uid, await hashPassword(password));
  await revokeCredentials(db, uid);
  await clearFailures(db, loginSubject(phone));
  await clearFailures(db, accountSubject(uid));
}

export async function leaveMessage(db: Db, uid: number, content: string, contact?: string | null): Promise<void> {
  if (!content.trim()) throw badRequest('account.feedback_empty');
  await insertMessage(db, { uid, content: content.trim(), contact: contact?.trim() || null, created_at: nowIso() });
}

/**
 * Really closes the account: the phone and login id are freed, the name anonymised, the avatar deleted, every token
 * and the API key revoked (the caller closes the sockets). Shared document links answer 410 from then on (the share
 * calls check the owner). The last root of the site cannot go.
 */
export async function closeAccount(db: Db, user: UserRecord, password: string): Promise<void> {
  await checkCurrentPassword(db, user, password, 'account.password_wrong');
  if (user.role === 'root' && (await findOpenRootUids(db)).length <= 1) throw conflict('account.last_root');
  await db.transaction().execute(async (trx) => {
    await closeUser(trx, user.uid, nowIso());
    await revokeOpenTokens(trx, user.uid, nowIso());
    await deleteApiKey(trx, user.uid);
    await deletePortrait(trx, user.uid);
  });
}

export const portraitOf = (db: Db, uid: number) => findPortrait(db, uid);

export async function setPortrait(db: Db, uid: number, mime: string, data: Buffer): Promise<void> {
  await savePortrait(db, uid, { mime, data, updated_at: nowIso() });
}

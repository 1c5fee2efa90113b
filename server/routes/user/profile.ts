import { findMembership } from '../../db/repos/teams';
import { MEMBER_STATUS } from '../../services/teams';
import { nowIso } from '../../db';
import { deleteApiKey } from '../../db/repos/api-keys';
import { insertMessage } from '../../db/repos/feedback';
import { deletePortrait } from '../../db/repos/portraits';
import { revokeOpenTokens } from '../../db/repos/tokens';
import {
  closeUser,
  findOpenRootUids,
  findOpenUser,
  findOpenUserByPhone,
  findUidByLoginId,
  setLoginId,
  setPasswordHash,
  setPhone,
} from '../../db/repos/users';
import { badRequest, conflict, envelope, unauthorized } from '../../errors';
import { accountSubject, verifyWithLockout } from '../../services/lockout';
import { hashPassword, passwordProblem } from '../../services/passwords';
import { consumeSmsCode } from '../../services/sms';
import { revokeCredentials } from '../../services/tokens';
import { PHONE_PATTERN, toUserInfo } from '../../services/users';
import { caller, type Operations } from '../types';
import type { FastifyRequest } from 'fastify';
import type { ServerMessageCode } from '../../../openapi/messages';

// Same rule as the contract: 4-32 characters, a letter first, then letters, digits or _.
const LOGIN_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_]{3,31}$/;

/** The calling account; a token whose account vanished counts as logged out. */
export async function currentUser(request: FastifyRequest) {
  const auth = await caller(request);
  const user = await findOpenUser(request.server.db, auth.uid);
  if (!user) throw unauthorized();
  return { auth, user };
}

type OpenUser = Awaited<ReturnType<typeof currentUser>>['user'];

/**
 * The current password of a logged-in account, re-entered for a sensitive change. Wrong ones count against
 * the account (5 in 15 minutes lock these checks for 15 minutes, services/lockout.ts), so a stolen token
 * cannot be used to guess the password.
 */
async function checkCurrentPassword(
  request: FastifyRequest,
  user: OpenUser,
  password: string,
  wrong: ServerMessageCode,
) {
  const db = request.server.db;
  if (!(await verifyWithLockout(db, accountSubject(user.uid), password, user.password_hash, 'lockout.password'))) {
    throw badRequest(wrong);
  }
}

export const profileOperations: Operations = {
  getUserUserInfo: async (request) => {
    const { user } = await currentUser(request);
    // spec §3 user_identity: 0 personal, 1 team member, 2 team administrator (the team's root and admins)
    const membership = await findMembership(request.server.db, user.uid, MEMBER_STATUS.active);
    const identity = !membership ? 0 : membership.role === 'root' || membership.role === 'admin' ? 2 : 1;
    return envelope({ ...toUserInfo(user), user_identity: identity });
  },

  putUserLoginId: async (request) => {
    const { user } = await currentUser(request);
    const { login_id: loginId } = request.body;
    if (!LOGIN_ID_PATTERN.test(loginId)) {
      throw badRequest('account.login_id_invalid');
    }
    const { db } = request.server;
    const taken = await findUidByLoginId(db, loginId);
    if (taken !== undefined && taken !== user.uid) throw conflict('account.login_id_taken');
    await setLoginId(db, user.uid, loginId);
    return envelope(null, '修改成功');
  },

  putUserPhone: async (request) => {
    const { user } = await currentUser(request);
    const body = request.body;
    const { phone, code, password, old_code: oldCode } = body;
    if (!PHONE_PATTERN.test(phone)) throw badRequest('account.phone_invalid');
    const { db } = request.server;
    if (phone === user.phone) throw badRequest('account.phone_same');
    // A token alone must not move the account to another phone: the owner proves it with the password
    // or with a code sent to the current phone, on top of the new phone's code.
    if (password !== undefined) {
      await checkCurrentPassword(request, user, password, 'account.current_password_wrong');
    } else if (oldCode !== undefined && user.phone) {
      await consumeSmsCode(db, user.phone, 'verify_old', String(oldCode));
    } else {
      throw badRequest('account.password_or_code');
    }
    if (await findOpenUserByPhone(db, phone)) throw conflict('account.phone_taken');
    await consumeSmsCode(db, phone, 'phone', String(code));
    await setPhone(db, user.uid, phone);
    return envelope(null, '修改成功');
  },

  putUserPwd: async (request) => {
    const { auth, user } = await currentUser(request);
    const { old_password: oldPassword, new_password: newPassword } = request.body;
    await checkCurrentPassword(request, user, oldPassword, 'account.old_password_wrong');
    const problem = passwordProblem(newPassword);
    if (problem) throw badRequest(problem);
    const { db, realtime } = request.server;
    await setPasswordHash(db, user.uid, await hashPassword(newPassword));
    // Every other device has to log in again with the new password, and the API key (made with the old
    // credentials, maybe by whoever had them) stops working; this session stays.
    for (const hash of await revokeCredentials(db, user.uid, auth.tokenHash)) realtime.revokeToken(hash);
    return envelope(null, '密码修改成功');
  },

  postUserLeaveMessage: async (request) => {
    const { user } = await currentUser(request);
    const { content, contact } = request.body;
    await request.server.limiters.leaveMessage(request);
    if (!content.trim()) throw badRequest('account.feedback_empty');
    await insertMessage(request.server.db, {
      uid: user.uid,
      content: content.trim(),
      contact: contact?.trim() || null,
      created_at: nowIso(),
    });
    return envelope(null, '留言成功');
  },

  postUserCancellation: async (request) => {
    const { user } = await currentUser(request);
    const { password } = request.body;
    await checkCurrentPassword(request, user, password, 'account.password_wrong');
    if (user.role === 'root') {
      const { db } = request.server;
      const roots = await findOpenRootUids(db);
      if (roots.length <= 1) throw conflict('account.last_root');
    }
    const { db, realtime } = request.server;
    // Really closed: the phone and login id are freed, the name anonymised, the avatar deleted, every token and
    // the API key revoked. Shared document links answer 410 from now on (the share calls check the owner).
    await db.transaction().execute(async (trx) => {
      await closeUser(trx, user.uid, nowIso());
      await revokeOpenTokens(trx, user.uid, nowIso());
      await deleteApiKey(trx, user.uid);
      await deletePortrait(trx, user.uid);
    });
    realtime.revokeUser(user.uid);
    return envelope(null, '账号已注销');
  },
};

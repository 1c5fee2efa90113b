import { badRequest, envelope, unauthorized } from '../../errors';
import {
  changePassword,
  checkCurrentPassword,
  changePhone,
  closeAccount,
  leaveMessage,
  openUser,
  setLoginId,
  userIdentity,
} from '../../domain/accounts/accounts';
import { passwordProblem } from '../../domain/accounts/passwords';
import { toUserInfo } from '../../domain/accounts/users';
import { caller, type Operations } from '../types';
import type { FastifyRequest } from 'fastify';

/** The calling account; a token whose account vanished counts as logged out. */
export async function currentUser(request: FastifyRequest) {
  const auth = await caller(request);
  const user = await openUser(request.server.db, auth.uid);
  if (!user) throw unauthorized();
  return { auth, user };
}

export const profileOperations: Operations = {
  getUserUserInfo: async (request) => {
    const { user } = await currentUser(request);
    return envelope({ ...toUserInfo(user), user_identity: await userIdentity(request.server.db, user.uid) });
  },

  putUserLoginId: async (request) => {
    const { user } = await currentUser(request);
    await setLoginId(request.server.db, user.uid, request.body.login_id);
    return envelope(null, '修改成功');
  },

  putUserPhone: async (request) => {
    const { user } = await currentUser(request);
    const { phone, code, password, old_code: oldCode } = request.body;
    await changePhone(request.server.db, user, {
      phone,
      code: String(code),
      password,
      oldCode: oldCode === undefined ? undefined : String(oldCode),
    });
    return envelope(null, '修改成功');
  },

  putUserPwd: async (request) => {
    const { auth, user } = await currentUser(request);
    const { old_password: oldPassword, new_password: newPassword } = request.body;
    const { db, realtime } = request.server;
    await checkCurrentPassword(db, user, oldPassword, 'account.old_password_wrong');
    const problem = passwordProblem(newPassword);
    if (problem) throw badRequest(problem);
    for (const hash of await changePassword(db, user.uid, newPassword, auth.tokenHash)) realtime.revokeToken(hash);
    return envelope(null, '密码修改成功');
  },

  postUserLeaveMessage: async (request) => {
    const { user } = await currentUser(request);
    const { content, contact } = request.body;
    await request.server.limiters.leaveMessage(request);
    await leaveMessage(request.server.db, user.uid, content, contact);
    return envelope(null, '留言成功');
  },

  postUserCancellation: async (request) => {
    const { user } = await currentUser(request);
    const { db, realtime } = request.server;
    await closeAccount(db, user, request.body.password);
    realtime.revokeUser(user.uid);
    return envelope(null, '账号已注销');
  },
};

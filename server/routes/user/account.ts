import { badRequest, conflict, envelope, unauthorized } from '../../errors';
import { hashPassword, passwordProblem } from '../../domain/accounts/passwords';
import { loginSubject, verifyWithLockout } from '../../domain/accounts/lockout';
import {
  consumeSmsCode,
  isSmsUnavailable,
  issueSmsCode,
  type SmsProvider,
  type SmsPurpose,
} from '../../domain/accounts/sms';
import { issueToken, revokeCredentials, revokeToken } from '../../domain/accounts/tokens';
import { grantDefaultRights } from '../../domain/rights/ledger';
import { createUser, PHONE_PATTERN } from '../../domain/accounts/users';
import { openUserByPhone, resetPassword } from '../../domain/accounts/accounts';
import { caller, type OperationRequest, type Operations } from '../types';
import { currentUser } from './profile';

// A real hash of a random password, so an unknown phone costs the same time as a wrong password.
const decoyHash = hashPassword(Math.random().toString(36));

function checkPhone(phone: string) {
  if (!PHONE_PATTERN.test(phone)) throw badRequest('account.phone_invalid');
}

/** Stores the code but sends nothing: a reset asked for an unknown phone looks like one for a known phone. */
const nobody: SmsProvider = { name: 'none', sendCode: async () => {} };

/** POST /user/sms_code past its rate limits: sends the code for the purpose (503 `sms.unavailable` if it fails). */
async function sendSmsCode(request: OperationRequest<'postUserSmsCode'>, phone: string, purpose: SmsPurpose) {
  const { db, sms, log } = request.server;
  // the gateway's reason is logged; the user is told only that SMS is unavailable
  const warn = (err: unknown) => log.warn({ err, purpose }, 'SMS code not sent');
  if (purpose === 'verify_old') {
    // Only the logged-in account asks, and only for its own phone: nothing to learn about other numbers.
    const { user } = await currentUser(request);
    if (user.phone !== phone) {
      throw badRequest('sms.own_phone_only');
    }
    return envelope({ expires_in: await issueSmsCode(db, sms, phone, purpose, warn) });
  }
  const registered = await openUserByPhone(db, phone);
  if (purpose === 'reset') {
    // The same answer, in the same time, for registered and unknown phones (no enumeration): a code is
    // stored either way, only a registered phone is sent one, and the answer does not wait for the gateway.
    const deferred: SmsProvider = {
      name: sms.name,
      sendCode: async (message) => {
        void sms.sendCode(message).catch((err: unknown) => log.error({ err }, 'reset code not sent'));
      },
    };
    return envelope({ expires_in: await issueSmsCode(db, registered ? deferred : nobody, phone, purpose) });
  }
  // Registering (or moving to) a phone necessarily says that it is taken; these stay rate-limited above.
  if (registered) throw conflict('account.phone_taken');
  return envelope({ expires_in: await issueSmsCode(db, sms, phone, purpose, warn) });
}

export const accountOperations: Operations = {
  postUserSmsCode: async (request) => {
    const { phone, purpose } = request.body;
    checkPhone(phone);
    const { limiters } = request.server;
    const refunds = [await limiters.smsAddress(request), await limiters.smsCode(request)];
    try {
      return await sendSmsCode(request, phone, purpose);
    } catch (err) {
      // nothing was sent: the attempt does not count against the user's limits
      if (isSmsUnavailable(err)) await Promise.all(refunds.map((refund) => refund()));
      throw err;
    }
  },

  postUserRegister: async (request) => {
    const { phone, code, password, name } = request.body;
    checkPhone(phone);
    const problem = passwordProblem(password);
    if (problem) throw badRequest(problem);
    const { db } = request.server;
    if (await openUserByPhone(db, phone)) throw conflict('account.phone_taken');
    await consumeSmsCode(db, phone, 'register', String(code));
    const user = await createUser(db, { phone, password, name });
    // Default rights of a new account (rights.ts documents them; also given lazily to older accounts).
    await grantDefaultRights(db, user.uid);
    return envelope({ token: await issueToken(db, user.uid) }, '注册成功');
  },

  postUserLogin: async (request) => {
    const { phone, password } = request.body;
    const { db, limiters } = request.server;
    await limiters.loginAddress(request);
    await limiters.loginPhone(request);
    await limiters.login(request);
    const user = await openUserByPhone(db, phone);
    // Unknown phones are checked against the decoy hash and counted like wrong passwords: same time, same answer.
    const hash = user?.password_hash ?? (await decoyHash);
    const ok = await verifyWithLockout(db, loginSubject(phone), password, hash, 'lockout.login');
    if (!user || !ok) throw unauthorized('auth.wrong_credentials');
    return envelope({ token: await issueToken(db, user.uid, request.body.app_uuid) }, '登录成功');
  },

  postUserLogout: async (request) => {
    const { tokenHash } = await caller(request);
    await revokeToken(request.server.db, tokenHash);
    request.server.realtime.revokeToken(tokenHash);
    return envelope(null, '已退出登录');
  },

  postUserLogoutAll: async (request) => {
    const { uid } = await caller(request);
    const { db, realtime } = request.server;
    await revokeCredentials(db, uid);
    realtime.revokeUser(uid);
    return envelope(null, '已在所有设备上退出登录');
  },

  postUserResetPwd: async (request) => {
    const body = request.body;
    const { phone, code, new_password: password } = body;
    checkPhone(phone);
    const problem = passwordProblem(password);
    if (problem) throw badRequest(problem);
    const { db, limiters, realtime } = request.server;
    await limiters.loginAddress(request);
    await consumeSmsCode(db, phone, 'reset', String(code));
    const user = await openUserByPhone(db, phone);
    // Only reachable with the code of an unknown phone, which nobody received; answered like an unknown code.
    if (!user) throw badRequest('sms.expired');
    // whoever knew the old password is out: every token, the API key and their sockets
    await resetPassword(db, user.uid, phone, password);
    realtime.revokeUser(user.uid);
    return envelope(null, '密码已重置，请重新登录');
  },
};

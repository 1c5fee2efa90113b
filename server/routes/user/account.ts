import { badRequest, conflict, envelope, notFound, unauthorized } from '../../errors';
import { hashPassword, passwordProblem, verifyPassword } from '../../services/passwords';
import { consumeSmsCode, issueSmsCode, type SmsPurpose } from '../../services/sms';
import { issueToken, revokeToken } from '../../services/tokens';
import { grantDefaultRights } from '../../services/rights';
import { createUser, findOpenUserByPhone, PHONE_PATTERN } from '../../services/users';
import { bodyOf, caller, type Operation } from '../types';

// A real hash of a random password, so an unknown phone costs the same time as a wrong password.
const decoyHash = hashPassword(Math.random().toString(36));

function checkPhone(phone: string) {
  if (!PHONE_PATTERN.test(phone)) throw badRequest('手机号格式不正确 (phone must be 11 digits starting with 1)');
}

export const accountOperations: Record<string, Operation> = {
  postUserSmsCode: async (request) => {
    const { phone, purpose } = bodyOf<{ phone: string; purpose: SmsPurpose }>(request);
    checkPhone(phone);
    const { db, sms, limiters } = request.server;
    await limiters.smsCode(request);
    const registered = await findOpenUserByPhone(db, phone);
    if ((purpose === 'register' || purpose === 'phone') && registered) throw conflict('该手机号已注册 (phone number already registered)');
    if (purpose === 'reset' && !registered) throw notFound('该手机号未注册 (phone number not registered)');
    return envelope({ expires_in: await issueSmsCode(db, sms, phone, purpose) });
  },

  postUserRegister: async (request) => {
    const { phone, code, password, name } = bodyOf<{ phone: string; code: string; password: string; name?: string }>(request);
    checkPhone(phone);
    const problem = passwordProblem(password);
    if (problem) throw badRequest(problem);
    const { db } = request.server;
    if (await findOpenUserByPhone(db, phone)) throw conflict('该手机号已注册 (phone number already registered)');
    await consumeSmsCode(db, phone, 'register', String(code));
    const user = await createUser(db, { phone, password, name });
    // Default rights of a new account (rights.ts documents them; also given lazily to older accounts).
    await grantDefaultRights(db, user.uid);
    return envelope({ token: await issueToken(db, user.uid) }, '注册成功');
  },

  postUserLogin: async (request) => {
    const { phone, password } = bodyOf<{ phone: string; password: string }>(request);
    const { db, limiters } = request.server;
    await limiters.login(request);
    const user = await findOpenUserByPhone(db, phone);
    const ok = await verifyPassword(password, user?.password_hash ?? (await decoyHash));
    if (!user || !ok) throw unauthorized('手机号或密码错误 (wrong phone or password)');
    return envelope({ token: await issueToken(db, user.uid) }, '登录成功');
  },

  postUserLogout: async (request) => {
    const { tokenHash } = await caller(request);
    await revokeToken(request.server.db, tokenHash);
    request.server.realtime.revokeToken(tokenHash);
    return envelope(null, '已退出登录');
  },
};

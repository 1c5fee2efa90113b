import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db';
import { nowIso } from '../../db';
import { findApiKey, findApiKeysOfUsername, saveApiKey } from '../../db/repos/api-keys';
import { findOpenUser } from '../../db/repos/users';
import { envelope, forbidden, unauthorized } from '../../errors';
import { apiAccessApproved, latestApiApplication } from '../../domain/teams/applications';
import { caller, type Operations } from '../types';

/** API keys for the LanguageTool-compatible API: one per user, stored as sha256, shown once when created. */
const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** The `username` that goes with the key: the login id, or the phone when there is none. */
export const usernameOf = (user: { login_id: string | null; phone: string | null }) =>
  user.login_id || user.phone || '';

/** uid for `username` (phone or login id) + `apiKey`, or 401. */
export async function uidByApiKey(db: Db, username: string, apiKey: string): Promise<number> {
  const user = await findApiKeysOfUsername(db, username);
  const given = Buffer.from(hashKey(apiKey));
  for (const u of user) {
    if (timingSafeEqual(Buffer.from(u.key_hash), given)) return Number(u.uid);
  }
  throw unauthorized('auth.wrong_api_key');
}

/** Whether the user may create an API key, and their latest API-access application's status. */
async function apiAccess(db: Db, uid: number, role: string | undefined, needApproval: boolean) {
  const application = await latestApiApplication(db, uid);
  const allowed = !needApproval || role === 'root' || (await apiAccessApproved(db, uid));
  return { allowed, application };
}

export const apiKeyOperations: Operations = {
  getUserApiKey: async (request) => {
    const { uid } = await caller(request);
    const db = request.server.db;
    const user = await findOpenUser(db, uid);
    const row = await findApiKey(db, uid);
    return envelope({
      exists: !!row,
      username: user ? usernameOf(user) : '',
      hint: row?.hint ?? null,
      created_at: row?.created_at ?? null,
      ...(await apiAccess(db, uid, user?.role, request.server.config.apiKeysNeedApproval)),
    });
  },

  postUserApiKey: async (request) => {
    const { uid } = await caller(request);
    const db = request.server.db;
    const user = await findOpenUser(db, uid);
    if (!(await apiAccess(db, uid, user?.role, request.server.config.apiKeysNeedApproval)).allowed)
      throw forbidden('auth.api_not_approved');
    const apiKey = `wb_${randomBytes(24).toString('base64url')}`;
    const row = { uid, key_hash: hashKey(apiKey), hint: apiKey.slice(-4), created_at: nowIso() };
    await saveApiKey(db, row);
    return envelope(
      { api_key: apiKey, username: user ? usernameOf(user) : '' },
      'API key 已生成，请妥善保存（只显示这一次）',
    );
  },
};

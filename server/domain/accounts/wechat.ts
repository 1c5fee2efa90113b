/**
 * WeChat Open Platform website login and binding (spec §1 wxURL / bindWechat / resetWechat, §2 the `status` query),
 * behind a provider interface. The page sends the user to `/user/wechat/login` (or, with a ticket it takes first,
 * `/bind` and `/unbind`); the server sends them on to WeChat's QR-code page with a single-use state; WeChat comes back
 * to `/user/wechat/callback` with a code, which the provider exchanges for the user's openid. Login lands on
 * `/workbench/?wechat_code=…` (an openid bound to an account: a one-time code the page exchanges for the session
 * with POST /user/wechat/exchange, so that no token is ever in an address) or on the login page with a message;
 * binding and unbinding land on `/workbench/user?status=N` (0 failed, 1 done, 2 not bound, 3 another WeChat,
 * 4 already bound, 5 this WeChat is another account's; 6, a WeChat-only account, cannot happen here: every account
 * has a phone).
 */
import { randomBytes } from 'node:crypto';
import type { ServerConfig } from '../../config';
import { isUniqueViolation, nowIso, type Db } from '../../db';
import { issueToken } from './tokens';

export interface WechatIdentity {
  openid: string;
  unionid?: string;
}

export interface WechatProvider {
  /** WeChat's QR-code page for this state, coming back to `redirectUri` */
  authorizeUrl(state: string, redirectUri: string): string;
  /** The user behind an authorisation code; throws WechatError when WeChat refuses it. */
  exchange(code: string): Promise<WechatIdentity>;
}

export class WechatError extends Error {}

/**
 * The configured provider, or null: WECHAT_APPID and WECHAT_SECRET, and PUBLIC_URL, the only origin WeChat may send
 * users back to (config.ts publicOrigin(); never the request's Host).
 */
export function wechatProvider(config: Pick<ServerConfig, 'wechat' | 'publicUrl'>): WechatProvider | null {
  const { appId, secret, openUrl, apiUrl } = config.wechat;
  if (!appId || !secret || !config.publicUrl) return null;
  return new OpenPlatform(appId, secret, openUrl, apiUrl);
}

class OpenPlatform implements WechatProvider {
  constructor(
    private readonly appid: string,
    private readonly secret: string,
    private readonly openBase: string,
    private readonly apiBase: string,
  ) {}

  authorizeUrl(state: string, redirectUri: string): string {
    const query = new URLSearchParams({
      appid: this.appid,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'snsapi_login',
      state,
    });
    return `${this.openBase.replace(/\/+$/, '')}/connect/qrconnect?${query}#wechat_redirect`;
  }

  async exchange(code: string): Promise<WechatIdentity> {
    const query = new URLSearchParams({
      appid: this.appid,
      secret: this.secret,
      code,
      grant_type: 'authorization_code',
    });
    let json: { openid?: unknown; unionid?: unknown; errcode?: unknown; errmsg?: unknown };
    try {
      const res = await fetch(`${this.apiBase.replace(/\/+$/, '')}/sns/oauth2/access_token?${query}`, {
        signal: AbortSignal.timeout(10_000),
      });
      json = (await res.json()) as typeof json;
    } catch (error) {
      throw new WechatError(`WeChat unreachable: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (typeof json.openid !== 'string' || !json.openid)
      throw new WechatError(`WeChat refused the code: ${String(json.errcode ?? '')} ${String(json.errmsg ?? '')}`);
    return { openid: json.openid, ...(typeof json.unionid === 'string' ? { unionid: json.unionid } : {}) };
  }
}

const STATE_MS = 10 * 60_000;
const TICKET_MS = 2 * 60_000;
/** A login's one-time code: the page exchanges it as soon as it loads. */
const LOGIN_CODE_MS = 60_000;
const random = () => randomBytes(18).toString('base64url');

export type Purpose = 'login' | 'bind' | 'unbind';

async function putState(db: Db, purpose: string, uid: number | null, ms: number): Promise<string> {
  const state = random();
  await db
    .insertInto('wechat_states')
    .values({ state, purpose, uid, expires_at: new Date(Date.now() + ms).toISOString() })
    .execute();
  // the expired ones go as new ones come
  await db.deleteFrom('wechat_states').where('expires_at', '<', nowIso()).execute();
  return state;
}

/** Takes a state or ticket once; null when unknown, used or expired. */
async function takeState(db: Db, state: string, purposes: readonly string[]) {
  const row = await db.selectFrom('wechat_states').selectAll().where('state', '=', state).executeTakeFirst();
  if (!row) return null;
  const gone = await db.deleteFrom('wechat_states').where('state', '=', state).executeTakeFirst();
  if (Number(gone.numDeletedRows) !== 1 || row.expires_at < nowIso() || !purposes.includes(row.purpose)) return null;
  return row;
}

/** A ticket the signed-in page takes before sending the user to bind or unbind (a navigation carries no token). */
export function ticketFor(db: Db, uid: number, purpose: 'bind' | 'unbind'): Promise<string> {
  return putState(db, `ticket-${purpose}`, uid, TICKET_MS);
}

/** Where to send the user: WeChat's page with a fresh state; null for a bad ticket (bind / unbind). */
export async function startAuthorisation(
  db: Db,
  provider: WechatProvider,
  purpose: Purpose,
  callbackUrl: string,
  ticket?: string,
): Promise<string | null> {
  let uid: number | null = null;
  if (purpose !== 'login') {
    const row = ticket ? await takeState(db, ticket, [`ticket-${purpose}`]) : null;
    if (!row || row.uid === null) return null;
    uid = row.uid;
  }
  return provider.authorizeUrl(await putState(db, purpose, uid, STATE_MS), callbackUrl);
}

/** Where the callback sends the user (a path under /workbench). */
export async function finishAuthorisation(
  db: Db,
  provider: WechatProvider,
  input: { code?: string; state?: string },
): Promise<string> {
  const row = input.state ? await takeState(db, input.state, ['login', 'bind', 'unbind']) : null;
  const failed = (purpose: string | undefined) =>
    purpose === 'login' || !purpose ? `/login?msg=${encodeURIComponent('微信登录失败，请重试')}` : '/user?status=0';
  if (!row || !input.code) return failed(row?.purpose);
  let who: WechatIdentity;
  try {
    who = await provider.exchange(input.code);
  } catch {
    return failed(row.purpose);
  }
  const byOpenid = await db.selectFrom('wechat_links').selectAll().where('openid', '=', who.openid).executeTakeFirst();
  if (row.purpose === 'login') {
    const user = byOpenid
      ? await db
          .selectFrom('users')
          .select('uid')
          .where('uid', '=', byOpenid.uid)
          .where('closed_at', 'is', null)
          .executeTakeFirst()
      : undefined;
    if (!user) return `/login?msg=${encodeURIComponent('该微信尚未绑定账号：请先用手机号登录，在个人中心绑定微信')}`;
    // a one-time code, not the 30-day token: an address ends up in the history and in proxy logs
    return `/?wechat_code=${encodeURIComponent(await putState(db, 'code-login', Number(user.uid), LOGIN_CODE_MS))}`;
  }
  const uid = Number(row.uid);
  const mine = await db.selectFrom('wechat_links').selectAll().where('uid', '=', uid).executeTakeFirst();
  if (row.purpose === 'bind') {
    if (mine) return '/user?status=4';
    if (byOpenid) return '/user?status=5';
    try {
      await db
        .insertInto('wechat_links')
        .values({ uid, openid: who.openid, unionid: who.unionid ?? null, created_at: nowIso() })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) return '/user?status=5';
      throw error;
    }
    return '/user?status=1';
  }
  if (!mine) return '/user?status=2';
  if (mine.openid !== who.openid) return '/user?status=3';
  await db.deleteFrom('wechat_links').where('uid', '=', uid).execute();
  return '/user?status=1';
}

/** The session token for a login's one-time code: once, within a minute, for an account still open; else null. */
export async function exchangeLoginCode(db: Db, code: string): Promise<string | null> {
  const row = await takeState(db, code, ['code-login']);
  if (!row || row.uid === null) return null;
  const open = await db
    .selectFrom('users')
    .select('uid')
    .where('uid', '=', row.uid)
    .where('closed_at', 'is', null)
    .executeTakeFirst();
  return open ? issueToken(db, Number(open.uid)) : null;
}

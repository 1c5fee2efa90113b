import type { FastifyRequest } from 'fastify';
import { badRequest, envelope, unavailable } from '../../errors';
import {
  exchangeLoginCode,
  finishAuthorisation,
  startAuthorisation,
  ticketFor,
  wechatProvider,
} from '../../domain/accounts/wechat';
import { caller, type Operations } from '../types';

/** The provider, or 503 without WECHAT_APPID / WECHAT_SECRET / PUBLIC_URL. */
function provider(request: FastifyRequest) {
  const wechat = wechatProvider(request.server.config);
  if (!wechat) throw unavailable('wechat.not_configured');
  return wechat;
}

// Both from PUBLIC_URL (provider() refuses without it), never from the request's Host.
const callbackUrl = (request: FastifyRequest) => `${request.server.config.origin}/user/wechat/callback`;
/** A place in the workbench (`/user?status=1`), where the page reads the outcome from the query. */
const workbench = (request: FastifyRequest, path: string) => `${request.server.config.origin}/workbench${path}`;

/** WeChat login and binding (domain/accounts/wechat.ts): navigations that end back on the workbench. */
export const wechatOperations: Operations = {
  getUserWechatLogin: async (request, reply) => {
    await request.server.limiters.wechat(request);
    const url = await startAuthorisation(request.server.db, provider(request), 'login', callbackUrl(request));
    return reply.redirect(url ?? workbench(request, '/login'));
  },

  getUserWechatBind: async (request, reply) => {
    await request.server.limiters.wechat(request);
    const url = await startAuthorisation(
      request.server.db,
      provider(request),
      'bind',
      callbackUrl(request),
      request.query.ticket,
    );
    return reply.redirect(url ?? workbench(request, '/user?status=0'));
  },

  getUserWechatUnbind: async (request, reply) => {
    await request.server.limiters.wechat(request);
    const url = await startAuthorisation(
      request.server.db,
      provider(request),
      'unbind',
      callbackUrl(request),
      request.query.ticket,
    );
    return reply.redirect(url ?? workbench(request, '/user?status=0'));
  },

  getUserWechatCallback: async (request, reply) => {
    await request.server.limiters.wechat(request);
    const path = await finishAuthorisation(request.server.db, provider(request), {
      code: request.query.code,
      state: request.query.state,
    });
    return reply.redirect(workbench(request, path));
  },

  /** The login's one-time code from the callback's address, for the session token (never in an address). */
  postUserWechatExchange: async (request) => {
    await request.server.limiters.wechat(request);
    provider(request);
    const token = await exchangeLoginCode(request.server.db, request.body.code);
    if (!token) throw badRequest('wechat.code_invalid');
    return envelope({ token });
  },

  postUserWechatTicket: async (request) => {
    const { uid } = await caller(request);
    provider(request);
    return envelope({ ticket: await ticketFor(request.server.db, uid, request.body.purpose) });
  },
};

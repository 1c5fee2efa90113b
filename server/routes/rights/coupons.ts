import { envelope } from '../../errors';
import { redeemCoupon } from '../../domain/commerce/coupons';
import { recordShare, shareStatus } from '../../domain/commerce/sharing';
import { caller, type Operations } from '../types';
import { requestLang } from '../../domain/locale';

/** Redemption codes (/redemption) and sharing rewards (/share). */
export const couponOperations: Operations = {
  postUserRightCouponCodeV1Use: async (request) => {
    const { uid } = await caller(request);
    // Per account and per address, so neither many accounts on one machine nor one account on many can guess.
    await request.server.limiters.couponUser(request);
    await request.server.limiters.couponAddress(request);
    const { code } = request.body;
    return envelope({ granted: await redeemCoupon(request.server.db, uid, code, requestLang(request)) }, '兑换成功');
  },

  getUserSharingInfo: async (request) => {
    const { uid } = await caller(request);
    return envelope(await shareStatus(request.server.db, uid));
  },

  postUserAddSharingInfo: async (request) => {
    const { uid } = await caller(request);
    await request.server.limiters.share(request);
    const { channel, share_url } = request.body;
    const result = await recordShare(request.server.db, uid, channel, share_url ?? null);
    return envelope(result, result.reward_num > 0 ? '分享成功，加速字数已到账' : '分享成功');
  },
};

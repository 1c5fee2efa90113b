// Redemption codes (/redemption) and 'free speed-up' sharing (/share).
import type { paths } from '../../openapi/schema';
import { api, unwrap, type UnwrapOptions } from './client';

type Ok<P extends keyof paths, M extends 'get' | 'post'> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': { result: infer R } } } };
}
  ? R
  : never;

export type GrantedRight = Ok<'/user/right_coupon_code/v1/use', 'post'>['granted'][number];
export type SharingInfo = Ok<'/user/sharing_info', 'get'>;
export type ShareChannel = 'wechat' | 'moments' | 'weibo' | 'qq' | 'link';

/** Redeems a code; failures (404 unknown, 409 used / expired, 429) throw ApiError and show no toast. */
export async function redeemCode(code: string): Promise<GrantedRight[]> {
  const result = await unwrap(api.POST('/user/right_coupon_code/v1/use', { body: { code } }), { silent: true });
  return result.granted;
}

export async function sharingInfo(options: UnwrapOptions = {}): Promise<SharingInfo> {
  return unwrap(api.GET('/user/sharing_info'), options);
}

export async function recordShare(
  channel: ShareChannel,
  share_url?: string,
): Promise<{ shared_count: number; reward_num: number }> {
  return unwrap(api.POST('/user/add_sharing_info', { body: share_url ? { channel, share_url } : { channel } }));
}

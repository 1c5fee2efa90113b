import type { Db } from '../../db';
import { nowIso } from '../../db';
import { findGrantId } from '../../db/repos/rights';
import { countShares, insertShareRecord } from '../../db/repos/sharing';
import { addGrant, Right } from '../rights/ledger';

/**
 * 'Free speed-up' (route /share, `POST /user/add_sharing_info`): sharing the product grants
 * SHARE_BONUS high-speed characters (right 1), at most once per calendar day in China Standard Time
 * (UTC+8), valid SHARE_BONUS_DAYS days. Every share is recorded; only the first of the day is rewarded.
 * Once per day is enforced by the grant's unique source `share:<YYYY-MM-DD>` (atomic under concurrency).
 */
export const SHARE_BONUS = 5_000;
export const SHARE_BONUS_DAYS = 30;
export const SHARE_CHANNELS = ['wechat', 'moments', 'weibo', 'qq', 'link'] as const;
export type ShareChannel = (typeof SHARE_CHANNELS)[number];

/** The China Standard Time calendar day of a moment, as YYYY-MM-DD (the reward period). */
export function sharePeriod(at: Date = new Date()): string {
  return new Date(at.getTime() + 8 * 3_600_000).toISOString().slice(0, 10);
}

export async function recordShare(
  db: Db,
  uid: number,
  channel: ShareChannel,
  shareUrl: string | null,
  at: Date = new Date(),
) {
  const expiresAt = new Date(at.getTime() + SHARE_BONUS_DAYS * 86_400_000).toISOString();
  return db.transaction().execute(async (trx) => {
    const rewarded = await addGrant(
      trx,
      uid,
      Right.highSpeedChars,
      SHARE_BONUS,
      `share:${sharePeriod(at)}`,
      expiresAt,
      '分享加速奖励',
    );
    const reward_num = rewarded ? SHARE_BONUS : 0;
    await insertShareRecord(trx, { uid, channel, share_url: shareUrl, reward_num, created_at: nowIso() });
    return { shared_count: await countShares(trx, uid), reward_num };
  });
}

/** Whether today's bonus is still available (for the share page). */
export async function shareStatus(db: Db, uid: number, at: Date = new Date()) {
  const today = await findGrantId(db, uid, `share:${sharePeriod(at)}`);
  const shared = await countShares(db, uid);
  return {
    shared_count: shared,
    rewarded_today: today !== undefined,
    bonus: SHARE_BONUS,
    bonus_days: SHARE_BONUS_DAYS,
  };
}

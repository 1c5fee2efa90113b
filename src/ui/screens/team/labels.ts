import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { I18n } from '@lingui/core';
import { serverMessageText } from '../../server-messages';
import type { Member, TeamRole } from '../../../machines/teamCalls';

type MemberStatus = Member['status'];

/** Spec §3 team roles. */
export const ROLE_LABELS: Record<string, MessageDescriptor> = {
  root: msg`超级管理员`,
  admin: msg`管理员`,
  dic_admin: msg`词库管理员`,
  user_admin: msg`成员管理员`,
  user: msg`普通成员`,
  free: msg`免费用户`,
};

/** Spec §3 member statuses. */
export const STATUS_LABELS: Record<number, MessageDescriptor> = {
  1: msg`生效中`,
  2: msg`待续费`,
  3: msg`异常`,
  4: msg`已发邀请`,
  5: msg`对方拒绝`,
  6: msg`申请加入`,
  7: msg`拒绝加入`,
  11: msg`已失效`,
};

export const STATUS_PALETTE: Record<number, string> = {
  1: 'green',
  2: 'orange',
  3: 'red',
  4: 'blue',
  5: 'gray',
  6: 'purple',
  7: 'gray',
  11: 'gray',
};

/** A reason the server gave as a message code (batch invitations), in the reader's language. */
export function reasonText(i18n: I18n, code: string): string {
  return serverMessageText(i18n, code);
}

const TEAM_ROLE_VALUES: readonly TeamRole[] = ['admin', 'dic_admin', 'user_admin', 'user'];
const STATUS_VALUES: readonly MemberStatus[] = [1, 2, 3, 4, 5, 6, 7, 11];

/** A select's value as a role that can be given (anything else: a plain member). */
export const toTeamRole = (value: string): TeamRole => TEAM_ROLE_VALUES.find((r) => r === value) ?? 'user';
/** A select's value as a member status (empty or unknown: none). */
export const toStatus = (value: string): MemberStatus | null => STATUS_VALUES.find((s) => String(s) === value) ?? null;

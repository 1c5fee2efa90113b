// The one way a balance or a limit of a right reads: the number grouped in the reader's language with its unit
// ('20,000 字', '20,000 characters'), or 不限 / Unlimited for an unlimited right. Every screen that shows an amount of
// a right uses it; the server's `num_desc` is Chinese only and is never shown.
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/** What the server grants as unlimited (server/domain/rights/ledger.ts UNLIMITED); it reads so even after use. */
export const UNLIMITED = 1_000_000_000;

export type BalanceUnit = 'chars' | 'times' | 'minutes' | 'pages' | 'mb';

const UNITS: Record<number, BalanceUnit> = {
  1: 'chars',
  32: 'chars',
  64: 'chars',
  128: 'chars',
  512: 'chars',
  8192: 'chars',
  65536: 'chars',
  1024: 'minutes',
  2048: 'minutes',
  262144: 'pages',
  524288: 'mb',
};

/** The unit of a right (`user_right_type`): characters, minutes, pages, MB, else times. */
export function unitOfRight(type: number): BalanceUnit {
  return UNITS[type] ?? 'times';
}

export function isUnlimited(amount: number): boolean {
  return amount >= UNLIMITED;
}

/** e.g. '20,000 字', '5 times', '10 分鐘', '不限' / 'Unlimited'. */
export function formatBalance(i18n: I18n, amount: number, unit: BalanceUnit): string {
  if (isUnlimited(amount)) return i18n._(msg`不限`);
  const n = i18n.number(amount);
  switch (unit) {
    case 'chars':
      return i18n._(msg`${n} 字`);
    case 'minutes':
      return i18n._(msg`${n} 分钟`);
    case 'pages':
      return i18n._(msg`${n} 页`);
    case 'mb':
      return `${n} MB`;
    case 'times':
      return i18n._(msg`${n} 次`);
  }
}

/** The balance or limit of a right, in the right's unit. */
export function formatRight(i18n: I18n, type: number, amount: number): string {
  return formatBalance(i18n, amount, unitOfRight(type));
}

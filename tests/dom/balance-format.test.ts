// The one formatter of a right's balance or limit, in each language.
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import { activateLocale, type Locale } from '../../src/ui/i18n';
import { formatBalance, formatRight, UNLIMITED } from '../../src/ui/format/balance';

afterEach(() => activateLocale('cn'));

const inLocale = (locale: Locale) => {
  activateLocale(locale);
  return i18n;
};

describe('formatBalance', () => {
  it.each([
    ['cn', '19,865 字', '5 次', '10 分钟', '200 页', '20 MB', '不限'],
    ['en', '19,865 characters', '5 times', '10 minutes', '200 pages', '20 MB', 'Unlimited'],
    ['hk', '19,865 字', '5 次', '10 分鐘', '200 頁', '20 MB', '不限'],
  ] as const)(
    '%s: grouped numbers, the unit in the language, unlimited',
    (locale, chars, times, minutes, pages, mb, no) => {
      const t = inLocale(locale);
      expect(formatBalance(t, 19_865, 'chars')).toBe(chars);
      expect(formatBalance(t, 5, 'times')).toBe(times);
      expect(formatBalance(t, 10, 'minutes')).toBe(minutes);
      expect(formatBalance(t, 200, 'pages')).toBe(pages);
      expect(formatBalance(t, 20, 'mb')).toBe(mb);
      expect(formatBalance(t, UNLIMITED, 'chars')).toBe(no);
    },
  );

  it('zero is a number with its unit, not unlimited nor empty', () => {
    expect(formatBalance(inLocale('cn'), 0, 'chars')).toBe('0 字');
    expect(formatBalance(inLocale('en'), 0, 'times')).toBe('0 times');
  });

  it("reads a right's unit from its type", () => {
    const t = inLocale('cn');
    expect(formatRight(t, 1, 999_999)).toBe('999,999 字');
    expect(formatRight(t, 1, UNLIMITED)).toBe('不限');
    expect(formatRight(t, 2, 10)).toBe('10 次');
    expect(formatRight(t, 1024, 10)).toBe('10 分钟');
    expect(formatRight(t, 262144, 200)).toBe('200 页');
    expect(formatRight(t, 524288, 20)).toBe('20 MB');
  });
});

// The SPA fetches each catalogue when it is chosen, the source language's too (src/ui/i18n.ts; main.tsx waits for
// the first one): until a chosen catalogue has arrived the page speaks the source language, never nothing.
import { describe, expect, it } from 'vitest';
import { activateLocale, i18n, loadLocale, mergeCatalogues } from '../../src/ui/i18n';

describe('catalogues on demand', () => {
  it('shows cn while en is fetched, then en; a later choice wins over an earlier one still loading', async () => {
    expect(i18n.locale).toBeFalsy();
    activateLocale('en');
    expect(i18n.locale).toBe('cn');
    expect(i18n._('网络连接失败')).toBe('网络连接失败');
    // a text with a value reads in the source language without its catalogue too
    expect(i18n._('还有 {0} 处，用 Alt+↓ 逐个查看', { 0: 3 })).toBe('还有 3 处，用 Alt+↓ 逐个查看');
    await loadLocale('en');
    await Promise.resolve();
    expect(i18n.locale).toBe('en');
    expect(i18n._('登录已失效，请重新登录')).toBe('Your session has expired. Please log in again.');

    // hk asked for, then cn before hk's catalogue arrived: cn stays
    activateLocale('hk');
    activateLocale('cn');
    await Promise.all([loadLocale('hk'), loadLocale('cn')]);
    await Promise.resolve();
    expect(i18n.locale).toBe('cn');
    activateLocale('hk');
    expect(i18n.locale).toBe('hk');
    expect(i18n._('网络连接失败')).toBe('網絡連線失敗');
  });

  it('falls back to hk for what the English catalogue leaves empty (spec §1)', () => {
    const hk = { a: '網絡連線失敗', b: '用戶規則' };
    const en = { a: 'Network connection failed', b: '' };
    expect(mergeCatalogues([hk, en])).toEqual({ a: 'Network connection failed', b: '用戶規則' });
  });
});

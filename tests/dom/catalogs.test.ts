import { readFileSync } from 'node:fs';
import './setup';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOTICE_MESSAGES } from '../../src/ui/notices';
import { activateLocale, i18n } from '../../src/ui/i18n';

const LOCALES_DIR = join(__dirname, '..', '..', 'locales');

/** msgid -> msgstr of a .po file (single-line entries, as `lingui extract` writes them). */
function readPo(locale: string): Map<string, string> {
  const entries = new Map<string, string>();
  let id: string | null = null;
  for (const line of readFileSync(join(LOCALES_DIR, locale, 'messages.po'), 'utf8').split('\n')) {
    const msgid = line.match(/^msgid "(.*)"$/);
    if (msgid) id = msgid[1];
    const msgstr = line.match(/^msgstr "(.*)"$/);
    if (msgstr && id) {
      entries.set(id, msgstr[1]);
      id = null;
    }
  }
  return entries;
}

describe('message catalogs (cn source, en and hk translated)', () => {
  const en = readPo('en');
  const hk = readPo('hk');

  it('translate every message into English and Hong Kong Chinese', () => {
    expect(en.size).toBeGreaterThan(100);
    expect([...en].filter(([, str]) => str === '').map(([id]) => id)).toEqual([]);
    expect([...hk].filter(([, str]) => str === '').map(([id]) => id)).toEqual([]);
    expect([...hk.keys()].sort()).toEqual([...en.keys()].sort());
  });

  it('write English in English and hk in Traditional characters', () => {
    for (const [id, str] of en) expect(str, id).not.toMatch(/[\u4e00-\u9fff]/);
    // Simplified-only characters that must not appear in the hk catalog.
    const simplifiedOnly = /[这对个们时经为说还过发来长会后里动现实点开关应页账户机络态错误认证设码库级专业]/;
    for (const [id, str] of hk) expect(str, id).not.toMatch(simplifiedOnly);
  });

  it('contain the spec messages that notices carry, by their Chinese text', () => {
    for (const message of NOTICE_MESSAGES) {
      expect(en.get(message.id), message.id).toBeTruthy();
      expect(hk.get(message.id), message.id).toBeTruthy();
    }
    activateLocale('en');
    expect(i18n._('登录已失效，请重新登录')).toBe('Your session has expired. Please log in again.');
    activateLocale('hk');
    expect(i18n._('网络连接失败')).toBe('網絡連線失敗');
    activateLocale('cn');
    expect(i18n._('网络连接失败')).toBe('网络连接失败');
  });
});

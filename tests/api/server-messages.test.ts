// The server's messages by stable code (openapi/messages.ts): the Lingui source generated from the table, the
// en and hk catalogues complete with the same placeholders, and the SPA showing a coded message in the reader's
// language while a message without a code shows as it came.
import { readFileSync } from 'node:fs';
import { setupI18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { SERVER_MESSAGES, fillTemplate, readParams, renderMessage } from '../../openapi/messages';
import { SERVER_MESSAGES_FILE, serverMessagesSource } from '../../scripts/messages-source';
import { rememberServerMessage } from '../../src/api/serverMessages';
import { translateNotice } from '../../src/ui/notices';
import { messages as enServer } from '../../locales/en/server.po';
import { messages as hkServer } from '../../locales/hk/server.po';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/** msgid -> msgstr of a .po file (one line each, as lingui writes them). */
function poEntries(path: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const m of readFileSync(path, 'utf8').matchAll(/^msgid "(.*)"\nmsgstr "(.*)"$/gm))
    entries.set(JSON.parse(`"${m[1]}"`), JSON.parse(`"${m[2]}"`));
  return entries;
}

describe('server messages', () => {
  it('are the Lingui source the SPA extracts (npm run gen:messages)', async () => {
    expect(readFileSync(SERVER_MESSAGES_FILE, 'utf8')).toBe(await serverMessagesSource());
  });

  it('have an en and an hk translation with the same placeholders, for every code', () => {
    for (const locale of ['en', 'hk']) {
      const entries = poEntries(`locales/${locale}/server.po`);
      for (const [code, template] of Object.entries(SERVER_MESSAGES)) {
        const translated = entries.get(`server.${code}`);
        expect(translated, `${locale} ${code}`).toBeTruthy();
        expect(placeholders(translated!), `${locale} ${code}`).toEqual(placeholders(template));
      }
    }
  });

  it('fill their templates; values come only as strings and numbers', () => {
    expect(renderMessage('check.too_long', { max: 5000, total: 6200 })).toBe(
      '单次最多校对 5000 字，这段文字有 6200 字',
    );
    expect(fillTemplate('{a} and {b}', { a: 1 })).toBe('1 and {b}');
    expect(readParams('{"n":2,"s":"x","o":{"deep":1},"b":true}')).toEqual({ n: 2, s: 'x' });
    expect(readParams('not json')).toEqual({});
    expect(readParams([1, 2])).toEqual({});
  });

  it('show in the reader’s language when the code came with them, else as the server wrote them', () => {
    const i18n = setupI18n();
    i18n.load({ en: enServer, hk: hkServer, cn: {} });
    const text = renderMessage('check.not_enough', { available: 12, needed: 40 });
    // not yet seen with a code: as written
    i18n.activate('en');
    expect(translateNotice(i18n, text)).toBe(text);
    rememberServerMessage(text, 'check.not_enough', { available: 12, needed: 40 });
    expect(translateNotice(i18n, text)).toBe('Not enough high-speed characters: 12 left, 40 needed');
    i18n.activate('hk');
    expect(translateNotice(i18n, text)).toBe('高速校對字數不足：剩餘12字，本次需要40字');
    // the source language has no server catalogue: the server's own text
    i18n.activate('cn');
    expect(translateNotice(i18n, text)).toBe(text);
    // a code the catalogue does not know (a newer server) shows the text
    i18n.activate('en');
    rememberServerMessage('新的消息', 'future.message', {});
    expect(translateNotice(i18n, '新的消息')).toBe('新的消息');
    // something that is not a code is not remembered
    rememberServerMessage('另一个消息', 'not a code', {});
    expect(translateNotice(i18n, '另一个消息')).toBe('另一个消息');
  });
});

// Every word a user meets in their language: each screen, signed in and out, read in English must hold no Han
// character, and read in Hong Kong Chinese no character that exists only in simplified Chinese — outside the user's
// own content. User content is marked in the page: `translate="no"` (a text, a file's name, a dictionary's words:
// no translator should touch them) or a `lang` of Chinese (words quoted from the text inside a finding's message).
// Texts are read as a user meets them: visible text, and the names, placeholders and titles of controls.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hanIn, simplifiedIn, simplifiedOnlyCharacters } from '../fixtures/han';
import {
  adminCli,
  openBrowser,
  registerInBrowser,
  runHomeCheck,
  screenshotPath,
  uniquePhone,
  type BrowserSession,
} from './browser';
import { SIGNED_IN_PATHS, SIGNED_OUT_PATHS, settle, visit } from './screens';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');

/** A text with findings of several kinds: a typo, half-width punctuation, a repeated word, an impossible date. */
const TEXT = '我们在2023年2月30日召开了会议,大家对这个方案进行了认真的的讨论，他的成积很好。';

/** The texts of the page a reader meets, outside user content: one entry per text node or attribute. */
function readableTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const userContent = (el: Element | null): boolean => {
      for (let e = el; e && e !== document.documentElement; e = e.parentElement) {
        if (e.getAttribute('translate') === 'no') return true;
        if (e !== document.body && (e.getAttribute('lang') ?? '').startsWith('zh')) return true;
      }
      return false;
    };
    const shown = (el: Element) => el.checkVisibility({ visibilityProperty: true, opacityProperty: false });
    // a control's name may quote the user's words (删除「帐号」): those words are the user's there too
    const quoted = [...document.body.querySelectorAll('[translate="no"], [lang^="zh"]')]
      .map((el) => el.textContent?.trim() ?? '')
      .filter(Boolean)
      .sort((a, b) => b.length - a.length);
    const withoutQuoted = (value: string) => quoted.reduce((v, q) => v.split(q).join('…'), value);
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const el = node.parentElement;
      if (!text || !el || el.closest('script, style, noscript')) continue;
      if (userContent(el) || !shown(el)) continue;
      out.push(text);
    }
    for (const el of document.body.querySelectorAll('[aria-label], [placeholder], [title], img[alt]')) {
      if (userContent(el) || !shown(el)) continue;
      for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
        const value = withoutQuoted(el.getAttribute(name)?.trim() ?? '');
        if (value) out.push(`${value} (${name} of ${el.tagName.toLowerCase()})`);
      }
    }
    return out;
  });
}

/** What each path shows that is not in the reader's language: the offending texts with their characters. */
async function walk(page: Page, paths: readonly string[], wrong: (text: string) => string[], shot: string) {
  const found: Record<string, string[]> = {};
  for (const path of paths) {
    await visit(page, path);
    const texts = await readableTexts(page);
    await page.screenshot({ path: screenshotPath(`${shot}-${path === '/' ? 'home' : path.slice(1)}.png`) });
    // a finding's message and details show when it is selected: each one in turn
    if (path === '/') {
      const items = page.getByTestId('finding-item');
      for (let k = 0; k < (await items.count()); k++) {
        await items.nth(k).click();
        await items.nth(k).getByTestId('finding-message').waitFor();
        texts.push(...(await readableTexts(page)));
      }
      await page.screenshot({ path: screenshotPath(`${shot}-home-finding.png`) });
    }
    const bad = texts
      .map((text) => ({ text, chars: wrong(text) }))
      .filter((t) => t.chars.length)
      .map((t) => `${t.text.slice(0, 60)} [${t.chars.join('')}]`);
    if (bad.length) found[path] = [...new Set(bad)].slice(0, 12);
  }
  return found;
}

async function chooseLanguage(page: Page, locale: 'cn' | 'en' | 'hk') {
  await page.getByTestId('language-switch').first().selectOption(locale);
  const tag = { cn: 'zh-CN', en: 'en', hk: 'zh-HK' }[locale];
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(tag);
  await settle(page);
}

describe('every screen in the reader’s language', () => {
  let session: BrowserSession;
  beforeAll(async () => {
    session = await openBrowser();
    const { page } = session;
    const phone = uniquePhone().replace(/^139/, '136');
    await registerInBrowser(page, baseUrl, dataDir, phone, 'lang-pass-1');
    // a team, so /team shows its tabs and members; a check, so home shows findings and /right a record
    await adminCli(dataDir, 'team', 'create', '--name', `语言编辑部${phone.slice(-4)}`, '--admin', phone);
    // a word in the personal dictionary and a document, so their lists show the user's own Chinese
    await page.evaluate(async () => {
      const headers = { Authorization: `Bearer ${localStorage.getItem('token')}`, cid: 'e2e-lang', endpoint: '1' };
      const word = await fetch('/dict/v1/add_one', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ word: '帐号', type: 5, correct: '账号' }),
      });
      const form = new FormData();
      form.append(
        'file',
        new File(['这是一份测试文档，内容是为了检查语言。'], '语言测试稿.txt', { type: 'text/plain' }),
      );
      const doc = await fetch('/misscut/document/v1/upload', { method: 'POST', headers, body: form });
      if (!word.ok || !doc.ok) throw new Error(`seeding failed: ${word.status} ${doc.status}`);
    });
    await page.reload();
    await page.getByTestId('home-screen').waitFor();
    await page.getByTestId('proofread-editor').focus();
    await page.keyboard.insertText(TEXT);
    await runHomeCheck(page);
    await page.getByTestId('finding-item').first().waitFor();
  }, 90_000);
  afterAll(async () => session?.close());

  it('tells Han and simplified-only characters apart (the checks below can fail)', async () => {
    expect(hanIn('Checked 3 字')).toEqual(['字']);
    expect(simplifiedIn('发說后台里')).toEqual(['发']);
    expect(simplifiedOnlyCharacters().size).toBeGreaterThan(2000);
    // and user content is what the page marks so, nothing else
    const { page } = session;
    await chooseLanguage(page, 'en');
    await visit(page, '/');
    await page.evaluate(() => {
      const marked = document.createElement('p');
      marked.setAttribute('translate', 'no');
      marked.textContent = '用户的文字';
      const plain = document.createElement('p');
      plain.id = 'not-translated';
      plain.textContent = '未翻译';
      document.querySelector('main')?.append(marked, plain);
    });
    const texts = await readableTexts(page);
    await page.evaluate(() => document.querySelectorAll('main > p').forEach((p) => p.remove()));
    expect(texts).toContain('未翻译');
    expect(texts).not.toContain('用户的文字');
  });

  it('in English: no Han character outside user content on any screen', async () => {
    const { page } = session;
    await chooseLanguage(page, 'en');
    expect(await walk(page, SIGNED_IN_PATHS, hanIn, 'lang-en')).toEqual({});
  });

  it('in Hong Kong Chinese: no simplified-only character outside user content on any screen', async () => {
    const { page } = session;
    await chooseLanguage(page, 'hk');
    expect(await walk(page, SIGNED_IN_PATHS, simplifiedIn, 'lang-hk')).toEqual({});
  });

  it('signed out, in English and in Hong Kong Chinese', async () => {
    const { page } = session;
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${baseUrl}/workbench/login`);
    await page.getByRole('form').first().waitFor();
    await chooseLanguage(page, 'en');
    const english = await walk(page, SIGNED_OUT_PATHS, hanIn, 'lang-en-out');
    await chooseLanguage(page, 'hk');
    const traditional = await walk(page, SIGNED_OUT_PATHS, simplifiedIn, 'lang-hk-out');
    expect({ english, traditional }).toEqual({ english: {}, traditional: {} });
  });
});
